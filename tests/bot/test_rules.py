"""``/rules [game]``: the game named (not always the open table's), described as the table
plays it: its scoring scheme (R5.2, R5.3), Fantasyland (R6) and target score (R7.1)."""

from __future__ import annotations

import pytest

from bot.texts import tr
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_settings import new_service, say

ONE_SIX = "Each box won vs each opponent: 1 point, all three: +3 (scoop)."
TWO_PER_ROW = "Each box won vs each opponent: 2 points, no scoop bonus."


async def test_rules_take_the_game_argument() -> None:
    """A new user's /rules chinese described the open Pineapple table's game."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    assert (await service.rules(GROUP, ALICE)).text.startswith("Pineapple OFC:")
    assert (await service.rules(GROUP, ALICE, "")).text.startswith("Pineapple OFC:")
    reply = await service.rules(GROUP, ALICE, "chinese")
    assert reply.text.startswith("Chinese Poker:") and "played to 51 points.\n" in reply.text
    reply = await service.rules(GROUP, ALICE, "OFC")
    assert reply.text.startswith("Classic OFC:") and TWO_PER_ROW in reply.text
    assert "13 cards at once next hand" in reply.text
    reply = await service.rules(GROUP, BOB, "pineapple")
    assert reply.text.startswith("Ананас:") and "1 очко, все три — ещё +3" in reply.text
    reply = await service.rules(GROUP, ALICE, "poker")
    assert reply.alert and reply.text == tr(
        "en", "reply.unknown_game", game="poker", games="pineapple, ofc, chinese"
    )


async def test_rules_describe_the_tables_scoring_and_fantasyland() -> None:
    """The Pineapple rules said "1 point" a box at a two_per_row table."""
    service, _store = new_service()
    assert not (await say(service, "scoring", "two_per_row")).alert
    await service.new_table(GROUP, ALICE)
    text = (await service.rules(GROUP, ALICE)).text
    assert TWO_PER_ROW in text and "1 point" not in text and "scoop)" not in text
    assert "14 cards at once" in text
    assert "2 очка, без бонуса за все три" in (await service.rules(GROUP, BOB)).text
    # a change between hands applies to the table at once, and /rules says so
    assert not (await say(service, "scoring", "one_six")).alert
    t = service.table_in(GROUP)
    assert t is not None
    assert ONE_SIX in (await service.rules(GROUP, ALICE)).text, t.options.scoring
    assert not (await say(service, "fantasyland", "off")).alert
    assert not (await say(service, "target_points", "21")).alert
    text = (await service.rules(GROUP, ALICE, "pineapple")).text
    assert "royal flush 25\nFantasyland is off.\n" in text
    assert "Игра идёт до 21 очка.\n" in (await service.rules(GROUP, BOB, "chinese")).text
    await service.close_table(GROUP, ALICE, True)
    assert not (await say(service, "fantasyland", "on")).alert
    assert not (await say(service, "progressive_fantasyland", "on")).alert
    text = (await service.rules(GROUP, ALICE)).text
    assert "14, 15, 16 or 17 cards at once next hand." in text


async def test_rules_say_how_a_player_stays_in_fantasyland() -> None:
    """/rules said how one enters Fantasyland, never how one stays (R6.4): trips on top or
    quads or better on bottom, and a middle full house where ``stay_on_full_house_middle``
    is on (classic OFC's default)."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    text = (await service.rules(GROUP, ALICE)).text
    assert text.endswith(
        "QQ+ on top (no foul) → Fantasyland: 14 cards at once next hand.\nTrips on top or "
        "quads+ on bottom there (no foul) → Fantasyland again.\nA point costs 1 kush."
    ), text
    assert "Сет наверху или каре и выше внизу в Фантазии" in (await service.rules(GROUP, BOB)).text
    text = (await service.rules(GROUP, ALICE, "ofc")).text
    assert text.endswith(
        "Trips on top, a full house+ in the middle or quads+ on bottom there (no foul) → "
        "Fantasyland again.\nA point costs 1 kush."
    ), text
    assert not (await say(service, "fantasyland", "off")).alert
    assert "again" not in (await service.rules(GROUP, ALICE)).text


async def test_rules_come_in_short_lines_on_a_phone() -> None:
    """/rules was one paragraph of up to 560 characters (Russian): each game's text now
    comes in lines of at most 180 characters, one for the boxes, the streets, the scoring
    (R5.2), the royalties and Fantasyland (R6), in both languages and every game."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    for game in ("pineapple", "ofc", "chinese"):
        for user in (ALICE, BOB):  # English, Russian
            text = (await service.rules(GROUP, user, game)).text
            lines = text.split("\n")
            assert len(lines) >= 3, text
            assert max(len(line) for line in lines) <= 180, text


ROYALTIES_EN = (
    "Royalties (extra points):\n"
    "top: pairs 66–AA pay 1 to 9,\n"
    "  trips 222–AAA pay 10 to 22\n"
    "middle: trips 2, straight 4, flush 8,\n"
    "  full house 12, quads 20,\n"
    "  straight flush 30, royal flush 50\n"
    "bottom: straight 2, flush 4,\n"
    "  full house 6, quads 10,\n"
    "  straight flush 15, royal flush 25\n"
)


async def test_rules_show_the_royalty_table() -> None:
    """A new user: /rules said only "Royalties for strong boxes." and a group of friends has
    no table to look them up in. The table of R5.6 (Pineapple and classic OFC) and the
    bonuses of R7.2 (Chinese Poker) are read from game/'s own functions."""
    service, _store = new_service()
    await service.new_table(GROUP, ALICE)
    for game in ("pineapple", "ofc"):
        text = (await service.rules(GROUP, ALICE, game)).text
        assert "Royalties for strong boxes." not in text
        assert "\n" + ROYALTIES_EN + "QQ+ on top" in text, text
    text = (await service.rules(GROUP, BOB)).text
    assert (
        "Роялти (дополнительные очки):\nверх: пары 66–AA — от 1 до 9,\n"
        "  сеты 222–AAA — от 10 до 22\n"
        "середина: сет 2, стрит 4, флеш 8,\n"
        "  фулл-хаус 12, каре 20, стрит-флеш 30,\n"
        "  роял-флеш 50\n"
        "низ: стрит 2, флеш 4, фулл-хаус 6,\n"
        "  каре 10, стрит-флеш 15, роял-флеш 25\n"
    ) in text, text
    text = (await service.rules(GROUP, ALICE, "chinese")).text
    assert (
        "Bonuses (points):\ntop: trips 222–KKK pay 2,\n  trips AAA pays 10\n"
        "middle: full house 1, quads 3,\n"
        "  straight flush 4, royal flush 10\n"
        "bottom: quads 3, straight flush 4,\n"
        "  royal flush 10\n"
    ) in text, text
    assert "Royalties" not in text
    text = (await service.rules(GROUP, BOB, "chinese")).text
    assert (
        "Бонусы (очки):\nверх: сеты 222–KKK — по 2, сет AAA — 10\nсередина: фулл-хаус 1, каре 3,"
        in text
    )
    # the deuce of spades doubles a box's royalty (R4.4): the table says so
    assert not (await say(service, "deuce_of_spades", "on")).alert
    text = (await service.rules(GROUP, ALICE, "ofc")).text
    assert "royal flush 25\nA box with 2♠ scores double royalties.\nQQ+" in text, text


def test_the_royalty_table_is_read_from_the_game_functions(monkeypatch) -> None:
    """No number of the table is written twice: a royalty function paying other amounts
    makes another table."""
    from bot.service import rules
    from game.options import RuleOptions

    def fake(box, strength):  # only a pair of kings on top, a flush in the middle
        if box.value == "top":
            return 5 if strength >> 20 == 1 and (strength >> 16) & 15 == 13 else 0
        return 7 if box.value == "middle" and strength >> 20 == 5 else 0

    monkeypatch.setattr(rules, "royalty", fake)
    text = rules.rules_text(RuleOptions(), "en")
    assert "Royalties (extra points):\ntop: pair KK pays 5\nmiddle: flush 7\nQQ+" in text


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game", ["pineapple", "ofc", "chinese"])
def test_the_points_table_fits_a_phone_line(game: str, lang: str) -> None:
    """The royalty table (R5.6) and Chinese Poker's bonuses (R7.2) are a list: a box's line
    ran to ~90 characters ("middle: trips 2, … royal flush 50"), which a phone breaks
    anywhere. Each line of the table is now at most 40 characters, a box's list running on
    in indented lines, every item whole."""
    from bot.service.rules import rules_text
    from game.options import GameKind, RuleOptions

    text = rules_text(RuleOptions(game=GameKind(game)), lang)
    lines = text.split("\n")
    title = "rules.bonuses" if game == "chinese" else "rules.royalties"
    start = lines.index(tr(lang, title)) + 1
    heads = tuple(tr(lang, f"rules.box.{box}") for box in ("top", "middle", "bottom"))
    end = start
    while end < len(lines) and lines[end].startswith(("  ", *heads)):
        end += 1
    table = lines[start:end]
    assert [x.split(" ")[0] for x in table if not x.startswith(" ")] == list(heads), table
    assert max(len(x) for x in table) <= 40, table
    items = [i.strip() for x in table for i in x.removeprefix(x.split(" ")[0]).split(",")]
    items = [i for i in items if i]
    # every item a name (or faces) and its points, none split between lines
    assert all(i.rsplit(" ", 1)[-1].replace("–", "").isdigit() for i in items), items
    assert len(items) == {"chinese": 9}.get(game, 15), items


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_r5_4_rules_say_what_a_foul_costs(lang: str) -> None:
    """R5.4: /rules said a board breaking the order is dead, never what that costs; the
    open-face games say it once, Chinese Poker (R7.4, no royalties) not."""
    from bot.service.rules import rules_text
    from game.options import GameKind, RuleOptions

    foul = tr(lang, "rules.foul")
    assert "−6" in foul
    for game in (GameKind.PINEAPPLE, GameKind.OFC):
        assert rules_text(RuleOptions.preset(game), lang).count(foul) == 1
    assert foul not in rules_text(RuleOptions.preset(GameKind.CHINESE), lang)
