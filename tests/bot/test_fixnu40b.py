"""A new user's points (fixnu40b): each test fails without its fix."""

from __future__ import annotations

import time

from bot import render
from bot.texts import tr
from game.board import Box
from game.cards import Card, parse_cards
from game.evaluator import made_so_far
from game.names import hand_name
from tests.bot.discord.test_components import table

# -- the board during play reads as the showdown does: sorted, named ----------------------------


def _c(text: str) -> Card:
    return Card.parse(text)


def test_the_private_board_is_sorted_and_named_pending_cards_included() -> None:
    """Street 1, Alice's five cards placed and not confirmed: Q♣ 4♣ 6♦ 4♥ in the bottom,
    J♦ on top. Her board read "Q♣ 4♣ 6♦ 4♥ ·", the order she placed them, with no name;
    it reads "4♥ 4♣ Q♣ 6♦ · — pair of fours", pairs first as the showdown orders a box,
    the pending cards in it (each button's "•" still says where), in her language. The
    group sees none of them before she confirms; after, her open boxes read the same."""
    t = table()
    hand = t.hand
    assert hand is not None
    for text, box in (("Qc", Box.BOTTOM), ("4c", Box.BOTTOM), ("6d", Box.BOTTOM),
                      ("4h", Box.BOTTOM), ("Jd", Box.TOP)):  # fmt: skip
        hand.place(0, _c(text), box)
    screen = render.private_screen(t, t.seats[0], time.time())
    lines = screen.text.splitlines()
    i = lines.index("  J♦ · ·")
    assert lines[i : i + 3] == ["  J♦ · ·", "  · · · · ·", "  4♥ 4♣ Q♣ 6♦ · — pair of fours"]
    marked = [b.label for b in screen.all_buttons() if "•" in b.label]
    assert marked == ["• Bottom", "• Bottom", "• Bottom", "J♦ • Top", "• Bottom"]  # as before
    t.seats[0].lang = "ru"
    ru = render.private_screen(t, t.seats[0], time.time()).text.splitlines()
    assert "  4♥ 4♣ Q♣ 6♦ · — пара четвёрок" in ru
    group = render.group_screen(t, "en", None, time.time()).text
    # not confirmed: the group sees the cards dealt face up, not where they go
    assert "  placing: 4♣ 6♦ 4♥ J♦ Q♣" in group and "pair" not in group
    assert "4♥ 4♣" not in group
    hand.confirm(0)
    group_lines = render.group_screen(t, "en", None, time.time()).text.splitlines()
    assert "  4♥ 4♣ Q♣ 6♦ · — pair of fours" in group_lines
    assert "  J♦ · ·" in group_lines
    ru_group = render.group_screen(t, "ru", None, time.time()).text.splitlines()
    assert "  4♥ 4♣ Q♣ 6♦ · — пара четвёрок" in ru_group


def test_a_full_box_carries_the_showdowns_hand_name() -> None:
    """A Fantasyland hand of 14 set box by box (not confirmed): each full box sorted and
    named as the showdown names it ("A♠ A♥ A♦ A♣ 4♣ — four of a kind, aces"; the top's high
    card too), in English and Russian."""
    t = table({0: 14})
    hand = t.hand
    assert hand is not None
    boxes = {Box.BOTTOM: "4c Ah Ad Ac As", Box.MIDDLE: "Qc Jd 8c Js Qs", Box.TOP: "4h 6d Ts"}
    for box, texts in boxes.items():
        for text in texts.split():
            hand.place(0, _c(text), box)
    en = render.private_screen(t, t.seats[0], time.time()).text.splitlines()
    assert "  10♠ 6♦ 4♥ — ten high" in en
    assert "  Q♠ Q♣ J♠ J♦ 8♣ — two pair, queens and jacks" in en
    assert "  A♠ A♥ A♦ A♣ 4♣ — four of a kind, aces" in en
    t.seats[0].lang = "ru"
    ru = render.private_screen(t, t.seats[0], time.time()).text.splitlines()
    assert "  10♠ 6♦ 4♥ — старшая десятка" in ru
    assert "  Q♠ Q♣ J♠ J♦ 8♣ — две пары, дамы и вальты" in ru
    assert "  A♠ A♥ A♦ A♣ 4♣ — каре тузов" in ru


def test_made_so_far_names_a_made_pair_or_better_and_a_full_box_as_evaluated() -> None:
    """An incomplete box is named once it holds a pair or better (no kickers), else not."""
    cards = parse_cards("Qc Qd 2c")
    made = made_so_far(cards, 5)
    assert made is not None and hand_name(made, "en") == "pair of queens"
    assert made_so_far([_c("Ac"), _c("Kc"), _c("Qc"), _c("Jc")], 5) is None  # no flush yet
    two = made_so_far(parse_cards("9c 9d 3c 3s"), 5)
    assert two is not None and hand_name(two, "en") == "two pair, nines and threes"
    trips = made_so_far(parse_cards("7c 7d 7h"), 5)
    assert trips is not None and hand_name(trips, "ru") == "сет семёрок"
    top = made_so_far(parse_cards("Qs 2c 6c"), 3)
    assert top is not None and hand_name(top, "en") == "queen high"


