"""Break-it (brk44) on kush under concurrency (R8.2, R8.7): a buy-in refused for a balance
that another step changes at that moment (a /grant, a buy-in at another table of the same
Discord server) answers with the balance it was refused for, or buys in once the balance
covers it; never "the buy-in is 200, you have 200". A top-up refused so names the balance its
own transaction read (fixtopup)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.model import Actor, ChatRef
from bot.service import TableService
from bot.texts import tr
from storage.api import InsufficientFunds
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_brkpg_storage import LostReplyStore, new_service
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm, seated
from tests.bot.test_transitions import player_balance_in


class MeanwhileStore(MemoryStore):
    """A memory store that runs ``before`` (once) as the next table step's commit starts,
    and ``refused`` (once) right after a commit is refused for a short balance: another
    step's write landing at that moment."""

    def __init__(self) -> None:
        super().__init__()
        self.before: Callable[[], Awaitable[Any]] | None = None
        self.refused: Callable[[], Awaitable[Any]] | None = None

    async def commit(self, *args: Any, **kwargs: Any) -> list[int]:  # type: ignore[override]
        before, self.before = self.before, None
        if before is not None:
            await before()
        try:
            return await super().commit(*args, **kwargs)
        except InsufficientFunds:
            refused, self.refused = self.refused, None
            if refused is not None:
                await refused()
            raise


