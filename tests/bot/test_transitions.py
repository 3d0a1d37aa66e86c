"""Trustworthy tables (issue 10): every table step is one transition committed in one storage
transaction; a crash at any transition boundary and a refused commit leave a table that
continues correctly. The five cases of the issue, and a sweep that "kills" the service before
and after every commit of a hand and restarts it on the same store."""

from __future__ import annotations

import math
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import pytest

from bot.model import Actor, ChatRef, LiveTable, Phase
from bot.presses import ConfirmMove, PlaceCard, decode, encode
from bot.service import TableService
from bot.service import settings as settings_mod
from bot.texts import minus, tr
from game.board import Box
from game.cards import DECK, Card, parse_cards, shuffled_deck
from storage.api import LedgerKind, Move, StorageError
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    play_out,
    press_auto_and_confirm,
    seated,
)


class Killed(BaseException):
    """The process "dies" here: nothing after it runs."""


class KillableStore(MemoryStore):
    """A memory store that dies at a chosen commit (before or after writing it) and, once
    dead, refuses every later write, as a killed process would never write again."""

    def __init__(self) -> None:
        super().__init__()
        self.commits = 0
        self.kill_at: int | None = None
        self.kill_after = True
        self.fail_next = 0
        self.dead = False
        self.kill_on_close = False  # dies right after the first closing commit

    async def commit(
        self,
        table_id: int,
        moves: Sequence[Move],
        snapshot: Mapping[str, Any] | None,
        *,
        key: str,
        close: bool = False,
    ) -> list[int]:
        if self.dead:
            raise StorageError("the process is dead")
        if self.fail_next:
            self.fail_next -= 1
            raise StorageError("disk I/O error")
        self.commits += 1
        if self.commits == self.kill_at and not self.kill_after:
            self.dead = True
            raise Killed
        result = await super().commit(table_id, moves, snapshot, key=key, close=close)
        if self.commits == self.kill_at or (close and self.kill_on_close):
            self.dead = True
            raise Killed
        return result

    async def save_snapshot(self, table_id: int, data: Mapping[str, Any]) -> None:
        if self.dead:
            raise StorageError("the process is dead")
        await super().save_snapshot(table_id, data)


def new_service(
    store: MemoryStore, clock: Clock, delay: float = 0
) -> tuple[TableService, FakePresenter]:
    service = TableService(
        store, clock=clock, rng=random.Random(5), next_hand_delay=delay, timers=False
    )
    presenter = FakePresenter()
    service.register(presenter)
    return service, presenter


async def restart(
    store: MemoryStore, clock: Clock, delay: float = 0
) -> tuple[TableService, FakePresenter]:
    """A new process on the same database."""
    service, presenter = new_service(store, clock, delay)
    await service.start()
    return service, presenter


async def told_once_after_a_crash(
    store: KillableStore,
    clock: Clock,
    step: Callable[[], Awaitable[object]],
    chat: ChatRef,
    user_id: str,
    said: str,
) -> None:
    """``step`` dies right after its commit, before anything is sent: the restarted bot
    tells ``user_id`` ``said`` in private once (a notice kept with the table's snapshot
    until sent, :meth:`~bot.model.LiveTable.owe_notice`), and a second restart tells them
    nothing more; the store checks clean."""
    store.kill_at = store.commits + 1
    with pytest.raises(Killed):
        await step()
    store.dead = False
    for told in ([said], []):
        service, presenter = await restart(store, clock)
        t = service.table_in(chat)
        assert t is not None and t.seat_of(user_id) is None
        await service.rt.settled(t)
        assert [s.text for s in presenter.privates.get(user_id, [])] == told
        await service.stop()
    assert await check_store(store) == []


async def player_balance(store: MemoryStore, actor: Actor) -> int:
    community = await store.community("telegram", "-100")
    p = await store.find_player(community.id, actor.user_id)
    assert p is not None
    return p.balance


async def buy_ins(store: MemoryStore) -> int:
    community = await store.community("telegram", "-100")
    return sum(1 for e in await store.ledger(community.id) if e.kind is LedgerKind.BUY_IN)


# -- case 1: Ready's buy-in and readiness (and the deal) are one transition -----------------
@pytest.mark.parametrize("after", [True, False], ids=["after-commit", "before-commit"])
async def test_case1_crash_at_the_last_ready_never_takes_a_second_buy_in(after: bool) -> None:
    store, clock = KillableStore(), Clock()
    service, _ = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    await service.join(GROUP, BOB)
    await service.ready(GROUP, ALICE)
    store.kill_at, store.kill_after = store.commits + 1, after
    with pytest.raises(Killed):
        await service.ready(GROUP, BOB)  # the last Ready: buy-in and deal
    store.dead = False
    service2, _ = await restart(store, clock)
    t = service2.table_in(GROUP)
    assert t is not None
    bob = next(s for s in t.seats.values() if s.user_id == BOB.user_id)
    if after:  # committed: Bob is ready, his 200 at the table, the hand dealt
        assert bob.ready and bob.stack == 200 and t.hand is not None and t.phase is Phase.PLAYING
        assert await player_balance(store, BOB) == 800
        reply = await service2.ready(GROUP, BOB)
        assert reply.alert and reply.text == tr("ru", "reply.already_ready")
    else:  # not committed: Bob is not ready and nothing of his is held
        assert not bob.ready and bob.stack == 0 and t.hand is None and t.phase is Phase.LOBBY
        assert await player_balance(store, BOB) == 1000
        assert not (await service2.ready(GROUP, BOB)).alert
        assert t.hand is not None
    assert await player_balance(store, BOB) == 800
    assert await buy_ins(store) == 2  # one each, never a second
    assert (await store.stacks(t.id)) == {s.player_id: 200 for s in t.seats.values()}
    assert await check_store(store) == []


