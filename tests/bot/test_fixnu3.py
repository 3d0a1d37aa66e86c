"""A newcomer's reports from the sandbox, in Russian (fixnu3)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.model import LiveTable
from bot.presses import TopUp, decode
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_bots import alice_and_a_bot, play_hand_with_bots
from tests.bot.test_service import ALICE, BOB, GROUP, leave_now, press_auto_and_confirm, seated
from tests.bot.test_service_classic import ALICE as C_ALICE
from tests.bot.test_service_classic import BOB as C_BOB
from tests.bot.test_service_classic import GROUP as C_GROUP
from tests.bot.test_service_classic import auto_street, configure, play_hand, start
from tests.bot.test_transitions import player_balance_in


async def test_group_stats_say_the_members_losses_that_make_their_net() -> None:
    """Alone with a computer player, a member read the group's "winnings of every hand, added
    up: 375" above their own "Net: -219" (after one hand: 0 against -12): the group line
    summed the winning hands only. It says the members' losses too, so that winnings less
    losses is the member's net (house kush, R8.1, being no member's)."""
    service, presenter, store, clock = await alice_and_a_bot("strong", point=3)
    for _ in range(5):
        t = service.table_in(GROUP)
        assert t is not None
        for _ in range(5):  # the next hand's deal, after its delay
            if t.hand is not None and not t.hand.is_over:
                break
            clock.now += 30
            await service.run_due()
        await play_hand_with_bots(service, presenter, clock)
    p = await store.find_player((await store.community("telegram", GROUP.community_id)).id,
                                ALICE.user_id)  # fmt: skip
    assert p is not None
    own = await store.player_stats(p.id)
    assert own.hands == 5 and own.kush_won > 0 and own.kush_won - own.kush > 0, own
    lines = (await service.stats(GROUP, ALICE, [])).text.splitlines()
    moved = [line for line in lines if line.startswith("Members won ")]
    lost = own.kush_won - own.kush
    assert moved == [f"Members won {own.kush_won} kush, lost {lost} kush"], lines
    assert lines[-1] == f"Net: {own.kush:+d} kush"
    ru = dataclasses.replace(ALICE, language="ru")
    lines = (await service.stats(GROUP, ru, [])).text.splitlines()
    got = [line for line in lines if line.startswith("Участники выиграли ")]
    assert len(got) == 1 and re.fullmatch(
        rf"Участники выиграли {own.kush_won} куш\w*, проиграли {lost} куш\w*", got[0]
    ), got


async def test_r8_2a_closetable_during_a_hand_says_where_the_stacks_went_at_its_end() -> None:
    """``/closetable`` during a hand closes the table when the hand ends (R8.2a): the group
    then read only "Table #1 is closed." on the table message; it is told, as ``/closetable``
    between hands answers, each stack that went back to its balance."""
    service, presenter, store, _ = service_env(next_hand_delay=5)
    await start(service, [C_ALICE, C_BOB], "ofc")
    reply = await service.close_table(C_GROUP, C_ALICE, True)
    assert reply.text == tr("en", "reply.closes_after_hand_fl", table=1)
    before = [await player_balance_in(store, C_GROUP, a) for a in (C_ALICE, C_BOB)]
    posts = len(presenter.posts)
    await play_hand(service, presenter, [C_ALICE, C_BOB])
    assert service.table_in(C_GROUP) is None
    after = [await player_balance_in(store, C_GROUP, a) for a in (C_ALICE, C_BOB)]
    back = [x - y for x, y in zip(after, before, strict=True)]
    assert all(b > 0 for b in back)
    # said once, in the closing message (fixnu5: "Table #1 is closed." then a notice "Table
    # #1 is closed; stacks returned …" read as two closes in a row)
    assert [text for _chat, text in presenter.posts[posts:] if "closed" in text] == []
    assert presenter.last_table(C_GROUP.chat_id).text == (
        "Table #1 is closed; stacks returned to balances: "
        f"Alice {back[0]} kush, Bob {back[1]} kush."
    )
    assert await check_store(store) == []


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r7_6_a_game_at_its_target_says_so_though_a_player_left_in_that_hand(
    lang: str,
) -> None:
    """R7.6: Boris stood up during a Chinese Poker hand in which the other player reached the
    target (53 of 51): the group read "🚪 Boris left the table, so the game ends here",
    blaming the leaver for a game over anyway. The target is the reason said."""
    service, presenter, _store, clock = service_env()
    await configure(service, game="chinese", reveal_pause_seconds="0", target_points="2")
    await start(service, [C_ALICE, C_BOB], "chinese")
    assert not (await service.settings(C_GROUP, C_ALICE, True, ["language", lang])).alert
    t = service.table_in(C_GROUP)
    assert t is not None and t.hand is not None
    assert not (await leave_now(service, C_GROUP, C_ALICE)).alert  # placed as on timeout: fouled
    await auto_street(service, presenter, C_BOB)
    for _ in range(6):
        clock.now += 60  # (a claim offered after the bottom boxes: its time runs out, R7.5)
        await service.run_due()
    over = tr(lang, "reveal.settled")  # (the line above says the game ends: not twice)
    reveal = next(s.text for s in reversed(presenter.tables[C_GROUP.chat_id]) if over in s.text)
    want = {
        "en": "🏆 Bob reached 2 points, so the game ends here.\nThe game is settled.",
        "ru": "🏆 Bob: цель в 2 очка достигнута, игра окончена.\nРасчёт произведён.",
    }[lang]
    assert want in reveal, reveal
    assert tr(lang, "reveal.game_over") not in reveal, reveal
    assert tr(lang, "reveal.game_over_left", names="Alice") not in reveal, reveal


async def test_r8_2_a_top_up_made_after_the_hand_is_shown_by_the_stack(env) -> None:  # type: ignore[no-untyped-def]
    """R8.2: ``/topup 70`` during the hand, then one tap on ➕: the answer says the minimum
    buy-in replaced the 70; after the hand the stack went 230 → 430 on the table message with
    nothing said of why. The stack line says the top-up (no extra group message) through the
    next hand, and no longer after it."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    alice = t.seats[0]
    assert (await service.top_up(GROUP, ALICE, "70")).text == tr(
        "en", "reply.topup_queued", amount=70, label="kush"
    )
    button = next(
        b.data
        for b in presenter.last_table(GROUP.chat_id).all_buttons()
        if isinstance(decode(b.data), TopUp)
    )
    reply = await service.press(ALICE, button, GROUP)
    assert reply.text == "Top-up changed from 70 to 200 kush: it is added when this hand ends."
    while t.hand is not None and t.hand_no == 1:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is alice else BOB)
    after_hand = alice.stack
    posts = len(presenter.posts)
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and alice.stack == after_hand + 200
    table = presenter.last_table(GROUP.chat_id).text
    assert f"\nAlice · {after_hand + 200} (➕200 top-up)" in table, table
    assert "top-up" not in table.replace("(➕200 top-up)", ""), table  # Bob's: none
    assert len(presenter.posts) == posts  # no message of its own
    assert LiveTable.from_json(t.to_json(), 0.0).seats[0].topped_up == 200
    while t.hand is not None and t.hand_no == 2:
        to_act = t.seats[t.hand.to_act[0]]
        await press_auto_and_confirm(service, presenter, ALICE if to_act is alice else BOB)
    assert alice.topped_up == 0
    assert "top-up)" not in presenter.last_table(GROUP.chat_id).text
    assert tr("ru", "board.topped_up", amount=200) == "(докупка ➕200)"
    assert await check_store(store) == []


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_r8_5_a_hand_budget_too_short_to_play_a_street_is_refused(lang: str) -> None:
    """R8.5 gives no minimum: ``/settings hand_seconds 7,5`` was taken, and every player timed
    out on street 1 and was sat out (R8.6). A whole Pineapple hand is at least 18 presses (6
    on street 1, 3 on each of the four others; a Chinese Poker hand 14), about a second each
    on a phone: under 30 s a hand cannot be played (MIN_HAND_SECONDS). Refused, and nothing
    saved."""
    from tests.bot.test_settings import ALICE as S_ALICE
    from tests.bot.test_settings import BORIS as S_BORIS
    from tests.bot.test_settings import new_service as settings_service
    from tests.bot.test_settings import say, stored

    service, store = settings_service()
    reply = await say(service, "hand_seconds", "7,5", actor=S_ALICE if lang == "en" else S_BORIS)
    assert reply.alert, reply.text
    assert reply.text.startswith(
        {
            "en": "Cannot set that — hand_seconds takes a whole number of seconds from 30 to 3,600",
            "ru": "Не удалось изменить время_на_раздачу: целое число секунд от 30 до 3600",
        }[lang]
    ), reply.text
    assert (await stored(store)).options.get("hand_seconds") is None
    assert not (await say(service, "hand_seconds", "30")).alert  # the least taken


