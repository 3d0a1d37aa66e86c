"""What a new player is told when they or a computer player leave, and what a time bank
setting changes (a sandbox trial: a mid-hand leaver vanished from the lobby with no word of
their cash-out, "0 kush back" for a seat never bought in, a /removebot'd computer player
vanished silently, and ``time_bank_seconds`` promised the seated players a new bank)."""

from __future__ import annotations

from bot.model import LiveTable
from bot.presses import Leave, decode
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_bots import alice_and_a_bot, new_service, play_hand_with_bots
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, play_out, seated
from tests.bot.test_transitions import player_balance


def leave_button(presenter: FakePresenter) -> str:
    """The Leave button of the group's table message now."""
    screen = presenter.last_table(GROUP.chat_id)
    return next(
        b.data for b in screen.all_buttons() if b.data and isinstance(decode(b.data), Leave)
    )


async def test_r8_2_a_mid_hand_leaver_is_told_the_cards_are_placed_and_the_group_the_cash_out(
    env,  # type: ignore[no-untyped-def]
) -> None:
    """Alice types /leave during the hand: it asks first, as the Leave button does (R8.5: the
    rest of her cards are placed for her), and a second /leave leaves: the reply says the
    rest of her cards are placed automatically and may foul. After the showdown she stands
    up with her stack (R8.2): the group is told how much went back to her balance (she used
    to vanish from the lobby without a word)."""
    service, presenter, store, _clock = env
    t = await seated(service, ALICE, CAROL)
    assert t is not None and t.hand is not None
    reply = await service.leave(GROUP, ALICE)
    assert reply.alert and reply.text == tr("en", "reply.leave_confirm_typed")
    assert not t.seats[0].leaving
    reply = await service.leave(GROUP, ALICE)
    assert not reply.alert and reply.text == tr("en", "reply.leave_after_hand")
    assert "may foul" in reply.text
    assert "мёртвой" in tr("ru", "reply.leave_after_hand")
    assert t.seats[0].leaving
    await play_out(service, presenter, [CAROL])
    assert t.seat_of(ALICE.user_id) is None
    balance = await player_balance(store, ALICE)
    amount = balance - 800  # her stack after the hand, back to her balance
    assert amount > 0
    note = tr("en", "notice.left_after_hand", name="Alice", amount=amount, label="kush")
    # (Carol, alone now, may seat a computer player: the opener's part, said in the notice)
    passed = tr("en", "bot.opener_passed", name="Carol")
    assert (GROUP.chat_id, f"{note}\n{passed}") in presenter.posts, presenter.posts
    assert note == f"👋 Alice left the table; {amount} kush back to their balance."
    assert await check_store(store) == []


async def test_r8_2_leaving_without_ready_says_no_kush_moved(env) -> None:  # type: ignore[no-untyped-def]
    """Join, then Leave (the command or the button) without Ready: nothing was bought in,
    and the reply said "You left the table; 0 kush back to your balance"."""
    service, presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    reply = await service.leave(GROUP, ALICE)
    assert reply.text == "You left the table."
    assert tr("ru", "reply.left_nothing") == "Вы встали из-за стола."
    await service.join(GROUP, ALICE)
    reply = await service.press(ALICE, leave_button(presenter), GROUP)
    assert not reply.alert and reply.text == tr("en", "reply.left_nothing")
    assert await player_balance(store, ALICE) == 1000
    await service.join(GROUP, ALICE)
    await service.ready(GROUP, ALICE)
    reply = await service.leave(GROUP, ALICE)  # bought in: the amount is said
    assert reply.text == tr("en", "reply.left", amount=200, label="kush")