# -- case 2: the Confirm that ends a hand commits its settlement and the next phase ---------
@pytest.mark.parametrize("after", [True, False], ids=["after-commit", "before-commit"])
async def test_case2_crash_at_the_last_confirm_settles_once_and_shows_the_stored_showdown(
    after: bool,
) -> None:
    store, clock = KillableStore(), Clock()
    service, presenter = new_service(store, clock, delay=5)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    by_id = {a.user_id: a for a in (ALICE, BOB)}
    for _ in range(9):  # two players, five streets each: the tenth Confirm ends the hand
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.hand is not None
    last = by_id[t.seats[t.hand.to_act[0]].user_id]
    store.kill_at, store.kill_after = store.commits + 1, after
    with pytest.raises(Killed):
        await press_auto_and_confirm(service, presenter, last)
    store.dead = False
    service2, presenter2 = await restart(store, clock, delay=5)
    t2 = service2.table_in(GROUP)
    assert t2 is not None
    if not after:  # nothing was settled: the hand is still on its last move, then finished
        assert t2.hand is not None and t2.phase is Phase.PLAYING
        await press_auto_and_confirm(service2, presenter2, last)
        texts = [s.text for s in presenter2.tables[GROUP.chat_id] if "Showdown" in s.text]
    else:  # settled and stored with its showdown: the restarted bot sends that one, once
        assert t2.hand is None and t2.phase is Phase.BETWEEN
        texts = [s.text for s in presenter2.tables[GROUP.chat_id] if "Showdown" in s.text]
        assert not any("Showdown" in s.text for s in presenter.tables[GROUP.chat_id])
    assert len(texts) == 1
    hands = await store.export_hands(t2.id)
    assert len(hands) == 1  # settled exactly once
    kush = hands[0]["result"]["kush"]
    for seat in t2.seats.values():  # the showdown shown is the stored one
        delta = int(kush[str(seat.seat)])
        assert f"{minus(f'{delta:+d}')} kush → {200 + delta}" in texts[0]
        assert seat.stack == 200 + delta
    assert await check_store(store) == []
    clock.now += 5
    await service2.run_due()
    assert t2.hand is not None and t2.hand_no == 2  # the table reaches its next hand


# -- case 3: a storage error inside a transition leaves the table as before -----------------
async def test_case3_a_refused_commit_changes_nothing_and_the_table_plays_on() -> None:
    store, clock = KillableStore(), Clock()
    service, presenter = new_service(store, clock)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    actor = ALICE if t.seats[t.hand.to_act[0]].user_id == ALICE.user_id else BOB
    screen = presenter.last_private(actor.user_id)
    arrange = next(b.data for b in screen.all_buttons() if b.data and b.data.endswith(":a"))
    assert not (await service.press(actor, arrange)).alert
    before = t.hand.dumps()
    version, seq = t.version, t.seq
    confirm = next(
        b.data
        for b in presenter.last_private(actor.user_id).all_buttons()
        if isinstance(decode(b.data), ConfirmMove)
    )
    store.fail_next = 1
    reply = await service.press(actor, confirm)
    assert reply.alert and "nothing changed" in reply.text
    assert t.hand.dumps() == before  # the placements are kept, the Confirm is not applied
    assert (t.version, t.seq) == (version, seq)
    reply = await service.press(actor, confirm)  # the same press again: now it goes through
    assert not reply.alert, reply.text
    assert t.hand.dumps() != before
    await play_out(service, presenter, [ALICE, BOB])
    assert len(await store.export_hands(t.id)) == 1
    assert await check_store(store) == []


async def test_case3_a_new_table_whose_opening_storage_refuses_can_be_opened_again() -> None:
    """``/newtable`` whose opening transition storage refuses is answered "nothing changed,
    try again", and trying again opens the table: the refused one was left served (with no
    table message and no snapshot), so every /newtable after it was refused as "this chat
    already has an open table"."""
    store, clock = KillableStore(), Clock()
    service, presenter = new_service(store, clock)
    store.fail_next = 1
    reply = await service.new_table(GROUP, ALICE)
    assert reply.alert and reply.text == tr("en", "err.storage")
    assert service.table_in(GROUP) is None and presenter.tables == {}
    reply = await service.new_table(GROUP, ALICE)  # as the refusal asks
    t = service.table_in(GROUP)
    assert t is not None and reply.text == tr("en", "reply.table_opened", table=t.id)
    assert presenter.tables[GROUP.chat_id][-1].all_buttons()  # its lobby, with the buttons
    assert [r.id for r, _ in await store.snapshots()] == [t.id]  # the refused one is closed
    await seated(service, ALICE, BOB)
    assert t.hand is not None and await check_store(store) == []


