"""A new user's reports (fixnu7a): a typed /leave during a hand cost the hand at once (the
Leave button asks first), and Join could not take a leave back."""

from __future__ import annotations

from bot.model import LiveTable
from bot.texts import language_of, tr
from storage.check import check_store
from tests.bot.test_leave_notices import leave_button
from tests.bot.test_service import ALICE, BOB, GROUP, play_out, seated


def _waiting(t: LiveTable) -> int:
    """The seat (one board each: seat = board) not to act now, its cards dealt."""
    assert t.hand is not None
    return next(s for s in t.seats if s not in t.hand.to_act)


async def test_r8_5_a_typed_leave_during_a_hand_asks_first_as_the_button_does(env) -> None:  # type: ignore[no-untyped-def]
    """R8.5: /leave typed during the player's hand used to leave at once, the rest of the
    hand placed for them (lowest box first, often fouled), with no undo. It asks as the
    Leave button does (nothing changes, the answer says how to confirm); a second /leave
    (or the Leave button) within 30 s leaves; a /leave much later asks again."""
    service, _presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    acting = t.hand.to_act[0]
    actor = (ALICE, BOB)[acting]
    street = t.hand.street_of(acting)
    lang = language_of(actor.language)
    reply = await service.leave(GROUP, actor)
    assert reply.alert and reply.text == tr(lang, "reply.leave_confirm_typed")
    assert tr("en", "reply.leave_confirm_typed") == (
        "Leave during your hand? Your remaining cards are placed automatically and may "
        "foul. Send /leave again to confirm."
    )
    assert tr("ru", "reply.leave_confirm_typed").endswith(
        "Отправьте /leave ещё раз, чтобы подтвердить."
    )
    assert not t.seats[acting].leaving
    assert t.hand.street_of(acting) == street and t.hand.to_act[0] == acting  # nothing placed
    clock.now += 31  # too late to confirm: it asks again
    reply = await service.leave(GROUP, actor)
    assert reply.alert and reply.text == tr(lang, "reply.leave_confirm_typed")
    assert not t.seats[acting].leaving
    clock.now += 5
    reply = await service.leave(GROUP, actor)  # the second within 30 s: leaves
    assert not reply.alert and reply.text == tr(lang, "reply.leave_after_hand")
    assert t.seats[acting].leaving and t.hand.street_of(acting) == street + 1
    assert await check_store(store) == []


async def test_r8_5_typed_leave_then_the_button_confirms(env) -> None:  # type: ignore[no-untyped-def]
    """One question whichever way it was asked: /leave, then the Leave button within 30 s,
    leaves."""
    service, presenter, _store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    acting = t.hand.to_act[0]
    actor = (ALICE, BOB)[acting]
    assert (await service.leave(GROUP, actor)).alert
    clock.now += 2
    reply = await service.press(actor, leave_button(presenter), GROUP)
    assert not reply.alert and reply.text == tr(
        language_of(actor.language), "reply.leave_after_hand"
    )
    assert t.seats[acting].leaving


async def test_r8_2_join_takes_back_a_leave_while_no_card_was_placed_for_the_player(env) -> None:  # type: ignore[no-untyped-def]
    """After a confirmed /leave, Join answered only "you are leaving the table: you stand up
    when this hand ends". While no card of theirs was placed for them yet (it is not their
    turn), Join takes the leave back: they stay seated, play their own hand and the next."""
    service, presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    waiting = _waiting(t)
    actor = (ALICE, BOB)[waiting]
    await service.leave(GROUP, actor)
    clock.now += 2
    assert not (await service.leave(GROUP, actor)).alert
    assert t.seats[waiting].leaving
    lang = language_of(actor.language)
    assert tr(lang, "private.leaving") in presenter.last_private(actor.user_id).text
    reply = await service.join(GROUP, actor)
    assert not reply.alert and reply.text == tr(lang, "reply.leave_cancelled")
    assert tr("en", "reply.leave_cancelled") == "You stay at the table: your leave is cancelled."
    assert tr("ru", "reply.leave_cancelled") == "Вы остаётесь за столом: уход отменён."
    seat = t.seats[waiting]
    assert not seat.leaving and seat.leave_asked == 0.0
    # their hand's message no longer says they leave
    assert tr(lang, "private.leaving") not in presenter.last_private(actor.user_id).text
    # the player's own turn is theirs again: the clock runs, nothing placed for them
    hand_no = t.hand_no
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand_no == hand_no + 1 and t.seat_of(actor.user_id) is seat
    # a single /leave during the next hand asks again (the old question is gone)
    assert t.plays_now(seat)
    reply = await service.leave(GROUP, actor)
    assert reply.alert and reply.text == tr(lang, "reply.leave_confirm_typed")
    assert not seat.leaving
    assert await check_store(store) == []


async def test_r8_5_join_keeps_the_refusal_once_the_cards_were_placed(env) -> None:  # type: ignore[no-untyped-def]
    """A leaver whose turn it was has their street placed at once (R8.5): Join cannot take
    that back, it answers as before."""
    service, _presenter, _store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    acting = t.hand.to_act[0]
    actor = (ALICE, BOB)[acting]
    await service.leave(GROUP, actor)
    clock.now += 2
    await service.leave(GROUP, actor)
    assert t.seats[acting].leaving
    reply = await service.join(GROUP, actor)
    assert reply.alert and reply.text == tr(language_of(actor.language), "reply.already_leaving")
    assert t.seats[acting].leaving


async def test_r8_2_leave_between_hands_stays_immediate(env) -> None:  # type: ignore[no-untyped-def]
    """Between hands (no hand of theirs in play) /leave needs no confirmation."""
    service, _presenter, _store, _clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    reply = await service.leave(GROUP, ALICE)
    assert not reply.alert and reply.text == tr("en", "reply.left", amount=200, label="kush")