async def test_r8_5_the_leave_button_during_a_hand_asks_first(env) -> None:  # type: ignore[no-untyped-def]
    """A tap on the group message's Leave during the player's hand used to leave at once, the
    rest of the hand placed for them (R8.5). It asks first, as a running tournament's does
    (nothing changes); the same press delivered again is out of date; a press of the new
    Leave button within 30 s leaves; much later it asks again."""
    service, presenter, store, clock = env
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    first = leave_button(presenter)
    reply = await service.press(ALICE, first, GROUP)
    assert reply.alert and reply.text == tr("en", "reply.leave_confirm")
    assert "may foul" in reply.text and not t.seats[0].leaving
    reply = await service.press(ALICE, first, GROUP)  # the same update again
    assert reply.alert and reply.text == tr("en", "err.stale")
    assert not t.seats[0].leaving
    clock.now += 31  # too late for a confirmation: it asks again
    reply = await service.press(BOB, leave_button(presenter), GROUP)
    assert reply.alert and reply.text == tr("ru", "reply.leave_confirm")
    clock.now += 31
    reply = await service.press(ALICE, leave_button(presenter), GROUP)
    assert reply.alert and reply.text == tr("en", "reply.leave_confirm")
    clock.now += 5
    reply = await service.press(ALICE, leave_button(presenter), GROUP)
    assert not reply.alert and reply.text == tr("en", "reply.leave_after_hand")
    assert t.seats[0].leaving
    assert not t.seats[1].leaving
    assert await check_store(store) == []


async def test_removebot_during_a_hand_tells_the_group_when_it_stands_up() -> None:
    """/removebot during a hand: the computer player stands up after it, and the group got
    no line of it (it vanished from the lobby). After the showdown it says so."""
    service, presenter, store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    bot = next(s for s in t.seats.values() if s.bot)
    reply = await service.remove_bot(GROUP, ALICE, True)
    assert reply.text == tr("en", "bot.removed_after_hand", name=bot.name)
    note = tr("en", "bot.left_after_hand", name=bot.name)
    assert (GROUP.chat_id, note) not in presenter.posts
    await play_hand_with_bots(service, presenter, clock)
    assert [s.name for s in t.seats.values()] == ["Alice"]
    assert (GROUP.chat_id, note) in presenter.posts, presenter.posts
    assert note == f"{bot.name} left the table."
    assert tr("ru", "bot.left_after_hand", name="🤖 Борис") == "🤖 Борис покидает стол."
    # no person's cash-out line for it: its stack went back to the house
    assert not [p for _, p in presenter.posts if p.startswith("👋")]
    assert await check_store(store) == []


async def _bank_of(service: TableService, t: LiveTable, user_id: str) -> float:
    """The time bank of ``user_id``'s seat at ``t``."""
    seat = t.seat_of(user_id)
    assert seat is not None
    return seat.bank


