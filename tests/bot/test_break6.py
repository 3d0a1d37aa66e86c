"""The sixth break-it session: a hostile or new user off the happy path on the table service
(commands in an order nobody planned, nonsense setting values). In-memory store, a
hand-moved clock; every scenario ends with the ledger checked."""

from __future__ import annotations

from pathlib import Path

from bot.presses import Leave, decode
from bot.texts import tr
from storage.check import check_store
from tests.bot.conftest import service_env
from tests.bot.test_leave_notices import leave_button
from tests.bot.test_service import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    leave_now,
    play_out,
    press_auto_and_confirm,
    seated,
)
from tests.bot.test_service_classic import ALICE as ALICE_C
from tests.bot.test_service_classic import BOB as BOB_C
from tests.bot.test_service_classic import GROUP as GROUP_C
from tests.bot.test_service_classic import auto_street, configure, start
from tests.bot.test_transitions import player_balance
from tests.bot.tg_world import ALICE as ALICE_TG
from tests.bot.tg_world import BOB as BOB_TG
from tests.bot.tg_world import world


async def test_r8_6_sitout_back_and_ready_after_leave_mid_hand_say_the_player_leaves(env) -> None:  # type: ignore[no-untyped-def]
    """Alice types /leave during her hand (she stands up when it ends, R8.2/R8.5), then
    /sitout and /back: they answered "You sit out from the next hand" and "Welcome back: you
    play the next hand", and Ready (sitting out, so "come back") the same, while she still
    stood up at the showdown. Each is now refused, saying she leaves when the hand ends; a
    second Leave (the button too, which asked "leave?" again) and /join ("You are already
    seated") say so as well; nothing changes and she leaves with her stack."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await leave_now(service, GROUP, ALICE)
    assert reply.text == tr("en", "reply.leave_after_hand")
    leaving = tr("en", "reply.already_leaving")
    assert leaving == "You are leaving this table: you stand up when this hand ends."
    assert tr("ru", "reply.already_leaving") == (
        "Вы уходите из-за стола: встанете, когда закончится эта раздача."
    )
    for command in (service.sit_out, service.back, service.ready, service.leave, service.join):
        reply = await command(GROUP, ALICE)
        assert reply.alert and reply.text == leaving, (command.__name__, reply.text)
    reply = await service.press(ALICE, leave_button(presenter), GROUP)
    assert reply.alert and reply.text == leaving
    seat = t.seats[0]
    assert seat.leaving and not seat.sitting_out and seat.ready
    await play_out(service, presenter, [BOB])
    assert t.seat_of(ALICE.user_id) is None
    assert await player_balance(store, ALICE) > 800
    assert await check_store(store) == []


async def test_r8_5_a_leaver_s_private_hand_shows_the_streets_made_for_them(env) -> None:  # type: ignore[no-untyped-def]
    """Alice types /leave on her turn: her street is placed for her (R8.5) and Bob acts, but
    her private message went on saying "Your move · ⏱ 2:00 … Put each card in a box" over
    an empty board with all 18 buttons, through every street made for her after it: it was
    written only for the seats to act. It shows her board as it is, without buttons."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None and t.hand.to_act == (0,)
    await leave_now(service, GROUP, ALICE)
    assert t.hand.to_act == (1,) and len(list(t.hand.board_of(0).cards())) == 5
    alice = t.seats[0]
    shown = presenter.last_private(ALICE.user_id)
    assert shown.text == service.rt.render_private(t, alice).text
    assert "Your move" not in shown.text and not shown.all_buttons()
    # it says she is leaving (it read "Waiting for Bob" as if she played on)
    assert tr("en", "private.leaving") in shown.text
    assert "Waiting for" not in shown.text
    await press_auto_and_confirm(service, presenter, BOB)  # Bob's street 1, Alice's street 2
    assert len(list(t.hand.board_of(0).cards())) == 7
    assert presenter.last_private(ALICE.user_id).text == service.rt.render_private(t, alice).text
    await play_out(service, presenter, [BOB])
    assert t.seat_of(ALICE.user_id) is None
    assert await check_store(store) == []