#: the supergroup the group of these tests is upgraded to (Telegram gives it a new id)
SUPERGROUP = ChatRef("telegram", "-100777", "-100777", "Friends")


async def _finish_in(service: TableService, presenter: FakePresenter, chat: ChatRef) -> None:
    """Carol joins the table of ``chat`` and buys in there (the group's wallets), then Alice
    and Bob play the hand in progress to its showdown."""
    reply = await service.join(chat, CAROL)
    assert reply.text == tr("en", "reply.joined_mid_hand", seat=3, seconds=60), reply.text
    assert not (await service.ready(chat, CAROL)).alert
    t = service.table_in(chat)
    assert t is not None and t.hand is not None
    while t.hand is not None and t.hand_no == 1:
        acting = t.seats[t.hand.to_act[0]].user_id
        await press_auto_and_confirm(service, presenter, ALICE if acting == "1" else BOB)
    assert len(await service.store.export_hands(t.id)) == 1


async def test_a_crash_between_a_chat_moving_and_its_table_following_it_keeps_the_table() -> None:
    """A group upgraded to a supergroup (a new chat id) moves its wallets and table in
    storage, then the live table follows in a transition of its own. Killed between the
    two, the restarted bot serves the table in the new chat (where storage has it): it
    was restored at the old id from its snapshot, so the supergroup had no table, and every
    press there asked for a wallet the old id no longer names."""
    store, clock = KillableStore(), Clock()
    service, _ = new_service(store, clock)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    store.kill_at, store.kill_after = store.commits + 1, False
    with pytest.raises(Killed):
        await service.migrate_chat("telegram", GROUP.chat_id, SUPERGROUP.chat_id)
    store.dead = False
    service, presenter = await restart(store, clock)
    moved = service.table_in(SUPERGROUP)
    assert moved is not None and moved.id == t.id and service.table_in(GROUP) is None
    assert presenter.tables[SUPERGROUP.chat_id]  # the table message, in the supergroup
    await _finish_in(service, presenter, SUPERGROUP)
    assert await player_balance_in(store, SUPERGROUP, CAROL) == 800  # the group's wallet
    assert await check_store(store) == []


async def test_a_chat_moving_while_storage_refuses_the_table_s_step_keeps_the_table() -> None:
    """The same with the table's step refused by storage (the move itself committed): the
    table follows the chat all the same (storage has it there) and posts its message there;
    it stayed at the old id, which no update comes from any more, so the supergroup's
    commands found no table."""
    store, clock = KillableStore(), Clock()
    service, presenter = new_service(store, clock)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    store.fail_next = 1
    assert await service.migrate_chat("telegram", GROUP.chat_id, SUPERGROUP.chat_id)
    assert service.table_in(SUPERGROUP) is t and service.table_in(GROUP) is None
    assert presenter.tables[SUPERGROUP.chat_id]
    await _finish_in(service, presenter, SUPERGROUP)
    assert await check_store(store) == []


async def player_balance_in(store: MemoryStore, chat: ChatRef, actor: Actor) -> int:
    """``actor``'s balance in the community of ``chat``."""
    community = await store.community(chat.platform, chat.community_id)
    p = await store.find_player(community.id, actor.user_id)
    assert p is not None
    return p.balance


