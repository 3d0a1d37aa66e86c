"""R8.7: /leave typed at a running tournament knocks the player out, their buy-in lost: one
/leave did it in one step, while the Leave button asks first (as a cash table's /leave during
the player's hand does, R8.5). Now /leave asks too: the first changes nothing and says "Send
/leave again to confirm."; a second /leave or Leave within LEAVE_CONFIRM_SECONDS leaves; later
it asks again. Leaving the group still leaves at once; before the start /leave unregisters."""

from __future__ import annotations

from pathlib import Path

from bot.model import LEAVE_CONFIRM_SECONDS
from bot.texts import tr
from storage.check import check_store
from tests.bot.test_service import BOB, CAROL, GROUP
from tests.bot.test_tournament_e2e import ALICE as TG_ALICE
from tests.bot.test_tournament_e2e import BOB as TG_BOB
from tests.bot.test_tournament_e2e import (
    BUY_IN,
    START,
    balance,
    configure,
    open_and_register,
)
from tests.bot.test_tournament_e2e import CAROL as TG_CAROL
from tests.bot.test_tournament_service import (
    PLAYERS,
    leave_button_of,
    new_service,
    running_tournament,
)
from tests.bot.test_tournament_service import (
    open_and_register as open_and_register_service,
)
from tests.bot.test_transitions import player_balance
from tests.bot.tg_world import world


def test_the_typed_question_in_both_languages() -> None:
    assert tr("en", "tour.leave_confirm_typed", place=3) == (
        "Leaving knocks you out of the tournament (place 3). Send /leave again to confirm."
    )
    assert tr("ru", "tour.leave_confirm_typed", place=3) == (
        "Выход из турнира — это выбывание (место 3). Отправьте /leave ещё раз, чтобы подтвердить."
    )


async def test_r8_7_a_typed_leave_asks_first_then_a_second_within_the_window_knocks_out() -> None:
    """Carol's first /leave changes nothing (her chips, her seat, the pool); a second one
    31 s later (past the window) asks again; one 5 s after that knocks her out (3rd)."""
    service, _presenter, store, clock = new_service(next_hand_delay=0)
    t, tour = await running_tournament(service)
    chips = dict(tour.chips)
    reply = await service.leave(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "tour.leave_confirm_typed", place=3)
    assert tour.chips == chips and not t.seats[2].leaving and not tour.knocked_out
    clock.now += LEAVE_CONFIRM_SECONDS + 1  # too late: it asks again
    reply = await service.leave(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "tour.leave_confirm_typed", place=3)
    assert tour.chips == chips
    clock.now += 5
    reply = await service.leave(GROUP, CAROL)
    assert not reply.alert and reply.text == tr("en", "tour.left", place=3, prize=0, label="kush")
    assert sorted(tour.chips) == [0, 1] and [k.place for k in tour.knocked_out] == [3]
    assert await player_balance(store, CAROL) == 900  # (her buy-in in the pool)
    assert await check_store(store) == []


async def test_r8_7_a_typed_leave_and_the_leave_button_confirm_each_other() -> None:
    """The same rules as the button: Leave pressed, then /leave typed, leaves; /leave typed,
    then Leave pressed, leaves. Bob reads Russian."""
    service, presenter, _store, _clock = new_service(next_hand_delay=0)
    _t, tour = await running_tournament(service)
    reply = await service.press(BOB, leave_button_of(presenter), GROUP)
    assert reply.alert and reply.text == tr("ru", "tour.leave_confirm", place=3)
    reply = await service.leave(GROUP, BOB)
    assert not reply.alert and reply.text == tr("ru", "tour.left", place=3, prize=0, label="kush")
    reply = await service.leave(GROUP, CAROL)
    assert reply.alert and reply.text == tr("en", "tour.leave_confirm_typed", place=2)
    assert sorted(tour.chips) == [0, 2]
    reply = await service.press(CAROL, leave_button_of(presenter), GROUP)
    assert not reply.alert and reply.text == tr("en", "tour.left", place=2, prize=0, label="kush")
    assert tour.finished is not None