# -- /settings at a table of another game than the group's: "game" is said apart ----------------


async def test_settings_all_at_a_chinese_table_says_the_groups_game_apart() -> None:
    """A Chinese Poker table open, the group's game Pineapple: ``/settings all`` listed "Game
    (game): Pineapple OFC" under "Shown: what applies to Chinese Poker", read as this table's
    game. The group's game is the game of new tables (bot/service/settings.py: the open table
    keeps its own): it is left out of that section and said after it, with its button; with
    no table open it is listed as before."""
    from tests.bot.test_settings import ALICE, BORIS, GROUP, new_service, payloads, say

    service, _store = new_service()
    await service.new_table(GROUP, ALICE, "chinese")
    screen = (await say(service, "all")).screen
    assert screen is not None
    lines = screen.text.splitlines()
    footer = tr("en", "settings.footer", game="Chinese Poker")
    assert lines[-2:] == [
        footer,
        "Game of new tables (game): Pineapple OFC. This table plays Chinese Poker until it closes.",
    ]
    assert not any(line.startswith("Game (game)") for line in lines)
    assert "Game ⟳" in payloads(screen)  # (its button kept)
    ru = (await say(service, "all", actor=BORIS)).screen
    assert ru is not None
    assert ru.text.splitlines()[-1] == (
        "Игра новых столов (игра): Ананас (OFC). Этот стол играет в «Китайский покер», пока не "
        "закрыт."
    )
    short = (await say(service)).screen  # /settings alone: the game at its default, not listed
    assert short is not None and "(game)" not in short.text
    assert not (await service.close_table(GROUP, ALICE, True)).alert
    screen = (await say(service, "all")).screen
    assert screen is not None and "Game: Pineapple OFC" in screen.text.splitlines()
    assert "Game of new tables" not in screen.text
    await service.stop()


# -- Chinese Poker's reveal: the two-of-three point shown with the middle says why --------------


async def test_r7_3_the_point_won_with_bottom_and_middle_says_why_before_the_top() -> None:
    """Alice beats Bob in every box. After the middle reveal the line "Bonus for winning 2 or
    3 of 3 boxes (per opponent): +1" sat between the middle and a top not yet shown. The
    point is decided there (R7.3: two boxes of three already won; a claim after the middle
    keeps it, R7.5), so it stays there, worded so: bottom and middle both won, whatever the
    top; Russian too. The top adds no second line."""
    from tests.bot.test_service_classic import GROUP as CGROUP
    from tests.bot.test_service_classic import chinese_hand_arranged

    service, presenter, _store, clock, t = await chinese_hand_arranged("3")
    clock.now += 3
    await service.run_due()  # the middle
    assert t.reveal is not None and t.reveal["stage"] == 2
    lines = presenter.last_table(CGROUP.chat_id).text.splitlines()
    early = "  2+ of 3 boxes (+1 per opponent): +1"
    i = lines.index(early)
    assert lines[i - 1].startswith("  Middle: ") and not any("Top:" in x for x in lines)
    assert lines.count(early) == 1 and sum("of 3 boxes" in x for x in lines) == 1
    ru = render.reveal_screen(t, "ru").text.splitlines()
    assert "  2+ бокса из 3 (+1 с каждым соперником): +1" in ru
    clock.now += 3
    await service.run_due()  # the top
    last = [s.text for s in presenter.tables[CGROUP.chat_id] if "  Top: " in s.text][-1]
    lines = [x for x in last.splitlines() if x.startswith("  ")]
    assert lines.count(early) == 1 and sum("of 3 boxes" in x for x in lines) == 1
    assert lines.index(early) == lines.index(next(x for x in lines if "Top:" in x)) - 1
    await service.stop()


# -- Chinese Poker: the stacks move when the game ends, said while it runs ---------------------