async def test_case3_non_finite_settings_are_refused_and_nothing_is_saved(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = env
    for value in ("nan", "inf", "-inf"):
        reply = await service.settings(GROUP, ALICE, True, ["time_bank_seconds", value])
        assert reply.alert and "seconds from 0 to 3,600" in reply.text
    community = await store.community("telegram", "-100")
    assert "time_bank_seconds" not in community.settings.options
    assert math.isclose(community.settings.rule_options().time_bank_seconds, 60.0)


# -- case 4: Fantasyland belongs to the player, not to the seat -----------------------------
ALICE_STREETS = ["Qs Qh As Ad Ac", "Ks Kh 2c", "Kd 9s 3c", "9h 7h 4d", "5c 6d 8s"]
BOB_STREETS = ["2d 3d 4h 5h Th", "Jc Jd 6c", "7c 7d 8c", "Tc Td 8d", "2h 3h 4c"]
ALICE_PLAN: dict[str, Box | None] = {
    "Qs": Box.TOP, "Qh": Box.TOP, "As": Box.BOTTOM, "Ad": Box.BOTTOM, "Ac": Box.BOTTOM,
    "Ks": Box.MIDDLE, "Kh": Box.MIDDLE, "2c": None, "Kd": Box.MIDDLE, "9s": Box.BOTTOM,
    "3c": None, "9h": Box.BOTTOM, "7h": Box.MIDDLE, "4d": None, "5c": Box.TOP,
    "6d": Box.MIDDLE, "8s": None,
}  # fmt: skip


def stacked_decks() -> Any:
    head: list[Card] = []
    for a, b in zip(ALICE_STREETS, BOB_STREETS, strict=True):
        head += parse_cards(a) + parse_cards(b)
    queue = [head + [c for c in DECK if c not in set(head)]]
    rng = random.Random(3)
    return lambda: queue.pop(0) if queue else shuffled_deck(rng=rng)


async def stacked_table() -> tuple[MemoryStore, Clock, TableService, FakePresenter, LiveTable]:
    """Alice and Bob seated at a table dealt :func:`stacked_decks` (Alice's first hand earns
    Fantasyland by :data:`ALICE_PLAN`), the first hand dealt."""
    store, clock = MemoryStore(), Clock()
    service = TableService(
        store, clock=clock, next_hand_delay=5, timers=False, deck_source=stacked_decks()
    )
    presenter = FakePresenter()
    service.register(presenter)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    return store, clock, service, presenter, t


async def test_case4_fantasyland_is_forfeited_when_its_player_leaves() -> None:
    store, clock, service, _, t = await alice_earns_fantasyland(bob_times_out=False)
    assert t.match is not None and t.match.fantasyland == {0: 14}  # Alice earned it
    reply = await service.leave(GROUP, ALICE)  # between hands
    assert not reply.alert, reply.text
    assert t.match.fantasyland == {}
    assert not (await service.join(GROUP, CAROL)).alert
    carol = t.seat_of(CAROL.user_id)
    assert carol is not None and carol.seat == 0  # Alice's seat
    assert not (await service.ready(GROUP, CAROL)).alert
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2
    assert not any(t.hand.is_fantasyland(s) for s in t.hand.order)  # nobody plays Fantasyland
    assert all(len(t.hand.current_cards(s)) == 5 for s in t.hand.to_act)
    assert await check_store(store) == []


async def play_street_by_plan(
    service: TableService,
    presenter: FakePresenter,
    seat: int,
    actor: Actor,
    plan: dict[str, Box | None],
) -> None:
    """Place the acting player's street by ``plan`` (card → box; the card mapped to None is
    left over and discarded by Confirm), one press per card, then Confirm."""
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    while True:
        placed = {c for c, _ in t.hand.pending(seat)}
        presses = [decode(b.data) for b in presenter.last_private(actor.user_id).all_buttons()]
        place = next(
            (
                p
                for p in presses
                if isinstance(p, PlaceCard) and p.card not in placed and plan[p.card.text] is p.box
            ),
            None,
        )
        if place is None:
            break
        reply = await service.press(actor, encode(place))
        assert not reply.alert, reply.text
    confirm = next(p for p in presses if isinstance(p, ConfirmMove))
    reply = await service.press(actor, encode(confirm))
    assert not reply.alert, reply.text


# -- case 5: pending round points are settled before a stack leaves (R8.3) ------------------
@pytest.mark.parametrize("how", ["leave", "close"])
async def test_case5_settle_per_round_settles_the_round_before_a_stack_leaves(how: str) -> None:
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock, delay=5)
    reply = await service.settings(GROUP, ALICE, True, ["settle_per_round", "true"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.options.settle_per_round
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.match is not None
    pending = t.match.round_pairs
    assert pending and pending[0][2] != 0  # points owed, nothing settled yet
    assert all(s.stack == 200 for s in t.seats.values())
    points = {0: 0, 1: 0}
    for a, b, p in pending:
        points[a] += p
        points[b] -= p
    if how == "leave":
        reply = await service.leave(GROUP, ALICE)
        assert not reply.alert
    else:
        reply = await service.close_table(GROUP, ALICE, True)
        assert not reply.alert and service.table_in(GROUP) is None
    assert await player_balance(store, ALICE) == 800 + 200 + points[0]
    if how == "leave":
        bob = t.seat_of(BOB.user_id)
        assert bob is not None and bob.stack == 200 + points[1]
        assert (await store.stacks(t.id)) == {bob.player_id: 200 + points[1]}
    else:
        assert await player_balance(store, BOB) == 1000 + points[1]
    hands = await store.export_hands(t.id)
    assert [h["result"].get("round_end", False) for h in hands] == [False, True]
    assert any("settled early" in text for _, text in presenter.posts)
    assert await check_store(store) == []


async def test_r8_3_round_points_a_stack_cannot_cover_are_settled_after_the_hand() -> None:
    """settle_per_round (R8.3, seed 001): the round is two matches long, but the first hand's
    points at 150 kush a point are more than the loser's stack of 200: they are settled at
    once (capped, R8.4) with the hand, not left owed until the round ends."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock, delay=5)
    for name, value in (("settle_per_round", "true"), ("kush_per_point", "150")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.match is not None
    assert t.match.round_pairs == () and t.match.matches == 1  # settled, the round goes on
    # seat 0 won 4 points (600 kush) from seat 1, which had 200
    assert {s: st.stack for s, st in t.seats.items()} == {0: 400, 1: 0}
    hands = await store.export_hands(t.id)
    assert [h["result"]["kush"] for h in hands] == [{"0": 200, "1": -200}]
    assert await check_store(store) == []


@pytest.mark.parametrize(("name", "value"), [("settle_per_round", "off"), ("kush_per_point", "3")])
async def test_r8_3_round_points_owed_are_settled_before_new_options_apply(
    name: str, value: str
) -> None:
    """settle_per_round (R8.3): the first hand of a two-match round leaves its points owed;
    an admin changes the table's options before the next deal (they apply between matches).
    Turning settle_per_round off dropped the owed points for good (nobody ever paid them),
    and a new kush_per_point settled them at the new rate at the end of the round. They are
    settled at once, at the rate they were played for, before the new options apply."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock, delay=5)
    reply = await service.settings(GROUP, ALICE, True, ["settle_per_round", "true"])
    assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB)
    assert t is not None
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is None and t.match is not None
    pending = t.match.round_pairs
    assert pending and pending[0][2] != 0  # points owed, nothing settled yet
    points = {0: 0, 1: 0}
    for a, b, p in pending:
        points[a] += p
        points[b] -= p
    reply = await service.settings(GROUP, ALICE, True, [name, value])
    assert not reply.alert, reply.text
    assert t.match.round_pairs == ()
    assert {s: st.stack for s, st in t.seats.items()} == {0: 200 + points[0], 1: 200 + points[1]}
    hands = await store.export_hands(t.id)
    assert [h["result"]["kush"] for h in hands] == [
        {},
        {"0": points[0], "1": points[1]},
    ]
    assert hands[1]["result"].get("round_end") is True
    assert any("settled early (new table settings)" in text for _, text in presenter.posts)
    assert await check_store(store) == []


@pytest.mark.parametrize("who", ["person", "computer player"])
async def test_case5_a_stack_not_in_the_hand_leaves_after_it_when_round_points_are_owed(
    who: str,
) -> None:
    """settle_per_round (R8.3): Carol played the round's first hand, then sits out (R8.6) or,
    as a computer player, is stood up with /removebot, while Alice and Bob play the second.
    Her round points must be settled before her stack leaves, and a settlement of its own in
    the middle of a hand took the hand's number: the hand's buttons all went out of date
    and its own settlement was refused (the same number twice), so the hand never ended.
    She now leaves when the hand ends, her points settled with the round."""
    store, clock = MemoryStore(), Clock()
    service, presenter = new_service(store, clock, delay=5)
    reply = await service.settings(GROUP, ALICE, True, ["settle_per_round", "true"])
    assert not reply.alert, reply.text
    await service.new_table(GROUP, ALICE)
    if who == "person":
        players = [ALICE, BOB, CAROL]
    else:
        await service.add_bot(GROUP, ALICE, True, "easy")
        players = [ALICE, BOB]
    for a in players:
        await service.join(GROUP, a)
    for a in players:
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and len(t.hand.order) == 3
    carol = next(s for s in t.seats.values() if s.user_id not in (ALICE.user_id, BOB.user_id))
    by_id = {a.user_id: a for a in players}
    while t.hand is not None and t.hand_no == 1:
        seat = t.seats[t.owner(t.hand.to_act[0])]
        if seat.bot:
            clock.now = t.bot_due or clock.now
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, by_id[seat.user_id])
    assert t.match is not None and t.match.round_pairs  # owed, not settled
    owed = sum(
        p if a == carol.seat else -p for a, b, p in t.match.round_pairs if carol.seat in (a, b)
    )
    if who == "person":
        assert not (await service.sit_out(GROUP, CAROL)).alert
    else:
        carol.sitting_out = True  # as after a timeout (R8.6)
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and carol.seat not in t.hand.order
    if who == "person":
        reply = await service.leave(GROUP, CAROL)
    else:
        reply = await service.remove_bot(GROUP, ALICE, True)
    assert not reply.alert, reply.text
    await play_out(service, presenter, [ALICE, BOB])  # every button of the hand works
    assert t.seat_of(carol.user_id) is None  # gone after the hand
    hands = await store.export_hands(t.id)
    assert [h["number"] for h in hands] == sorted({h["number"] for h in hands})
    moved = sum(int(h["result"].get("kush", {}).get(str(carol.seat), 0)) for h in hands)
    assert moved == owed  # her points of the round, settled before she left
    assert sum(s.stack for s in t.seats.values()) == 400 - moved
    assert await check_store(store) == []
    if who == "person" and moved:
        # her /stats and /history count that kush, and only the hand she was dealt in
        lines = (await service.stats(GROUP, CAROL, ["me"])).text.splitlines()
        assert f"{moved:+d}" in lines[-1] and lines[1].startswith(("Hands: 1 ", "Раздач: 1 ")), (
            lines
        )
        history = (await service.history(GROUP, CAROL)).text
        assert f"{moved:+d}" in history and "#2" in history, history