def _service(store: MemoryStore, presenter: FakePresenter) -> TableService:
    service = TableService(
        store, clock=Clock(), rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(presenter)
    return service


async def _grant(store: MemoryStore, chat: ChatRef, who: Actor, amount: int, key: str) -> None:
    community = await store.community(chat.platform, chat.community_id)
    player = await store.find_player(community.id, who.user_id)
    assert player is not None
    await store.grant(community.id, player.id, amount, actor="admin", reason="", key=key)


async def test_r8_2_ready_refused_as_a_grant_lands_buys_in_with_the_grant() -> None:
    """Alice (0 kush) presses Ready as an admin's /grant of 200 lands: the buy-in was refused
    for the balance before the grant, and the refusal read the balance after it: "Not enough
    kush: the buy-in is 200, you have 200.", Ready not taken. The balance covers it now: the
    buy-in is made."""
    store = MeanwhileStore()
    service = _service(store, FakePresenter())
    try:
        assert not (await service.new_table(GROUP, BOB)).alert
        for a in (ALICE, BOB):
            assert not (await service.join(GROUP, a)).alert
        await _grant(store, GROUP, ALICE, -1000, "take")
        store.refused = lambda: _grant(store, GROUP, ALICE, 200, "give")
        reply = await service.ready(GROUP, ALICE)
        assert (reply.alert, reply.text) == (
            False,
            tr("en", "reply.ready", amount=200, label="kush"),
        )
        t = service.table_in(GROUP)
        assert t is not None
        seat = t.seat_of(ALICE.user_id)
        assert seat is not None and seat.ready and seat.stack == 200
        assert await player_balance_in(store, GROUP, ALICE) == 0
        assert (await store.stacks(t.id))[seat.player_id] == 200
        await assert_conserved(store)
    finally:
        await service.stop()


CHAN1 = ChatRef("discord", "guild", "c1", "one")
CHAN2 = ChatRef("discord", "guild", "c2", "two")
DALICE = Actor("discord", "11", "Alice", "en")
DBOB = Actor("discord", "12", "Bob", "en")


async def test_r8_7_register_refused_as_another_buy_in_lands_names_the_balance_left() -> None:
    """Alice (50 kush on the server) registers for a tournament of 33 as another step takes
    40 of her balance (her buy-in at the server's other table, landing first): refused, and
    the refusal named the balance read before (50), as if 50 could not pay 33. It names the
    10 she has."""
    store = MeanwhileStore()
    service = _service(store, FakePresenter("discord", None))
    try:
        reply = await service.settings(CHAN1, DBOB, True, ["tournament_buy_in", "33"])
        assert not reply.alert, reply.text
        assert not (await service.new_tournament(CHAN1, DBOB, "pineapple")).alert
        assert not (await service.join(CHAN1, DBOB)).alert
        assert not (await service.join(CHAN1, DALICE)).alert
        assert not (await service.leave(CHAN1, DALICE)).alert  # (her wallet: 1000 again)
        await _grant(store, CHAN1, DALICE, -950, "take")  # 50
        store.before = lambda: _grant(store, CHAN1, DALICE, -40, "other table")
        reply = await service.join(CHAN1, DALICE)
        assert reply.alert
        assert reply.text.split("\n")[0] == tr(
            "en", "reply.no_money", label="kush", need=33, have=10
        )
        assert await player_balance_in(store, CHAN1, DALICE) == 10
        await assert_conserved(store)
    finally:
        await service.stop()


async def test_r8_2a_newtable_while_the_chat_s_table_is_served_again_changes_nothing() -> None:
    """Alice's Ready was saved but answered with an error, and storage could not be read for
    a while: found saved at Bob's third Ready, the table is let go and served again from
    storage in the background. A /newtable at that moment found no table here, storage
    refused a second one in the chat, and the error escaped the service (the adapter's
    "something went wrong", logged as a failure). It is "nothing changed, try again", and
    the table, served again, is the chat's one table with Alice's buy-in once."""
    store, clock = LostReplyStore(), Clock()
    service, _ = new_service(store, clock)
    try:
        assert not (await service.new_table(GROUP, ALICE)).alert
        for a in (ALICE, BOB, CAROL):
            assert not (await service.join(GROUP, a)).alert
        store.lose, store.blind = 1, 3
        for a in (ALICE, BOB, BOB, BOB):
            reply = await service.ready(GROUP, a)
            assert reply.alert and reply.text == tr(a.language, "err.storage"), reply.text
        assert service.table_in(GROUP) is None and service.rt.renewing  # (served again soon)
        reply = await service.new_tournament(GROUP, CAROL)
        assert reply.alert and reply.text == tr("en", "err.storage"), reply.text
        await service.rt.drain()
        t = service.table_in(GROUP)
        assert t is not None and t.tournament is None
        alice = t.seat_of(ALICE.user_id)
        assert alice is not None and alice.ready and alice.stack == 200
        assert await store.stacks(t.id) == {alice.player_id: 200}
        community = await store.community(GROUP.platform, GROUP.community_id)
        assert [r.id for r in await store.open_tables(community.id)] == [t.id]
        await assert_conserved(store)
    finally:
        await service.stop()


async def test_r8_2_top_up_refused_between_two_writes_names_the_balance_it_was_refused_for() -> (
    None
):
    """Alice (800 kush, 200 at the table) asks /topup 300 between hands: as its commit
    starts, her buy-in at another table takes 700 (100 left), so the top-up is refused; then
    an admin's /grant of 500 lands before the refusal is written. The refusal read the
    balance after the grant: "Not enough kush for a top-up of 300: you have 600." It names
    the 100 the step was refused for, read in the same transaction (fixtopup)."""
    store = MeanwhileStore()
    service = _service(store, FakePresenter())
    try:
        assert not (await service.new_table(GROUP, BOB)).alert
        for a in (ALICE, BOB):
            assert not (await service.join(GROUP, a)).alert
        assert not (await service.ready(GROUP, ALICE)).alert  # (Bob not ready: no deal)
        assert await player_balance_in(store, GROUP, ALICE) == 800
        store.before = lambda: _grant(store, GROUP, ALICE, -700, "other table")
        store.refused = lambda: _grant(store, GROUP, ALICE, 500, "give")
        reply = await service.top_up(GROUP, ALICE, "300")
        assert reply.alert
        assert reply.text.split("\n")[0] == tr(
            "en", "reply.topup_no_money", label="kush", need=300, have=100
        )
        t = service.table_in(GROUP)
        assert t is not None
        seat = t.seat_of(ALICE.user_id)
        assert seat is not None and seat.stack == 200 and not seat.topped_up
        assert await player_balance_in(store, GROUP, ALICE) == 600
        assert (await store.stacks(t.id))[seat.player_id] == 200
        await assert_conserved(store)
    finally:
        await service.stop()


async def test_r8_2_queued_top_up_refused_between_two_writes_names_its_refused_balance() -> None:
    """Alice queues /topup 300 during the hand (800 kush on her balance). As the hand ends and
    the top-up's commit starts, her buy-in at another table takes all 800, so it is refused;
    then an admin's /grant of 500 lands. The group was told "top-up of 300 not made, the
    balance has 500" (read after the grant): it names the 0 the step was refused for."""
    store, presenter = MeanwhileStore(), FakePresenter()
    service = _service(store, presenter)
    try:
        t = await seated(service, ALICE, BOB)
        assert t is not None and t.hand is not None
        reply = await service.top_up(GROUP, ALICE, "300")
        assert reply.text == tr("en", "reply.topup_queued", amount=300, label="kush")
        while t.hand is not None and t.hand_no == 1:
            to_act = t.seats[t.hand.to_act[0]]
            await press_auto_and_confirm(service, presenter, ALICE if to_act is t.seats[0] else BOB)
        assert t.seats[0].top_up == 300 and t.top_ups_due()
        store.before = lambda: _grant(store, GROUP, ALICE, -800, "other table")
        store.refused = lambda: _grant(store, GROUP, ALICE, 500, "give")
        await service.run_due()
        said = tr("en", "lobby.topup_failed", name="Alice", amount=300, label="kush", have=0)
        assert [p for p in presenter.posts if "top-up" in p[1]] == [(GROUP.chat_id, said)]
        assert t.seats[0].top_up == 0
        assert await player_balance_in(store, GROUP, ALICE) == 500
        await assert_conserved(store)
    finally:
        await service.stop()
