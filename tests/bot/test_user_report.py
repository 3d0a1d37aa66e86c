"""Defects a new user met in the sandbox (issue "nufix"), each with the behaviour it needs."""

from __future__ import annotations

from typing import Any

import pytest

from bot import pictures
from bot.service import stats as stats_mod
from bot.texts import tr
from bot.thinking import Thinker
from game.scoring import ChineseShowdown
from storage.api import HandRecord
from storage.check import check_store
from tests.bot import test_service_classic as classic
from tests.bot.fakes import record_drawings
from tests.bot.test_service import BOB, GROUP, press_auto_and_confirm
from tests.bot.test_transitions import ALICE, ALICE_PLAN, play_street_by_plan, stacked_table
from tests.game.helpers import deal
from tests.game.test_history import stored


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every showdown picture's data the service draws, in order."""
    return record_drawings(monkeypatch, pictures.draw_json, lambda args, pid: dict(args[0]))


async def test_r6_a_closing_table_announces_no_fantasyland(drawn: list[dict[str, Any]]) -> None:
    """R8.2a, R6: `/closetable` during the hand where Alice makes Fantasyland: the table
    closes after the showdown, so neither the showdown's text nor its picture says
    "Fantasyland next"; the table closed notice follows."""
    store, _clock, service, presenter, t = await stacked_table()
    assert t.hand is not None
    hand = t.hand
    alice = t.seats[0].player_id
    reply = await service.close_table(GROUP, ALICE, True)
    assert not reply.alert, reply.text
    while t.hand is hand:
        seat = hand.to_act[0]
        if t.seats[seat].user_id == ALICE.user_id:
            await play_street_by_plan(service, presenter, seat, ALICE, ALICE_PLAN)
        else:
            await press_auto_and_confirm(service, presenter, BOB)
    await service.run_due()
    assert service.table_in(GROUP) is None
    res = hand.result
    assert res is not None and res.seats[0].fantasyland_cards == 14  # earned, never played
    texts = [s.text for s in presenter.tables[GROUP.chat_id]] + [p for _, p in presenter.posts]
    showdown = next(x for x in texts if tr("en", "showdown.title", table=t.id, hand=1) in x)
    assert "Fantasyland" not in showdown and "🌴" not in showdown
    closed = tr("en", "reply.table_closed", table=t.id).removesuffix(".")
    assert any(x.startswith(closed) for x in texts)
    assert len(drawn) == 1 and [b["fl_next"] for b in drawn[0]["boards"]] == [0, 0]
    assert await check_store(store) == []
    # nor does the hand's /replay
    record = (await store.hand_history(alice, 1))[0]
    seat = next(s for s, pid in record.players.items() if pid == alice)
    frames = await stats_mod._frames(Thinker(False), record, seat)
    text = stats_mod.replay_screen(record, frames, len(frames), seat, {0: "A", 1: "B"}, "en").text
    assert frames[-1].final and "🌴" not in text and "Fantasyland" not in text