async def test_r8_6_a_leaver_s_last_private_screen_does_not_say_time_ran_out(env) -> None:  # type: ignore[no-untyped-def]
    """A player who typed /leave mid-hand has the rest of their streets made for them as on a
    timeout (R8.5), and the showdown's private screen told them "⌛ Time ran out and your
    moves were made for you; you sit out from the next hand on. /back to play again." while
    it stood them up with their stack (R8.2): no time ran out, and there is no next hand."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    await leave_now(service, GROUP, ALICE)
    await play_out(service, presenter, [BOB])
    assert t.seat_of(ALICE.user_id) is None
    last = presenter.last_private(ALICE.user_id)
    over = tr("en", "private.over", table=t.id, hand=t.shown_no)
    assert (
        last.text == over == f"🃏 Table #{t.id} · hand {t.shown_no} is over. Result in the group."
    )
    assert not last.all_buttons()
    assert await check_store(store) == []


async def test_r8_6_back_without_a_buy_in_says_to_press_ready(env) -> None:  # type: ignore[no-untyped-def]
    """Alice sits down during Bob and Carol's hand, /sitout, then /back: the answer was
    "Welcome back: you play the next hand.", but she never bought in, so she is dealt in
    only after Ready (R8.2). It says to press Ready; Ready then buys her in."""
    service, presenter, store, _clock = env
    t = await seated(service, BOB, CAROL)
    assert t is not None and t.hand is not None
    await service.join(GROUP, ALICE)
    await service.sit_out(GROUP, ALICE)
    reply = await service.back(GROUP, ALICE)
    text = tr("en", "reply.back_not_ready")
    assert text == "Welcome back: press Ready to buy in and play."
    assert tr("ru", "reply.back_not_ready") == (
        "С возвращением: нажмите «Готов», чтобы внести взнос и играть."
    )
    assert not reply.alert and reply.text == text
    seat = t.seat_of(ALICE.user_id)
    assert seat is not None and not seat.ready and not seat.sitting_out
    reply = await service.ready(GROUP, ALICE)
    assert reply.text == tr("en", "reply.ready", amount=200, label="kush") and seat.ready
    await play_out(service, presenter, [BOB, CAROL])
    assert t.hand is not None and seat.seat in t.hand.order  # dealt in at the next hand
    assert await check_store(store) == []


async def test_r8_2_the_same_top_up_asked_twice_during_the_hand_is_the_one_queued(env) -> None:  # type: ignore[no-untyped-def]
    """➕ tapped twice during Alice's hand (or /topup 300 typed twice) answered "Top-up
    changed from 200 to 200 kush": nothing changed. The same amount again says it is already
    queued (a new one replaces it: "queued" again read as a second one beside it); another
    amount still says what it replaced. One top-up is added."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    queued = tr("en", "reply.topup_queued_buy_in", amount=200, label="kush")
    again = tr("en", "reply.topup_already_queued", amount=200, label="kush")
    assert (await service.top_up(GROUP, ALICE, "")).text == queued
    assert (await service.top_up(GROUP, ALICE, "")).text == again
    assert (await service.top_up(GROUP, ALICE, "200")).text == again
    reply = await service.top_up(GROUP, ALICE, "300")
    assert reply.text == tr("en", "reply.topup_requeued", before=200, amount=300, label="kush")
    reply = await service.top_up(GROUP, ALICE, "300")
    assert reply.text == tr("en", "reply.topup_already_queued", amount=300, label="kush")
    seat = t.seats[0]
    assert seat.top_up == 300 and seat.stack == 200
    assert await player_balance(store, ALICE) == 800
    await play_out(service, presenter, [ALICE, BOB])
    await service.run_due()  # (the queued top-ups are added by the timer, before the deal)
    assert await player_balance(store, ALICE) == 500  # one top-up of 300
    assert await check_store(store) == []


async def test_r8_5_leaving_with_every_card_placed_does_not_say_they_are_placed_for_you() -> None:
    """Chinese Poker (R4.5): Alice has arranged and confirmed her 13 cards, Bob is still
    arranging. Her /leave answered "Your remaining cards are placed automatically and may
    foul", and the Leave button asked "Leave during your hand? Your remaining cards are
    placed automatically and may foul" first: she has no card left to place. Both leave
    after the hand, saying her board is complete; nothing changes in her board."""
    service, presenter, store, clock = service_env()
    await configure(service, game="chinese")
    await start(service, [ALICE_C, BOB_C], "chinese")
    t = service.table_in(GROUP_C)
    assert t is not None and t.hand is not None
    await auto_street(service, presenter, ALICE_C)
    board = t.hand.board_of(0)
    assert board.is_complete and 0 not in t.hand.to_act and 1 in t.hand.to_act
    # (and the game ends with the hand for everyone, R7.6: fixnu42a)
    done = tr("en", "reply.leave_after_hand_done_chinese", target=51)
    assert done == (
        "You leave after this hand; your board is complete. The game to 51 ends with it, "
        "settled for everyone, and your stack comes back then."
    )
    assert tr("ru", "reply.leave_after_hand_done") == (
        "Вы встанете после этой раздачи; ваша рука уже разложена, стек вернётся после вскрытия."
    )
    button = next(
        b.data
        for b in presenter.last_table(GROUP_C.chat_id).all_buttons()
        if b.data and isinstance(decode(b.data), Leave)
    )
    reply = await service.press(ALICE_C, button, GROUP_C)  # one tap: nothing to confirm
    assert not reply.alert and reply.text == done
    assert t.seats[0].leaving and t.hand.board_of(0) == board
    await auto_street(service, presenter, BOB_C)
    for _ in range(20):
        if t.reveal is None:
            break
        clock.now = service.rt.next_deadline(t) or clock.now
        await service.run_due()
    assert t.seat_of(ALICE_C.user_id) is None
    assert await check_store(store) == []
    # typed, in Pineapple, after her last street: the same
    service, presenter, store, _clock = service_env()
    await start(service, [ALICE_C, BOB_C], "pineapple")
    t = service.table_in(GROUP_C)
    assert t is not None and t.hand is not None
    for _ in range(10):
        if t.hand.board_of(0).is_complete:
            break
        who = ALICE_C if t.hand.to_act[0] == 0 else BOB_C
        await auto_street(service, presenter, who)
    assert t.hand is not None and not t.hand.is_over
    assert (await service.leave(GROUP_C, ALICE_C)).text == tr("en", "reply.leave_after_hand_done")