async def test_r7_6_the_table_message_says_stacks_move_only_when_the_game_ends() -> None:
    """Chinese Poker to 200: after a hand Alice has 22 points, Bob 0, and both stacks are
    still 200 (R7.6: kush settles at the game's end). Nothing said so; the table message
    between hands (and during the next arrangement) says "💰 Stacks change only when the game
    to 200 ends: it is settled then." (Russian too), under the game's score; a Pineapple
    table has no such line, nor a Chinese one whose game is over."""
    from dataclasses import replace

    from tests.bot.test_service_classic import GROUP as CGROUP
    from tests.bot.test_service_classic import chinese_after_one_hand

    service, presenter, _store, clock, t = await chinese_after_one_hand()
    assert {s.stack for s in t.seats.values()} == {200}
    note = "💰 Stacks change only when the game to 200 ends: it is settled then."
    lines = presenter.last_table(CGROUP.chat_id).text.splitlines()
    assert lines[2:4] == ["🎯 Game to 200: Alice 22 · Bob 0", note], lines
    ru = render.lobby_screen(t, "ru", None, time.time()).text.splitlines()
    assert "💰 Стеки меняются только в конце игры до 200 очков: тогда и расчёт." in ru
    clock.now += 5
    await service.run_due()  # the next hand: its arrangement
    assert t.hand is not None and t.hand_no == 2
    lines = presenter.last_table(CGROUP.chat_id).text.splitlines()
    assert lines[1:3] == ["🎯 Game to 200: Alice 22 · Bob 0", note], lines
    assert t.chinese is not None
    over = replace(t.chinese, over=True)
    t.chinese = over
    assert note not in render.lobby_screen(t, "en", None, time.time()).text
    await service.stop()
    pineapple = table()
    assert "💰" not in render.group_screen(pineapple, "en", None, time.time()).text


# -- /hand's picture: its title fits one board's width on one line -----------------------------


def test_the_hand_pictures_russian_title_fits_on_one_line() -> None:
    """/hand's picture is one board wide: "Ваша доска · стол #7 · раздача 7 · улица 1" was
    drawn on two lines ("…раздача 7 / улица 1"). The title is the private hand's own, "Стол
    #7 · раздача 7 · улица 1" (the panel names the player), on one line, at a table in the
    hundreds too; English alike. Its boxes are sorted and named as the private hand's."""
    from PIL import Image, ImageDraw

    from bot import pictures

    t = table()
    hand = t.hand
    assert hand is not None
    t.hand_no = 7
    for text, box in (("Qc", Box.BOTTOM), ("4c", Box.BOTTOM), ("6d", Box.BOTTOM),
                      ("4h", Box.BOTTOM), ("Jd", Box.TOP)):  # fmt: skip
        hand.place(0, _c(text), box)
    t.seats[0].lang = "ru"
    pic = pictures.hand_picture(t, t.seats[0])
    assert pic is not None and pic.title == "Стол #7 · раздача 7 · улица 1"
    assert pic.boards[0].boxes == ("Jd", "", "4h 4c Qc 6d")
    assert pic.boards[0].hands == ("", "", "пара четвёрок")
    _, width, _ = pictures.layout(pic)
    draw = ImageDraw.Draw(Image.new("RGB", (width, 10)))
    room = width - 2 * pictures.MARGIN
    assert pictures.title_lines(draw, pic.title, room) == (15, [pic.title])
    t.seats[0].lang = "en"
    en = pictures.hand_picture(t, t.seats[0])
    assert en is not None and en.title == "Table #7 · hand 7 · street 1"
    widest = tr("ru", "picture.hand_title", table=123, hand=1234, street=5)
    assert len(pictures.title_lines(draw, widest, room)[1]) == 1
    widest_en = tr("en", "picture.hand_title", table=123, hand=1234, street=5)
    assert len(pictures.title_lines(draw, widest_en, room)[1]) == 1


# -- Join during a hand: kept, and its answer says when the new seat plays ---------------------


async def test_r8_2_join_during_a_hand_seats_for_the_next_and_says_so() -> None:
    """The table message keeps Join during a hand while a seat is free: pressed then it seats
    the player for the next hand (R8.2), not a refusal. Its answer read "You sit at seat 3.
    Press Ready to buy in.", as in the lobby: now it says the seat plays from the next hand and
    how long Ready may wait (the table message's count); Russian too. Carol, Ready, is dealt
    the next hand."""
    from tests.bot.conftest import service_env
    from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, play_out, seated

    service, presenter, _store, _clock = service_env()
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    labels = [b.label for b in presenter.last_table(GROUP.chat_id).all_buttons()]
    assert labels[0] == "Join"
    reply = await service.join(GROUP, CAROL)
    assert not reply.alert
    assert reply.text == (
        "You sit at seat 3. You play from the next hand: press Ready to buy in within 60 seconds."
    )
    assert tr("ru", "reply.joined_mid_hand", seat=3, seconds=21) == (
        "Вы сели на место 3. Играете со следующей раздачи: нажмите «Готов», чтобы внести "
        "взнос, в течение 21 секунды."
    )
    assert not (await service.ready(GROUP, CAROL)).alert
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is not None and t.hand_no == 2 and len(t.hand.order) == 3
    await service.stop()