# -- settings saved for the group that a table's step did not take ----------------------------
async def test_a_crash_between_saving_settings_and_the_table_taking_them_is_made_good() -> None:
    """An admin raises kush_per_point mid-hand: the group's settings are saved, then the
    process dies at the table's step that takes them. The restarted table took them only at
    the next change of settings (hands went on at 1 kush a point); now it takes them as the
    change would have: pending during the hand, from the next hand on."""
    store, clock = KillableStore(), Clock()
    service, presenter = new_service(store, clock)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None and t.options.kush_per_point == 1
    store.kill_at, store.kill_after = store.commits + 1, False
    with pytest.raises(Killed):
        await service.settings(GROUP, ALICE, True, ["kush_per_point", "5"])
    store.dead = False
    community = await store.community("telegram", "-100")
    assert community.settings.rule_options().kush_per_point == 5  # saved before the kill
    service, presenter = await restart(store, clock)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.hand_no == 1
    assert t.options.kush_per_point == 1  # the hand in progress finishes at its rate
    assert t.pending_options is not None and t.pending_options.kush_per_point == 5
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is not None and t.hand_no == 2 and t.options.kush_per_point == 5
    await play_out(service, presenter, [ALICE, BOB])
    hands = await store.export_hands(t.id)
    second = [int(d) for d in hands[1]["result"]["kush"].values()]
    assert any(second) and all(d % 5 == 0 for d in second)  # the second hand at 5 a point
    assert await check_store(store) == []


