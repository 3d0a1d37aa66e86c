"""The group write budget (Telegram allows a group about 20 writes a minute): at a hand's end
the queued top-ups refused, the points settled early and a raised point tell the group in
ONE message naming every player (R8.2), where it got one per player; each top-up is still
its own balanced ledger transaction."""

from __future__ import annotations

from bot.model import LiveTable
from bot.service import TableService
from bot.service.dealing import TOP_UP_SECONDS, offer_top_ups
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm, seated
from tests.bot.test_tournament_service import new_service
from tests.bot.test_transitions import player_balance

BY_ID = {a.user_id: a for a in (ALICE, BOB, CAROL)}


async def three_dealt(
    next_hand_delay: float = 4,
) -> tuple[TableService, FakePresenter, MemoryStore, Clock, LiveTable]:
    """Alice, Bob and Carol seated (Carol joined the first hand late): the first hand
    played, the second dealt to all three."""
    service, presenter, store, clock = new_service(next_hand_delay=next_hand_delay)
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None
    while t.hand is not None and t.hand_no == 1:
        await press_auto_and_confirm(service, presenter, BY_ID[t.seats[t.hand.to_act[0]].user_id])
    clock.now += next_hand_delay
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and len(t.hand.order) == 3
    return service, presenter, store, clock, t


async def play_out(service: TableService, presenter: FakePresenter, t: LiveTable) -> None:
    """The hand under way played to its end ("arrange for me")."""
    number = t.hand_no
    while t.hand is not None and t.hand_no == number:
        await press_auto_and_confirm(service, presenter, BY_ID[t.seats[t.hand.to_act[0]].user_id])


async def test_r8_2_three_refused_top_ups_at_a_hand_end_are_one_group_message() -> None:
    """Alice, Bob and Carol each queue a top-up of 300 during the hand; an admin then takes
    their whole balances. As the hand ends every top-up is refused: one group message names
    the three (it was three messages), nothing moves, the ledger balances."""
    service, presenter, store, clock, t = await three_dealt()
    for n, actor in enumerate((ALICE, BOB, CAROL)):
        assert not (await service.top_up(GROUP, actor, "300")).alert
        have = await player_balance(store, actor)
        reply = await service.grant(GROUP, ALICE, True, actor.name, str(-have), f"k{n}")
        assert not reply.alert, reply.text
    await play_out(service, presenter, t)
    posted = len(presenter.posts)
    clock.now += 4
    await service.run_due()
    lines = [
        tr("en", "lobby.topup_failed", name=name, amount=300, label="kush", have=0)
        for name in ("Alice", "Bob", "Carol")
    ]
    assert lines[0] == "Alice: top-up of 300 kush not made, the balance has 0."
    told = [text for chat, text in presenter.posts[posted:] if "top-up" in text]
    assert told == ["\n".join(lines)]  # one write, where the group got three
    assert [s.top_up for s in t.seats.values()] == [0, 0, 0]
    assert t.hand is not None and t.hand_no == 3  # the next hand was dealt
    for actor in (ALICE, BOB, CAROL):
        assert await player_balance(store, actor) == 0
    assert await check_store(store) == []


async def test_r8_2_a_point_raised_past_three_stacks_is_one_group_message() -> None:
    """The admins raise ``kush_per_point`` to 300 during the hand; as it ends all three
    stacks are below it: one group message offers the three the top-up, each named with their
    stack (it was three), and the lobby waits the top-up window."""
    service, presenter, store, clock, t = await three_dealt()
    for name in ("min_buy_in", "kush_per_point"):  # (a point costs at most the buy-in)
        reply = await service.settings(GROUP, ALICE, True, [name, "300"])
        assert not reply.alert, reply.text
    posted = len(presenter.posts)
    await play_out(service, presenter, t)
    stacks = [(s.name, s.stack) for s in t.seats.values()]
    assert stacks == [("Alice", 211), ("Bob", 207), ("Carol", 182)]
    said = [text for chat, text in presenter.posts[posted:] if "point now costs" in text]
    assert said == [
        "A point now costs 300 kush, more than the stacks of Alice (211), Bob (207), "
        "Carol (182) — top up (➕ or /topup) before the next hand, or the seat is freed."
    ]
    assert tr(
        "ru", "lobby.point_raised_many", names="Алиса (204), Боб (196)", point=300, label="kush"
    ) == (
        "Очко теперь стоит 300 кушей, больше стеков: Алиса (204), Боб (196) — докупите "
        "(➕ или /topup) до следующей раздачи, иначе место освободится."
    )
    # nobody can play without a top-up: the lobby's window for it, nobody stood up yet
    assert t.hand is None and t.top_up_deadline == clock.now + TOP_UP_SECONDS
    assert len(t.seats) == 3
    assert await check_store(store) == []


async def test_r8_2_points_settled_early_leaving_three_below_a_point_are_one_message() -> None:
    """Points settled early (R8.3) leave three players below a point: the top-up is offered
    to them in one group notice naming each with their stack (it was one each); one player
    reads as the showdown says it."""
    service, _presenter, _store, clock = new_service(next_hand_delay=4)
    assert not (await service.settings(GROUP, ALICE, True, ["kush_per_point", "100"])).alert
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None
    for seat, stack in zip(t.seats.values(), (0, 40, 0), strict=True):
        seat.stack = stack  # (as a settlement leaves them: the notice's part alone)
    outbox = len(t.outbox)
    t.next_hand_at = clock.now
    assert offer_top_ups(t, set(t.seats), clock.now)
    posts = [i["text"] for i in t.outbox[outbox:] if i["kind"] == "post"]
    assert posts == [
        "Less than a point left: Alice (0), Bob (40), Carol (0) — top up (➕ or /topup) "
        "before the next hand, or the seat is freed."
    ]
    assert tr("ru", "showdown.below_point_many", names="Алиса (0), Боб (40)") == (
        "В стеке меньше очка: Алиса (0), Боб (40) — докупите (➕ или /topup) до следующей "
        "раздачи, иначе место освободится."
    )
    assert t.next_hand_at == clock.now + TOP_UP_SECONDS
    outbox = len(t.outbox)
    assert offer_top_ups(t, {1}, clock.now)  # Bob alone: the showdown's words
    posts = [i["text"] for i in t.outbox[outbox:] if i["kind"] == "post"]
    assert posts == [tr("en", "showdown.below_point", name="Bob", stack=40, label="kush")]