async def test_r8_6_time_bank_seconds_says_seated_players_keep_their_bank() -> None:
    """``/settings time_bank_seconds 2`` during a hand said the table takes it when the hand
    is over, but a seated player's bank never refills at the same table (R8.5, R8.6): only
    those who sit down later get the new bank. The reply says so, during a hand and between
    hands; other rule options still say they wait for the hand."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.join(GROUP, BOB)
    await service.ready(GROUP, ALICE)
    await service.ready(GROUP, BOB)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    reply = await service.settings(GROUP, ALICE, True, ["time_bank_seconds", "4"])
    assert not reply.alert, reply.text
    assert tr("en", "settings.bank_new_seats") in reply.text, reply.text
    assert tr("en", "settings.next_match") not in reply.text, reply.text
    assert "sit down from now on" in reply.text
    # (a change: the same value again is "Already so", and says nothing of the banks)
    ru = await service.settings(GROUP, BOB, True, ["time_bank_seconds", "2"])
    assert tr("ru", "settings.bank_new_seats") in ru.text, ru.text
    other = await service.settings(GROUP, ALICE, True, ["kush_per_point", "2"])
    assert tr("en", "settings.next_match") in other.text, other.text
    assert tr("en", "settings.bank_new_seats") not in other.text
    # saved again: still waiting for the match, which is said again
    again = await service.settings(GROUP, ALICE, True, ["kush_per_point", "2"])
    assert again.text.startswith("Already so: kush_per_point = 2."), again.text
    assert tr("en", "settings.next_match") in again.text, again.text
    # set back to what the table plays: saved, and nothing waits any more
    playing = f"{t.options.kush_per_point:g}"
    back = await service.settings(GROUP, ALICE, True, ["kush_per_point", playing])
    assert back.text.startswith(f"Saved: kush_per_point = {playing} (was 2)."), back.text
    assert tr("en", "settings.next_match") not in back.text, back.text
    # the value the table plays now, saved again: nothing waits, nothing to say of when
    # ("Already so … applies from the next match" read as a change to come)
    same = await service.settings(
        GROUP, ALICE, True, ["hand_seconds", f"{t.options.hand_seconds:g}"]
    )
    assert same.text.startswith("Already so: hand_seconds = "), same.text
    assert tr("en", "settings.next_match") not in same.text, same.text
    assert tr("en", "settings.next_hand") not in same.text, same.text
    await service.join(GROUP, CAROL)  # during the hand: the new bank is hers
    assert await _bank_of(service, t, CAROL.user_id) == 2
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is None  # between hands (timers off: the next deal waits for run_due)
    reply = await service.settings(GROUP, ALICE, True, ["time_bank_seconds", "3"])
    assert tr("en", "settings.bank_new_seats") in reply.text, reply.text
    await service.ready(GROUP, CAROL)
    assert t.next_hand_at is not None
    clock.now = t.next_hand_at
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and t.options.time_bank_seconds == 3
    # what the reply said: the seated keep theirs (R8.6), a newcomer gets the new one
    assert await _bank_of(service, t, ALICE.user_id) == 60
    assert await _bank_of(service, t, BOB.user_id) == 60
    assert await _bank_of(service, t, CAROL.user_id) == 2
    assert await check_store(store) == []


async def test_r8_5_with_safe_autoplay_a_mid_hand_leave_does_not_say_may_foul(env) -> None:  # type: ignore[no-untyped-def]
    """With ``safe_autoplay`` the leaver's cards are placed by the strategy so as not to foul
    (R8.5): the question of the Leave button and the /leave reply say they are placed
    automatically, not that they may foul; the hand then finishes unfouled for them."""
    service, presenter, store, _clock = env
    reply = await service.settings(GROUP, ALICE, True, ["safe_autoplay", "on"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, CAROL)
    assert t is not None and t.hand is not None and t.options.safe_autoplay
    seat = t.seat_of(ALICE.user_id)
    assert seat is not None and seat.seat in t.hand.order  # (one board: hand seat = seat)
    reply = await service.press(ALICE, leave_button(presenter), GROUP)
    assert reply.alert and reply.text == tr("en", "reply.leave_confirm_safe")
    reply = await service.leave(GROUP, ALICE)
    assert reply.text == tr("en", "reply.leave_after_hand_safe")
    assert "foul" not in reply.text and "мёртв" not in tr("ru", "reply.leave_after_hand_safe")
    await play_out(service, presenter, [CAROL])
    assert t.last_result is not None
    alice = next(r for r in t.last_result["seats"] if r["seat"] == seat.seat)
    assert not alice["fouled"], alice
    assert await check_store(store) == []


async def test_r8_6_a_lowered_time_bank_with_refills_does_not_cut_a_seated_bank() -> None:
    """With ``time_bank_refill_per_match`` on, a refill was capped at the new, lower
    ``time_bank_seconds``: Alice's 60 s bank became 2 s at the end of the next match,
    though the reply said the seated keep theirs (R8.6). A refill adds, never cuts."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock)
    reply = await service.settings(GROUP, ALICE, True, ["time_bank_refill_per_match", "10"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    reply = await service.settings(GROUP, ALICE, True, ["time_bank_seconds", "2"])
    assert tr("en", "settings.bank_new_seats") in reply.text, reply.text
    for number in (1, 2):
        assert t.hand is not None and t.hand_no == number
        await play_out(service, presenter, [ALICE, BOB])
        assert t.next_hand_at is not None
        clock.now = t.next_hand_at
        await service.run_due()
    assert t.options.time_bank_seconds == 2 and t.hand_no == 3
    assert await _bank_of(service, t, ALICE.user_id) == 60
    assert await _bank_of(service, t, BOB.user_id) == 60
    assert await check_store(store) == []