async def test_r6_hand_picture_lists_a_fantasyland_hand_as_its_buttons_and_uncut() -> None:
    """``/hand`` on a Fantasyland hand (R6: 14 cards at once): its picture listed the cards to
    place as dealt, another order than the 14 rows of buttons (by rank), on one line cut with
    "…" in the middle of a card ("Разложить: 4♦ 8♠ 6♥ 3♥ K♣ 2♣ Q♣ 1…"). The list follows the
    buttons and is broken over lines, every card drawn whole."""
    from bot import pictures
    from bot.presses import PlaceCard
    from bot.render import private_screen
    from bot.texts import tr as text_of
    from game.cards import Card

    service, presenter, _store, clock = service_env(next_hand_delay=5)
    await start(service, [C_ALICE, C_BOB], "pineapple")
    t = service.table_in(C_GROUP)
    assert t is not None and t.match is not None
    await play_hand(service, presenter, [C_ALICE, C_BOB])
    alice = t.seat_of(C_ALICE.user_id)
    assert alice is not None and t.match is not None
    t.match = dataclasses.replace(t.match, fantasyland={alice.seat: 14}, match_over=False)
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand.is_fantasyland(alice.seat)
    screen = private_screen(t, alice, clock.now)
    order: list[Card] = []
    for row in screen.buttons:  # a card's row: Top / Middle / Bottom
        press = decode(row[0].data)
        if isinstance(press, PlaceCard):
            order.append(press.card)
    assert len(order) == 14
    picture = pictures.hand_picture(t, alice)
    assert picture is not None
    faces = " ".join(c.face for c in order)
    assert picture.notes == (text_of("en", "picture.to_place", cards=faces),)
    _cols, width, _height = pictures.layout(picture)
    for lang in ("en", "ru"):
        pic = dataclasses.replace(
            picture, lang=lang, notes=(text_of(lang, "picture.to_place", cards=faces),)
        )
        lines = pictures.note_lines(pic, width - 2 * pictures.MARGIN)
        assert len(lines) >= 2 and not any("…" in line for line in lines), lines
        assert " ".join(lines) == pic.notes[0]
        assert (
            pictures.layout(pic)[2]
            == pictures.layout(dataclasses.replace(pic, notes=()))[2] + len(lines) * pictures.NOTE_H
        )
    assert pictures.draw(picture)[:8] == b"\x89PNG\r\n\x1a\n"