async def test_language_auto_gives_an_open_table_its_players_language_back(env: Any) -> None:
    """README (`auto`: each their own language): a table opened while the group was set to
    `ru` spoke Russian to its English player for good after `/settings language auto`; it
    now takes its seated players' language at once, table message and closing notice too.
    Another setting changed under `auto` leaves the table's language alone."""
    service, presenter, _store, _clock = env
    reply = await service.settings(GROUP, ALICE, True, ["language", "ru"])
    assert not reply.alert, reply.text
    assert "открыт" in (await service.new_table(GROUP, ALICE)).text
    assert not (await service.join(GROUP, ALICE)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.lang == "ru"
    assert "· стол #" in presenter.last_table(GROUP.chat_id).text
    reply = await service.settings(GROUP, ALICE, True, ["language", "auto"])
    assert not reply.alert, reply.text
    assert t.lang == "en"
    assert "· table #" in presenter.last_table(GROUP.chat_id).text
    t.lang = "ru"  # as a table opened under `auto` by a Russian-speaking admin
    reply = await service.settings(GROUP, ALICE, True, ["pictures", "off"])
    assert not reply.alert, reply.text
    assert t.lang == "ru"
    reply = await service.settings(GROUP, ALICE, True, ["language", "auto"])
    assert t.lang == "en"
    reply = await service.close_table(GROUP, ALICE, True)
    assert not reply.alert, reply.text
    assert presenter.last_table(GROUP.chat_id).text == tr("en", "reply.table_closed", table=t.id)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r7_3_the_two_of_three_point_has_a_line_of_its_own(
    env: Any, drawn: list[dict[str, Any]], lang: str
) -> None:
    """R7.3: the point for winning two boxes of three was printed on the top box's line (a
    losing top read "high card jack · +1"), in the text and in the picture. Each box now
    shows its own points (comparison and bonus, R7.1–R7.2) and the two-of-three point a line
    (a figure in the picture) of its own; the totals are unchanged."""
    service, presenter, store, _ = env
    await classic.configure(service, game="chinese", reveal_pause_seconds="0", target_points="200")
    await classic.start(service, [classic.ALICE, classic.BOB], "chinese")
    reply = await service.settings(classic.GROUP, classic.ALICE, True, ["language", lang])
    assert not reply.alert, reply.text
    t = service.table_in(classic.GROUP)
    assert t is not None and t.hand is not None
    hand = t.hand
    await classic.auto_street(service, presenter, classic.ALICE)
    await classic.auto_street(service, presenter, classic.BOB)
    for _ in range(4):
        await service.run_due()
    res = hand.result
    assert res is not None and isinstance(res.showdown, ChineseShowdown)
    players = dict(zip(res.order, res.showdown.players, strict=True))
    winner = next(s for s, p in players.items() if p.two_of_three)
    assert players[winner].two_of_three == 1  # one opponent beaten in two boxes or three
    title = tr(lang, "reveal.title", table=t.id, hand=1)
    text = [s.text for s in presenter.tables[classic.GROUP.chat_id] if title in s.text][-1]
    name = tr(lang, "btn.top")
    two_line = "  " + tr(lang, "reveal.two_of_three", points="+1")
    assert text.count(two_line) == 1
    lines = text.split("\n")
    for seat, p in players.items():
        top = p.box_points[0] + p.bonus[0]  # the top box's own points (R7.1, R7.2)
        block = lines.index(next(x for x in lines if x.startswith(t.board_label(seat) + " · ")))
        top_line = next(x for x in lines[block:] if x.startswith(f"  {name}: "))
        assert top_line.endswith(f" · {top:+d}")
        follows = lines[lines.index(top_line) + 1] if lines.index(top_line) + 1 < len(lines) else ""
        assert (follows == two_line) is (seat == winner)
    assert len(drawn) == 1
    record = (await store.hand_history(t.seats[0].player_id, 1))[0].result
    for board, seat in zip(drawn[0]["boards"], res.order, strict=True):
        p = players[seat]
        assert board["scores"] == [p.box_points[k] + p.bonus[k] for k in range(3)]
        assert board["two_of_three"] == p.two_of_three
        assert sum(board["scores"]) + p.two_of_three == board["points"]
        assert board["points"] == record["counted"][str(seat)] == p.points


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r6_3_a_replay_shows_its_watcher_their_own_fantasyland_cards(lang: str) -> None:
    """R6.3: `/replay` of your own Fantasyland hand read "🂠 hidden until showdown" for your
    own board on streets 1–4 (heads-up it is set while the other plays their streets): it now
    lists the cards you were dealt; the opponent's replay still hides it, as yours hides the
    opponent's board, played hidden as the one ordinary board (R6.3). The last frame is
    the showdown."""
    hand = deal("", seats=(0, 1), button=1, fantasyland={0: 14})
    while not hand.is_over:
        hand.timeout(hand.to_act[0])
    assert hand.result is not None
    record = HandRecord(7, 1, 3, stored(hand), hand.result.to_json(), {0: 10, 1: 11}, 0.0)
    names = {0: "Alice", 1: "Bob"}
    board = hand.result.seat(0).board
    own = sorted((*board.cards(), *hand.discards_of(0)), key=lambda c: (-c.rank, c.index))
    line = "  " + tr(lang, "replay.fl_dealt_at_once", cards=" ".join(c.face for c in own))
    for seat in (0, 1):
        frames = await stats_mod._frames(Thinker(False), record, seat)
        # (streets 1–4 showed Alice the same: one step, fixleft2)
        assert len(frames) == (2 if seat == 0 else 5) and frames[-1].final
        for k in range(1, len(frames)):
            text = stats_mod.replay_screen(record, frames, k, seat, names, lang).text
            lines = text.splitlines()
            mine = lines.index((tr(lang, "replay.you") if seat == 0 else "Alice") + " 🌴:")
            if seat == 0:
                assert lines[mine + 1] == line
                # Bob, the one ordinary player, played his streets hidden too (R6.3)
                bob = lines.index("Bob:")
                assert lines[bob + 1] == "  " + tr(lang, "board.hidden")
            else:
                assert lines[mine + 1] == "  " + tr(lang, "board.hidden")
                assert "replay.fl_dealt" not in text and own[0].face not in lines[mine + 1]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_help_gives_the_stats_usage_the_readme_documents(lang: str) -> None:
    """/help showed `/stats [@user]`; README and /stats itself take `[@user|me]` and a period
    (`week|month|all`): /help says so (Discord's: the user and the period options)."""
    usage = tr(lang, "stats.usage").split(": ", 1)[1].replace(" | ", "|")
    assert usage == ("/stats [@user|me] [week|month|all]" if lang == "en" else
                     "/stats [@игрок|я] [неделя|месяц|всё]")  # fmt: skip
    assert usage + " — " in tr(lang, "help")
    # (Discord's options by the names it shows in every language: user, period)
    assert "/ofc stats [user] [period] — " in tr(lang, "help.discord")


async def test_language_auto_at_a_table_with_nobody_seated_takes_the_admins(env: Any) -> None:
    """The sandbox: a table with only a computer player seated stayed Russian after
    `/settings language auto` from an English-speaking admin; with no person seated, the
    table takes the language of the admin who chose `auto` (as if they opened it now)."""
    service, presenter, _store, _clock = env
    assert not (await service.settings(GROUP, ALICE, True, ["language", "ru"])).alert
    assert "открыт" in (await service.new_table(GROUP, ALICE)).text
    assert not (await service.add_bot(GROUP, ALICE, True, "normal")).alert
    t = service.table_in(GROUP)
    assert t is not None and t.lang == "ru" and [s.bot for s in t.seats.values()] == ["normal"]
    assert not (await service.settings(GROUP, ALICE, True, ["language", "auto"])).alert
    assert t.lang == "en" and "· table #" in presenter.last_table(GROUP.chat_id).text