async def test_a_lobby_restarted_after_a_crash_takes_the_saved_buy_in_at_once() -> None:
    """No hand runs (a lobby): the saved min_buy_in, label and language apply when the
    restarted table resumes, as they would have in the step the crash cut off; Ready takes
    the new buy-in."""
    store, clock = KillableStore(), Clock()
    service, presenter = new_service(store, clock)
    await service.new_table(GROUP, ALICE)
    await service.join(GROUP, ALICE)
    for name, value in (("min_buy_in", "300"), ("kush_label", "coins"), ("language", "ru")):
        store.kill_at, store.kill_after = store.commits + 1, False
        with pytest.raises(Killed):
            await service.settings(GROUP, ALICE, True, [name, value])
        store.dead = False
        service, presenter = await restart(store, clock)
    t = service.table_in(GROUP)
    assert t is not None and t.hand is None
    assert (t.min_buy_in, t.label, t.lang, t.pending_buy_in) == (300, "coins", "ru", None)
    lobby = presenter.last_table(GROUP.chat_id).text
    assert tr("ru", "lobby.title", game=tr("ru", "game.pineapple"), table=t.id, buy_in=300,
              point=1, label="coins", players="2–3") in lobby  # fmt: skip
    assert not (await service.ready(GROUP, ALICE)).alert
    assert await player_balance(store, ALICE) == 700
    assert await check_store(store) == []


async def test_a_table_whose_step_storage_refuses_takes_the_settings_from_its_next_step() -> None:
    """The group's settings are saved but storage refuses the table's step that takes them:
    the table kept its old options for good (until the next change of settings). It keeps
    them pending now, commits them with its next step and plays the next hand by them."""
    store, clock = KillableStore(), Clock()
    service, presenter = new_service(store, clock)
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    store.fail_next = 1
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "5"])
    assert not reply.alert, reply.text  # saved for the group
    assert t.options.kush_per_point == 1
    assert t.pending_options is not None and t.pending_options.kush_per_point == 5
    await play_out(service, presenter, [ALICE, BOB])
    assert t.hand is not None and t.hand_no == 2 and t.options.kush_per_point == 5
    service, presenter = await restart(store, clock)  # committed with those steps
    t2 = service.table_in(GROUP)
    assert t2 is not None and t2.options.kush_per_point == 5 and t2.pending_options is None
    assert await check_store(store) == []


async def _tournament_of_two(store: KillableStore, clock: Clock) -> tuple[TableService, LiveTable]:
    """A service on ``store`` with a Pineapple tournament Alice opened, she and Bob
    registered (its lobby)."""
    service, _ = new_service(store, clock)
    assert not (await service.new_tournament(GROUP, ALICE, "pineapple")).alert
    for a in (ALICE, BOB):
        assert not (await service.join(GROUP, a)).alert
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    return service, t


async def test_r8_7_a_restarted_tournament_keeps_its_own_buy_in_and_options() -> None:
    """The restart's catching up with the group's settings leaves tournament tables alone:
    their buy-in and options were fixed when they opened (R8.7)."""
    store, clock = KillableStore(), Clock()
    service, t = await _tournament_of_two(store, clock)
    options, buy_in = t.options, t.min_buy_in
    community = await store.community("telegram", "-100")
    s = community.settings
    for name, value in (("min_buy_in", "300"), ("hand_seconds", "30"), ("kush_per_point", "5")):
        s = settings_mod.updated(s, name, value)
    await store.update_settings(community.id, s)  # saved; the tables never told (a crash)
    service, _ = await restart(store, clock)
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    assert (t.options, t.min_buy_in, t.pending_options, t.pending_buy_in) == (
        options,
        buy_in,
        None,
        None,
    )
    assert buy_in == t.tournament.config.buy_in != 300


