"""Fast taps: a player who places two cards quickly presses the second on the screen the
first has not yet replaced (its edit is on the way). Each placement button names its card and
box, so a press of an older screen of the same street does what it says when the hand accepts
it now (R3.4); it was refused "out of date", and every fast placement took a second tap.
Confirm, Undo and "Arrange for me" of an older screen, and any button of an earlier street,
stay out of date and change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.model import Actor, LiveTable
from bot.presses import (
    Arrange,
    ConfirmMove,
    DiscardCard,
    PlaceCard,
    Press,
    TakeBack,
    Undo,
    encode,
)
from bot.screens import Payload
from bot.service import TableService
from bot.telegram.fake_api import FakeUser
from bot.texts import error_text, tr
from game.actions import Place
from game.board import Box
from game.hand import Hand
from storage.check import check_store
from tests.bot import test_service as svc
from tests.bot.conftest import service_env
from tests.bot.discord import dc_world
from tests.bot.discord.test_discord_e2e import seat_everyone as seat_on_discord
from tests.bot.test_service import GROUP, dealt_at
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE, BOB, World, world


def _version(service: TableService, board: int) -> str:
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    return f"{t.hand_no}.{board}.{t.hand.seat_version(board)}"


def _actor(t: LiveTable, board: int) -> Actor:
    """The service-level player (Alice or Bob) who owns ``board``."""
    return svc.ALICE if t.seats[board].user_id == svc.ALICE.user_id else svc.BOB


async def _service_hand_dealt(service: TableService) -> tuple[LiveTable, Hand, int, Actor]:
    """Alice and Bob dealt at the service: the table, its hand, the board to act, its player."""
    t = await dealt_at(service, GROUP, (svc.ALICE, svc.BOB))
    assert t.hand is not None
    board = t.hand.to_act[0]
    return t, t.hand, board, _actor(t, board)


async def test_r3_4_two_quick_taps_on_one_screen_both_place() -> None:
    service, _presenter, store, _clock = service_env()
    t, hand, board, actor = await _service_hand_dealt(service)
    cards = hand.current_cards(board)
    assert len(cards) == 5
    old = _version(service, board)  # the screen as dealt

    def on_old(press: type[Press], *args: object) -> str:
        return encode(press(t.id, old, *args))  # type: ignore[call-arg]

    # two taps on the dealt screen: both cards go where they were sent
    for card, box in ((cards[0], Box.BOTTOM), (cards[1], Box.MIDDLE)):
        reply = await service.press(actor, on_old(PlaceCard, card, box))
        assert not reply.alert, reply.text
    assert dict(hand.pending(board)) == {cards[0]: Box.BOTTOM, cards[1]: Box.MIDDLE}
    # a tap on that screen naming a card moved since (a copy of the press, or a change of
    # mind the screen never showed): out of date, nothing moves (it could undo the move)
    before = hand.dumps()
    for press in (PlaceCard(t.id, old, cards[1], Box.BOTTOM), TakeBack(t.id, old, cards[0])):
        reply = await service.press(actor, encode(press))
        assert reply.alert and reply.text == tr("en", "err.stale_hand"), (press, reply.text)
    assert hand.dumps() == before
    # a card's tap that would change nothing is refused with the hand's reason
    reply = await service.press(actor, on_old(PlaceCard, cards[1], Box.MIDDLE))
    assert reply.alert and reply.text == error_text("en", "no_change"), reply.text
    # Undo ("the last card") and "Arrange for me" meant what the older screen showed
    for press in (Undo, Arrange):
        reply = await service.press(actor, on_old(press))
        assert reply.alert and reply.text == tr("en", "err.stale_hand"), (press, reply.text)
    assert hand.dumps() == before
    # the rest placed on the current screen; a Confirm of the older screen is refused
    boxes = [Box.BOTTOM, Box.BOTTOM, Box.MIDDLE]
    for card, box in zip(cards[2:], boxes, strict=True):
        reply = await service.press(
            actor, encode(PlaceCard(t.id, _version(service, board), card, box))
        )
        assert not reply.alert, reply.text
    before = hand.dumps()
    reply = await service.press(actor, on_old(ConfirmMove))
    assert reply.alert and reply.text == tr("en", "err.stale_hand"), reply.text
    assert hand.dumps() == before
    street1 = _version(service, board)
    reply = await service.press(actor, encode(ConfirmMove(t.id, street1)))
    assert not reply.alert, reply.text
    assert hand.street_of(board) == 2
    assert await check_store(store) == []


async def test_r3_2_a_button_of_an_earlier_street_stays_out_of_date() -> None:
    """Street 2 (R3.2: three cards, one discarded): the first street's buttons, even one
    naming a card the hand would take, are of another street: out of date. Discards of an
    older screen of this street count, as placements do."""
    service, _presenter, store, _clock = service_env()
    t, hand, board, actor = await _service_hand_dealt(service)
    while hand.street_of(hand.to_act[0]) == 1:  # both play street 1 with "Arrange for me"
        board = hand.to_act[0]
        actor = _actor(t, board)
        street1 = _version(service, board)
        assert not (await service.press(actor, encode(Arrange(t.id, street1)))).alert
        assert not (
            await service.press(actor, encode(ConfirmMove(t.id, _version(service, board))))
        ).alert
    board = hand.to_act[0]
    actor = _actor(t, board)
    cards = hand.current_cards(board)
    assert len(cards) == 3 and hand.street_of(board) == 2
    # a first-street version of this seat (its first action's screen)
    before = hand.dumps()
    old_street = f"{t.hand_no}.{board}.{hand.street_version(board) - 1}"
    reply = await service.press(actor, encode(DiscardCard(t.id, old_street, cards[0])))
    assert reply.alert and reply.text == tr("en", "err.stale_hand"), reply.text
    assert hand.dumps() == before
    # this street's dealt screen: a discard, then a placement on it, both taken
    old = _version(service, board)
    assert not (await service.press(actor, encode(DiscardCard(t.id, old, cards[0])))).alert
    free = next(b for b in Box if hand.can(Place(board, cards[1], b)))
    reply = await service.press(actor, encode(PlaceCard(t.id, old, cards[1], free)))
    assert not reply.alert, reply.text
    assert dict(hand.pending(board)) == {cards[0]: None, cards[1]: free}
    # a second discard on that screen: the hand refuses it (one discard, R3.2), and says so
    before = hand.dumps()
    reply = await service.press(actor, encode(DiscardCard(t.id, old, cards[2])))
    assert reply.alert and reply.text == error_text("en", "discard_done"), reply.text
    assert hand.dumps() == before
    assert await check_store(store) == []


async def _telegram_hand_dealt(w: World) -> tuple[LiveTable, int, FakeUser]:
    """Alice and Bob seated on Telegram (both with a private chat) and dealt: the table, the
    board to act and its player."""
    w.fake.started_users.update({ALICE.id, BOB.id})
    await seat_everyone(w, [ALICE, BOB])
    await w.settle()
    t = next(iter(w.service.tables.values()))
    assert t.hand is not None
    board = t.hand.to_act[0]
    return t, board, ALICE if t.seats[board].user_id == str(ALICE.id) else BOB


def _buttons(w: World, message: dict[str, Any]) -> dict[tuple[str, str], tuple[str, str]]:
    """(action, arg) → (callback data, label) of a Telegram message's payload buttons."""
    return {
        (p.action, p.arg): (b["callback_data"], b["text"])
        for b in w.fake.buttons(message)
        if (p := Payload.decode(b.get("callback_data"))) is not None
    }