async def test_r8_2a_sitout_and_back_at_a_table_closing_after_the_hand(env) -> None:  # type: ignore[no-untyped-def]
    """An admin closes the table during the hand (R8.2a: it closes when the hand ends).
    Bob's /sitout answered "You sit out from the next hand" and his /back "Welcome back: you
    play the next hand": there is no next hand. Both say the table closes, as Ready and the
    top-up do; nothing changes, and the close returns every stack."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    await service.close_table(GROUP, ALICE, True)
    closing = tr("ru", "reply.table_closing", table=t.id)  # (Bob reads Russian)
    for command in (service.sit_out, service.back):
        reply = await command(GROUP, BOB)
        assert reply.alert and reply.text == closing, (command.__name__, reply.text)
    assert not t.seats[1].sitting_out
    await play_out(service, presenter, [ALICE, BOB])
    assert service.table_in(GROUP) is None
    assert await player_balance(store, ALICE) + await player_balance(store, BOB) == 2000
    assert await check_store(store) == []


async def test_start_from_the_groups_link_says_where_the_cards_are(tmp_path: Path) -> None:
    """``/start t1`` (the group's link to the private chat) posts the player's hand, then
    answers. The answer said "Your cards for table #1 are below." under the hand it had just
    posted; and seated before any deal, under "You have no hand at this table now". It says
    the cards are above, and before the deal that they come when the player is dealt in."""
    async with world(tmp_path) as w:
        await w.say(ALICE_TG, "/newtable")
        await w.press_lobby(ALICE_TG, "j")
        reply = await w.say(ALICE_TG, "/start t1", chat_id=ALICE_TG.id)
        seated_text = tr("en", "reply.private_seated", table=1)
        assert seated_text == "You are at table #1: your cards come here when you are dealt in."
        assert tr("ru", "reply.private_seated", table=1) == (
            "Вы за столом #1: карты придут сюда, когда вам раздадут."
        )
        await w.fake.wait_for(
            lambda: any(m["text"] == seated_text for m in w.fake.chat_messages(ALICE_TG.id))
        )
        assert reply["text"] in (seated_text, tr("en", "private.none"))
        await w.press_lobby(BOB_TG, "j")
        await w.press_lobby(ALICE_TG, "r")
        await w.press_lobby(BOB_TG, "r")
        await w.settle()
        start = len(w.fake.calls)
        linked = tr("en", "reply.private_linked", table=1)
        assert linked == "Your cards for table #1 are above."
        assert tr("ru", "reply.private_linked", table=1) == "Ваши карты за столом #1 — выше."
        await w.fake.send_text(ALICE_TG, ALICE_TG.id, "/start t1")
        await w.fake.wait_for(
            lambda: any(
                c.method == "sendMessage" and c.params.get("text") == linked
                for c in w.fake.calls[start:]
            )
        )
        sent = [
            str(c.params.get("text"))
            for c in w.fake.calls[start:]
            if c.method == "sendMessage" and int(c.params["chat_id"]) == ALICE_TG.id
        ]
        assert sent[-1] == linked and sent[0].startswith("🃏 Table #1 · hand 1"), sent


async def test_a_bare_start_of_a_seated_player_names_their_table(env) -> None:  # type: ignore[no-untyped-def]
    """A bare /start (what unblocking the bot, or its Start button, sends) posts the hand of
    a seated player again, and answered "Hi! Add me to a group and start a table with
    /newtable.", as to a stranger. It says where their cards are; a stranger still gets the
    welcome."""
    service, presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    reply = await service.private_start(ALICE, "")
    assert reply.text == tr("en", "reply.private_seated", table=1)
    t = await seated(service, ALICE, BOB)  # (Alice is seated already; Bob sits down)
    assert t is not None
    assert t.hand is not None
    before = len(presenter.privates[ALICE.user_id])
    reply = await service.private_start(ALICE, "")
    assert reply.text == tr("en", "reply.private_linked", table=t.id)
    assert len(presenter.privates[ALICE.user_id]) == before + 1  # the hand, posted again
    assert presenter.last_private(ALICE.user_id).all_buttons()
    reply = await service.private_start(CAROL, "")
    assert reply.text == tr("en", "reply.welcome")
    assert await check_store(store) == []