async def test_r8_7_an_open_tournament_keeps_its_options_when_the_admins_change_them() -> None:
    """A settings change while a tournament is open reaches its table's label and language but
    not its options and buy-in, as on a restart: they were fixed when it opened (R8.7)."""
    store, clock = KillableStore(), Clock()
    service, t = await _tournament_of_two(store, clock)
    options, buy_in = t.options, t.min_buy_in
    for name, value in (("min_buy_in", "300"), ("hand_seconds", "30"), ("kush_label", "coins")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    assert (t.options, t.min_buy_in, t.pending_options, t.pending_buy_in) == (
        options,
        buy_in,
        None,
        None,
    )
    assert t.label == "coins"
    assert options.hand_seconds != 30


# -- a sweep: the service "killed" before and after every commit, restarted, finished -------
async def _drive(
    service: TableService, presenter: FakePresenter, clock: Clock, leave: bool
) -> None:
    """From whatever state the table is in, play until the first hand is settled and the next
    one is dealt (with ``leave``: Alice leaves after the first hand and Carol takes over)."""
    players = [ALICE, BOB]
    if service.table_in(GROUP) is None:
        await service.new_table(GROUP, ALICE)
    t = service.table_in(GROUP)
    assert t is not None
    for _ in range(200):
        hands = await service.store.export_hands(t.id)
        if leave and hands and t.seat_of(ALICE.user_id) is not None and t.hand is None:
            assert not (await service.leave(GROUP, ALICE)).alert
            players = [CAROL, BOB]
        elif leave and hands:
            players = [CAROL, BOB] if t.seat_of(ALICE.user_id) is None else [ALICE, BOB]
        if t.hand is not None and t.hand_no > (2 if leave else 1):
            return
        for a in players:
            seat = t.seat_of(a.user_id)
            if seat is None:
                assert not (await service.join(GROUP, a)).alert
            elif not seat.ready:
                assert not (await service.ready(GROUP, a)).alert
        if t.hand is not None:
            acting = t.seats[t.hand.to_act[0]]
            actor = next(a for a in (ALICE, BOB, CAROL) if a.user_id == acting.user_id)
            await press_auto_and_confirm(service, presenter, actor)
        else:
            clock.now += 5
            await service.run_due()
    raise AssertionError("the table never reached its next hand")


@pytest.mark.parametrize("leave", [False, True], ids=["pineapple", "per-round-leave"])
async def test_a_crash_at_any_commit_boundary_settles_every_hand_once(leave: bool) -> None:
    async def run(kill_at: int | None, after: bool) -> tuple[KillableStore, int, set[str]]:
        store, clock = KillableStore(), Clock()
        service, presenter = new_service(store, clock, delay=5)
        if leave:
            await service.settings(GROUP, ALICE, True, ["settle_per_round", "true"])
        store.kill_at, store.kill_after = kill_at, after
        presenters = [presenter]
        try:
            await _drive(service, presenter, clock, leave)
        except Killed:
            store.dead = False
            service, presenter = await restart(store, clock, delay=5)
            presenters.append(presenter)
            await _drive(service, presenter, clock, leave)
        t = service.table_in(GROUP)
        assert t is not None
        # stacks shown are the stored ones; every buy-in belongs to one seating
        assert await store.stacks(t.id) == {
            s.player_id: s.stack for s in t.seats.values() if s.ready
        }
        shown = {
            s.text
            for p in presenters
            for s in p.tables.get(GROUP.chat_id, [])
            if s.text.startswith("🏁")
        }
        return store, store.commits, shown

    _, total, _ = await run(None, True)
    assert total > 10
    for k in range(1, total + 1):
        for after in (False, True):
            store, _, shown = await run(k, after)
            community = await store.community("telegram", "-100")
            tables = [t for t in store._tables.values() if t.community_id == community.id]
            hands = [h for t in tables for h in await store.export_hands(t.id)]
            played = [h for h in hands if not h["result"].get("round_end")]
            assert len(played) == 1, (k, after)
            assert len(hands) - len(played) == (1 if leave else 0), (k, after)  # R8.3
            numbers = [(h["table_id"], h["number"]) for h in hands]
            assert len(numbers) == len(set(numbers)), (k, after)  # settled exactly once
            assert len({text.split("\n")[0] for text in shown}) == len(shown), (k, after)
            assert buy_ins_ok(await store.ledger(community.id)), (k, after)
            assert await check_store(store) == [], (k, after)


async def alice_earns_fantasyland(
    bob_times_out: bool,
) -> tuple[MemoryStore, Clock, TableService, FakePresenter, LiveTable]:
    """:func:`stacked_table`'s first hand played out: Alice by :data:`ALICE_PLAN` (she earns
    Fantasyland), Bob by "Arrange for me", or (``bob_times_out``) by his time running out on
    every street (R8.5: budget and bank)."""
    store, clock, service, presenter, t = await stacked_table()
    assert t.hand is not None
    hand = t.hand
    while t.hand is hand:
        seat = hand.to_act[0]
        if t.seats[seat].user_id == ALICE.user_id:
            await play_street_by_plan(service, presenter, seat, ALICE, ALICE_PLAN)
        elif bob_times_out:
            clock.now += 181  # the budget (120 s) and the bank (60 s) run out
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, BOB)
    return store, clock, service, presenter, t