def _marked(w: World, message: dict[str, Any]) -> set[tuple[str, str]]:
    """The (action, arg) of a hand message's buttons marked • (a card's box, its discard)."""
    return {key for key, (_data, text) in _buttons(w, message).items() if "•" in text}


async def test_telegram_two_taps_before_the_edit_both_place(tmp_path: Path) -> None:
    """End to end on Telegram: the player taps two cards' boxes on the private message as
    it was dealt (the second before the first's edit reached the chat); both presses are
    answered without a notice, both cards are in their boxes, and the message, edited in
    place, ends showing the hand after both."""
    async with world(tmp_path) as w:
        t, board, user = await _telegram_hand_dealt(w)
        assert t.hand is not None
        dealt = dict(w.private(user) or {})
        cards = t.hand.current_cards(board)
        taps = [(cards[0], Box.BOTTOM), (cards[1], Box.MIDDLE)]
        buttons = {key: data for key, (data, _text) in _buttons(w, dealt).items()}
        for card, box in taps:
            answer = await w.press(user, user.id, dealt, buttons[("p", card.text + box.value[0])])
            assert not answer.get("show_alert") and not answer.get("text"), answer
        assert dict(t.hand.pending(board)) == dict(taps)
        await w.settle()
        now = w.private(user) or {}
        assert now["message_id"] == dealt["message_id"]
        marked = _marked(w, now)
        # each placed card's row marks its box (•): the screen after both presses
        assert marked == {("p", card.text + box.value[0]) for card, box in taps}, marked
        # a third tap there, of a card already in that box: refused with the reason
        before = t.hand.dumps()
        answer = await w.press(user, user.id, dealt, buttons[("p", cards[0].text + "b")])
        assert answer.get("show_alert") and answer["text"] == error_text("en", "no_change")
        assert t.hand.dumps() == before