async def test_r8_7_a_typed_leave_delivered_again_only_asks() -> None:
    """Telegram delivers the update of the first /leave again (its answer lost): the copy is
    "already done" (its key committed with the question), not the confirmation."""
    service, _presenter, _store, _clock = new_service(next_hand_delay=0)
    t, tour = await running_tournament(service)
    reply = await service.leave(GROUP, CAROL, request="u1")
    assert reply.alert and reply.text == tr("en", "tour.leave_confirm_typed", place=3)
    again = await service.leave(GROUP, CAROL, request="u1")
    assert again.text == tr("en", "reply.request_done")
    assert sorted(tour.chips) == [0, 1, 2] and not t.seats[2].leaving
    reply = await service.leave(GROUP, CAROL, request="u2")
    assert reply.text == tr("en", "tour.left", place=3, prize=0, label="kush")


async def test_r8_7_leaving_the_group_and_leaving_before_the_start_ask_nothing() -> None:
    """A member who leaves the group is knocked out at once (they can type nothing there to
    confirm); a /leave before the start unregisters at once, the buy-in back."""
    service, _presenter, store, _clock = new_service(next_hand_delay=0)
    await open_and_register_service(service, PLAYERS[:1])
    assert not (await service.join(GROUP, CAROL)).alert  # (two of three: not started)
    reply = await service.leave(GROUP, CAROL)
    assert not reply.alert and await player_balance(store, CAROL) == 1000
    service2, _p2, _s2, _c2 = new_service(next_hand_delay=0)
    _t, tour = await running_tournament(service2)
    reply = await service2.member_left(GROUP, CAROL)
    assert reply is not None and reply.text == tr("en", "tour.left", place=3, prize=0, label="kush")
    assert sorted(tour.chips) == [0, 1]


async def test_r8_7_telegram_a_typed_leave_asks_first_end_to_end(tmp_path: Path) -> None:
    """End to end through python-telegram-bot and the fake Bot API: Carol types /leave in the
    running tournament and is asked (nothing moves); Telegram delivers that update again (it
    is "already done"); her second /leave knocks her out. Bob (Russian) types /leave, then
    presses the table message's Leave: out too; Alice wins the pool."""
    async with world(tmp_path) as w:
        w.fake.started_users.update(u.id for u in (TG_ALICE, TG_BOB, TG_CAROL))
        await configure(w, tournament_buy_in=str(BUY_IN))
        t = await open_and_register(w)
        tour = t.tournament
        assert tour is not None
        await w.settle()
        reply = await w.say(TG_CAROL, "/leave")
        assert reply["text"] == tr("en", "tour.leave_confirm_typed", place=3), reply["text"]
        assert reply["text"].endswith("Send /leave again to confirm.")
        assert sorted(tour.chips) == [0, 1, 2] and not tour.knocked_out
        update = max(w.fake.pushed)  # the update of her /leave
        sent = len(w.fake.calls)
        await w.fake.redeliver(update)
        copy = await w.fake.wait_for(
            lambda: next((c.params for c in w.fake.calls[sent:] if c.method == "sendMessage"), None)
        )
        assert copy["text"] == tr("en", "reply.request_done"), copy["text"]
        await w.settle()
        assert sorted(tour.chips) == [0, 1, 2]
        reply = await w.say(TG_CAROL, "/leave")
        assert reply["text"] == tr("en", "tour.left", place=3, prize=0, label="kush")
        assert sorted(tour.chips) == [0, 1]
        reply = await w.say(TG_BOB, "/leave")
        assert reply["text"] == tr("ru", "tour.leave_confirm_typed", place=2), reply["text"]
        await w.settle()
        answer = await w.press_lobby(TG_BOB, "l")
        assert answer.get("text") == tr("ru", "tour.left", place=2, prize=0, label="kush"), answer
        await w.settle()
        assert tour.finished is not None
        assert await balance(w, TG_ALICE) == START - BUY_IN + 3 * BUY_IN
        assert await balance(w, TG_CAROL) == START - BUY_IN
        assert await check_store(w.store) == []