async def play_fantasyland_hand(
    service: TableService, presenter: FakePresenter, clock: Clock, t: LiveTable
) -> None:
    """After :func:`alice_earns_fantasyland`: hand 2, Alice's Fantasyland hand (R6.3), is
    dealt and both play it by "Arrange for me"."""
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and t.hand.is_fantasyland(0)
    while t.hand is not None and t.hand_no == 2:
        actor = ALICE if t.seats[t.owner(t.hand.to_act[0])].user_id == ALICE.user_id else BOB
        await press_auto_and_confirm(service, presenter, actor)


async def test_r8_6_back_before_the_match_ends_cancels_the_sit_out_a_timeout_set() -> None:
    """R8.6: Bob's time runs out in the hand where Alice makes Fantasyland; he is told he sits
    out after the Fantasyland hand, "/back to play again". He sends /back at once: it was
    refused ("You are not sitting out."), and he sat out after the Fantasyland hand he
    played all the same; now it cancels that sit-out, and his screen no longer promises it."""
    store, clock, service, presenter, t = await alice_earns_fantasyland(bob_times_out=True)
    assert t.match is not None and t.match.fantasyland == {0: 14}  # Alice earned it
    reply = await service.back(GROUP, BOB)
    assert (reply.text, reply.alert) == (tr("ru", "reply.back_before_sit_out"), False)
    over = tr("ru", "private.over", table=t.id, hand=1)
    assert presenter.last_private(BOB.user_id).text == over
    assert (await service.back(GROUP, BOB)).text == tr("ru", "reply.not_sitting_out")
    await play_fantasyland_hand(service, presenter, clock, t)
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.sitting_out
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 3 and len(t.hand.order) == 2  # Bob dealt in
    assert await check_store(store) == []


async def test_r6_6_sitting_out_with_a_fantasyland_earned_warns_it_goes_unplayed() -> None:
    """R6.6, R8.6: Alice earns Fantasyland and sends /sitout before the next deal: the
    Fantasyland hand would be dealt without her (her Fantasyland forfeited), which the answer
    now says; /back before the deal keeps it, and she plays it."""
    store, clock, service, _, t = await alice_earns_fantasyland(bob_times_out=False)
    assert t.hand is None and t.match is not None and t.match.fantasyland == {0: 14}
    reply = await service.sit_out(GROUP, ALICE)
    assert reply.text == tr("en", "reply.sitout") + "\n" + tr("en", "reply.sitout_fantasyland")
    bob = await service.sit_out(GROUP, BOB)  # (Bob has no Fantasyland: nothing to lose)
    assert bob.text == tr("ru", "reply.sitout")
    assert not (await service.back(GROUP, ALICE)).alert
    assert not (await service.back(GROUP, BOB)).alert
    clock.now += 5
    await service.run_due()
    assert t.hand is not None and t.hand_no == 2 and t.hand.is_fantasyland(0)
    assert await check_store(store) == []


def buy_ins_ok(ledger: Sequence[Any]) -> bool:
    """Between a player's buy-in and their cash-out at a table there is no second buy-in."""
    seated: set[tuple[int | None, int]] = set()
    for e in ledger:
        key = (e.table_id, e.player_id)
        if e.kind is LedgerKind.BUY_IN:
            if key in seated:
                return False
            seated.add(key)
        elif e.kind in (LedgerKind.CASH_OUT, LedgerKind.REFUND):
            seated.discard(key)
    return True


async def test_r8_6_a_timeout_in_a_hand_that_earned_fantasyland_says_it_is_played_first() -> None:
    """R8.6: Bob's time runs out in the hand where Alice makes Fantasyland. His "Hand over"
    said nothing; after the Fantasyland hand, which he played, it said "⌛ Time ran out and
    your moves were made for you; you sit out", in a hand where his time never ran out. The
    first "Hand over" now says the Fantasyland hand comes first, with him, then he sits out;
    the one after it says he sits out."""
    store, clock, service, presenter, t = await alice_earns_fantasyland(bob_times_out=True)
    assert t.match is not None and t.match.fantasyland == {0: 14}  # Alice earned it
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.sitting_out  # not before the Fantasyland hand
    assert presenter.last_private(BOB.user_id).text == (  # Bob reads Russian
        tr("ru", "private.over", table=t.id, hand=1)
        + "\n"
        + tr("ru", "private.sitting_out_after_match")
    )
    over = tr("en", "private.over", table=t.id, hand=1)
    assert presenter.last_private(ALICE.user_id).text == over
    await play_fantasyland_hand(service, presenter, clock, t)
    assert bob.sitting_out
    assert presenter.last_private(BOB.user_id).text == (
        tr("ru", "private.over", table=t.id, hand=2) + "\n" + tr("ru", "private.sitting_out")
    )
    assert await check_store(store) == []