async def test_discord_two_taps_on_the_ephemeral_hand_both_place(tmp_path: Path) -> None:
    """The same on Discord, where the second tap's interaction carries the hand message as
    the first one's update left it, without the button pressed (discord.py's items drop
    such a press; the adapter answered "out of date" itself): it goes to the service and
    places its card, answered by updating the pressed message (type 7) with the hand after
    it, no notice. A gone Confirm stays out of date, answered by the adapter."""
    async with dc_world.world(tmp_path) as w:
        await seat_on_discord(w, [dc_world.ALICE, dc_world.BOB])
        t = w.table()
        assert t.hand is not None
        board = t.hand.to_act[0]
        user = dc_world.ALICE if t.seats[board].user_id == str(dc_world.ALICE.id) else dc_world.BOB
        shown = dict(await w.my_cards(user))
        hand_id = int(shown["id"])
        cards = t.hand.current_cards(board)
        taps = [(cards[0], Box.BOTTOM), (cards[1], Box.MIDDLE)]
        old = w.buttons(shown)
        record = await w.press(user, shown, old[("p", cards[0].text + "b")])
        assert record.callback_type == 7 and record.messages == [hand_id], record
        now = w.fake.messages[hand_id]
        assert old[("p", cards[1].text + "m")] not in w.buttons(now).values()
        record = await w.settle(
            await w.fake.press(user, now, old[("p", cards[1].text + "m")], gone=True)
        )
        assert record.callback_type == 7 and record.messages == [hand_id], record
        assert w.notice(record) is None
        assert dict(t.hand.pending(board)) == dict(taps)
        now = w.fake.messages[hand_id]
        assert not now["content"].startswith(tr("en", "err.stale_shown")), now["content"]
        marked = {
            key for key, cid in w.buttons(now).items() for c in dc_world.components(now)
            if c.get("custom_id") == cid and "•" in c.get("label", "")
        }  # fmt: skip
        assert marked == {("p", card.text + box.value[0]) for card, box in taps}, marked
        # a Confirm gone from the message: out of date, nothing changes
        before = t.hand.dumps()
        record = await w.settle(await w.fake.press(user, now, old[("c", "")], gone=True))
        assert (w.notice(record) or {}).get("content") == tr("en", "err.stale_edited"), record
        assert t.hand.dumps() == before


async def test_r3_4_a_press_delivered_again_after_its_card_moved_changes_nothing() -> None:
    """The same press delivered twice (a webhook's redelivery, a retried forward): the
    copy comes after the player moved or took back the card it names, on the screen after
    it. It is a press of an older screen of the street, and the hand would take it; taken,
    it put the card back where the player had moved it from. A press naming a card moved
    since its screen no longer means what that screen showed: out of date, nothing moves.
    Another card's press of that screen (a fast second tap) is still taken."""
    service, _presenter, store, _clock = service_env()
    t, hand, board, actor = await _service_hand_dealt(service)
    cards = hand.current_cards(board)
    dealt = _version(service, board)
    first = encode(PlaceCard(t.id, dealt, cards[0], Box.BOTTOM))
    assert not (await service.press(actor, first)).alert
    moved = encode(PlaceCard(t.id, _version(service, board), cards[0], Box.MIDDLE))
    assert not (await service.press(actor, moved)).alert
    before = hand.dumps()
    reply = await service.press(actor, first)  # the first press, delivered again
    assert reply.alert and reply.text == tr("en", "err.stale_hand"), reply.text
    assert hand.dumps() == before and dict(hand.pending(board)) == {cards[0]: Box.MIDDLE}
    # taken back since: the copy does not put it in again
    back = encode(TakeBack(t.id, _version(service, board), cards[0]))
    assert not (await service.press(actor, back)).alert
    reply = await service.press(actor, first)
    assert reply.alert and reply.text == tr("en", "err.stale_hand"), reply.text
    assert dict(hand.pending(board)) == {}
    # a card the player has not touched since that screen: its press there is taken
    older = encode(PlaceCard(t.id, dealt, cards[1], Box.TOP))
    assert not (await service.press(actor, older)).alert
    assert dict(hand.pending(board)) == {cards[1]: Box.TOP}
    assert await check_store(store) == []


async def test_r8_5_a_fast_tap_that_lost_the_race_to_the_clock_says_the_move_was_made() -> None:
    """The player taps two cards on the dealt screen; the first is taken, then the clock
    runs out (R8.5) and makes the street for them before the second arrives. That second
    press was of the street the clock finished (it would have been taken a moment
    before): "your time ran out, the move was made for you", as for a press of the
    screen the timeout replaced, not "out of date". It changes nothing."""
    service, _presenter, store, clock = service_env()
    t, hand, board, actor = await _service_hand_dealt(service)
    cards = hand.current_cards(board)
    dealt = _version(service, board)
    assert not (
        await service.press(actor, encode(PlaceCard(t.id, dealt, cards[0], Box.BOTTOM)))
    ).alert
    clock.now += t.options.hand_seconds + t.options.time_bank_seconds + 1
    await service.run_due()
    assert hand.street_of(board) == 2 or board not in hand.to_act  # the clock's move
    before = hand.dumps()
    reply = await service.press(actor, encode(PlaceCard(t.id, dealt, cards[1], Box.MIDDLE)))
    assert reply.alert and reply.text == tr("en", "err.timed_out"), reply.text
    assert hand.dumps() == before
    assert await check_store(store) == []


async def test_telegram_a_redelivered_press_does_not_undo_a_later_move(tmp_path: Path) -> None:
    """End to end on Telegram: Alice puts a card in the bottom, then moves it to the middle
    on the screen after; Telegram delivers the first press's update again (its answer lost).
    The copy is answered "out of date" and the card stays in the middle; the hand message
    ends showing it there (the copy brought it up to date, no older screen)."""
    async with world(tmp_path) as w:
        t, board, user = await _telegram_hand_dealt(w)
        assert t.hand is not None
        card = t.hand.current_cards(board)[0]
        for box in (Box.BOTTOM, Box.MIDDLE):
            message = w.private(user) or {}
            key = ("p", card.text + box.value[0])
            answer = await w.press(user, user.id, message, w.hand_buttons(user)[key])
            assert not answer.get("show_alert"), answer
            if box is Box.BOTTOM:
                first = max(w.fake.pushed)  # the update of the first press
        assert dict(t.hand.pending(board)) == {card: Box.MIDDLE}
        before = t.hand.dumps()
        answers = len([c for c in w.fake.calls if c.method == "answerCallbackQuery"])
        await w.fake.redeliver(first)
        await w.fake.wait_for(
            lambda: len([c for c in w.fake.calls if c.method == "answerCallbackQuery"]) > answers
        )
        await w.settle()
        again = [c for c in w.fake.calls if c.method == "answerCallbackQuery"][-1].params
        assert again.get("show_alert") and again["text"] == tr("en", "err.stale_shown"), again
        assert t.hand.dumps() == before and dict(t.hand.pending(board)) == {card: Box.MIDDLE}
        now = w.private(user) or {}
        marked = _marked(w, now)
        assert marked == {("p", card.text + "m")}, marked
