"""Seventeenth break session: one player at two tables (two groups, or two channels of one
Discord server) and one private chat with the bot: which table a command or press sent in
private acts on, and whether the answer says so."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.model import Actor, ChatRef
from bot.service import TableService
from bot.texts import tr
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, dealt_at, press_auto_and_confirm

OTHER = ChatRef("telegram", "-1002", "-1002", "Others")


@dataclass
class Linked(FakePresenter):
    """A recording presenter whose table messages have links (a supergroup's)."""

    def message_link(self, community: str, chat_id: str, ref: str) -> str | None:
        return f"https://t.me/c/{chat_id.lstrip('-')}/{ref}"


def private_of(actor: Actor) -> ChatRef:
    return ChatRef(actor.platform, actor.user_id, actor.user_id, "", True)


async def test_r8_6_back_in_private_names_the_player_s_tables_and_their_groups() -> None:
    """Alice plays at #1 in "Friends" (with Bob) and at #2 in "Others" (with Carol). She sits
    out at #1 (as a timeout there sits her out, R8.6, whose private hand then ends "you sit
    out from the next hand on. /back to play again."). She types /back (and /sitout, /leave,
    /ready, /topup) in the private chat: the answer was only "This command works in a group
    chat.", naming neither table nor group (she plays in two). It names both, with their
    groups and links and where she sits out, and changes nothing: she still sits out at #1
    and plays at #2. Bob (Russian, one table) reads it in Russian; Dan, seated nowhere, gets
    the plain answer."""
    clock = Clock()
    store = MemoryStore()
    service = TableService(
        store, clock=clock, rng=random.Random(7), next_hand_delay=0, timers=False
    )
    presenter = Linked()
    service.register(presenter)
    try:
        first = await dealt_at(service, GROUP, (ALICE, BOB))
        second = await dealt_at(service, OTHER, (ALICE, CAROL))
        alice = first.seat_of(ALICE.user_id)
        assert alice is not None
        assert not (await service.sit_out(GROUP, ALICE)).alert  # (from the next hand on)
        replies = {
            name: await getattr(service, name)(private_of(ALICE), ALICE)
            for name in ("back", "sit_out", "leave", "ready", "top_up")
        }
        want = "\n".join(
            [
                tr("en", "reply.group_only_tables"),
                f"Table #{first.id} · Friends · you sit out",
                f"https://t.me/c/100/{first.group_ref}",
                f"Table #{second.id} · Others",
                f"https://t.me/c/1002/{second.group_ref}",
            ]
        )
        assert {name: (r.text, r.alert) for name, r in replies.items()} == {
            name: (want, True) for name in replies
        }
        assert alice.sitting_out and first.seat_of(ALICE.user_id) is alice
        assert second.seat_of(ALICE.user_id) is not None
        bob = await service.back(private_of(BOB), BOB)
        assert bob.text == "\n".join(
            [
                "Эта команда работает в групповом чате: отправьте её в группе вашего стола.",
                f"Стол #{first.id} · Friends",
                f"https://t.me/c/100/{first.group_ref}",
            ]
        )
        dan = Actor("telegram", "4", "Dan", "en")
        plain = await service.back(private_of(dan), dan)
        assert plain.text == "This command works in a group chat." and plain.alert
        assert await check_store(store) == []
    finally:
        await service.stop()


async def test_back_in_a_discord_dm_names_the_server_s_two_tables_by_their_channel() -> None:
    """Alice plays at two tables of one Discord server (two channels, one balance). ``/ofc
    back`` in her DM names both tables and says to send it in the table's channel (a
    Discord server has channels, not groups)."""
    service = TableService(MemoryStore(), rng=random.Random(7), next_hand_delay=0, timers=False)
    service.register(FakePresenter(platform="discord", link=None))
    alice, bob, carol = (
        Actor("discord", a.user_id, a.name, a.language) for a in (ALICE, BOB, CAROL)
    )
    try:
        one = await dealt_at(service, ChatRef("discord", "77", "701", ""), (alice, bob))
        two = await dealt_at(service, ChatRef("discord", "77", "702", ""), (alice, carol))
        reply = await service.back(ChatRef("discord", "", "dm-1", "", True), alice)
        assert reply.alert and reply.text == "\n".join(
            [
                "This command works in a server channel: send it in your table's channel.",
                f"Table #{one.id}",
                f"Table #{two.id}",
            ]
        )
    finally:
        await service.stop()


async def test_hand_in_private_sees_the_table_another_worker_serves() -> None:
    """Two workers on one database (issue 14): #1 ("Friends", Alice and Bob) is served by
    the first, #2 ("Others", Alice and Carol) by the second. A private message of Alice's
    is routed to the worker of her first table (:func:`bot.cluster.route_key`), whose
    ``/hand`` looked only at the tables it serves: it showed #1, where Bob is to move, while
    her move waits at #2 (the table ``/hand`` shows, as with one worker). It shows #2 now,
    read from that table's last committed state; with her move at #1 as well, #1 (served
    here, the lower number) as before."""
    store = MemoryStore()
    one = TableService(store, rng=random.Random(3), next_hand_delay=0, timers=False)
    two = TableService(store, rng=random.Random(3), next_hand_delay=0, timers=False)
    firsts, seconds = FakePresenter(), FakePresenter()
    one.register(firsts)
    two.register(seconds)
    try:
        first = await dealt_at(one, GROUP, (ALICE, BOB))
        second = await dealt_at(two, OTHER, (ALICE, CAROL))
        assert first.id < second.id and first.hand is not None and second.hand is not None
        if first.seats[first.owner(first.hand.to_act[0])].user_id == ALICE.user_id:
            await press_auto_and_confirm(one, firsts, ALICE)  # Bob's move at #1
        if second.seats[second.owner(second.hand.to_act[0])].user_id == CAROL.user_id:
            await press_auto_and_confirm(two, seconds, CAROL)  # Alice's move at #2
        assert first.seats[first.owner(first.hand.to_act[0])].user_id == BOB.user_id
        assert second.seats[second.owner(second.hand.to_act[0])].user_id == ALICE.user_id
        assert second.id not in one.rt.tables and first.id not in two.rt.tables
        reply = await one.hand_picture(private_of(ALICE), ALICE)
        assert reply.picture is not None
        assert reply.text.splitlines()[0] == f"Table #{second.id} · hand 1 · street 1"
        await press_auto_and_confirm(one, firsts, BOB)  # her move at #1 too: #1, served here
        reply = await one.hand_picture(private_of(ALICE), ALICE)
        assert reply.text.splitlines()[0] == f"Table #{first.id} · hand 1 · street 2"
        assert await check_store(store) == []
    finally:
        await one.stop()
        await two.stop()


async def test_back_in_private_names_the_table_another_worker_serves() -> None:
    """Two workers on one database (issue 14): Alice sits out at #2, served by the second;
    her /back in private reaches the first (the worker of her first table, #1): its answer
    names #2 as well, and that she sits out there, from #2's last committed state."""
    store = MemoryStore()
    one = TableService(store, rng=random.Random(3), next_hand_delay=0, timers=False)
    two = TableService(store, rng=random.Random(3), next_hand_delay=0, timers=False)
    one.register(Linked())
    two.register(Linked())
    try:
        first = await dealt_at(one, GROUP, (ALICE, BOB))
        second = await dealt_at(two, OTHER, (ALICE, CAROL))
        assert not (await two.sit_out(OTHER, ALICE)).alert
        reply = await one.back(private_of(ALICE), ALICE)
        assert reply.alert and reply.text == "\n".join(
            [
                tr("en", "reply.group_only_tables"),
                f"Table #{first.id} · Friends",
                f"https://t.me/c/100/{first.group_ref}",
                f"Table #{second.id} · Others · you sit out",
                f"https://t.me/c/1002/{second.group_ref}",
            ]
        )
        assert await check_store(store) == []
    finally:
        await one.stop()
        await two.stop()


async def test_a_bare_start_in_private_answers_about_every_table_of_the_player() -> None:
    """Alice sits at #1 ("Friends", dealt) and #2 ("Others", Carol not ready yet): a bare
    ``/start`` in private (as unblocking the bot sends) posts her hand of #1 anew and
    answered only "Your cards for table #1 are above.", not a word of #2. It answers about
    both, by number: then at #2 dealt as well, both hands posted and both named."""
    service = TableService(MemoryStore(), rng=random.Random(3), next_hand_delay=0, timers=False)
    presenter = FakePresenter()
    service.register(presenter)
    try:
        first = await dealt_at(service, GROUP, (ALICE, BOB))
        assert not (await service.new_table(OTHER, CAROL)).alert
        for a in (ALICE, CAROL):
            assert not (await service.join(OTHER, a)).alert
        second = service.table_in(OTHER)
        assert second is not None and second.hand is None
        reply = await service.private_start(ALICE, "")
        assert reply.text == "\n".join(
            [
                tr("en", "reply.private_linked", table=first.id),
                tr("en", "reply.private_seated", table=second.id),
            ]
        )
        for a in (ALICE, CAROL):
            assert not (await service.ready(OTHER, a)).alert
        assert second.hand is not None
        posted = len(presenter.privates[ALICE.user_id])
        reply = await service.private_start(ALICE, "")
        assert (
            reply.text == "Your cards for table #1 are above.\nYour cards for table #2 are above."
        )
        assert [s.table for s in presenter.privates[ALICE.user_id][posted:]] == [1, 2]
    finally:
        await service.stop()


async def test_a_bare_start_names_the_table_another_worker_serves_with_its_link() -> None:
    """Two workers on one database (issue 14): Alice's bare ``/start`` (unblocking the bot
    sends one) reaches the worker of her first table, #1, which posts that hand anew; her
    hand of #2, served by the other worker, it cannot post, and its answer did not mention
    #2. It names #2 with the link that opens its hand (``/start t2``, which reaches the
    worker serving it)."""
    store = MemoryStore()
    one = TableService(store, rng=random.Random(3), next_hand_delay=0, timers=False)
    two = TableService(store, rng=random.Random(3), next_hand_delay=0, timers=False)
    one.register(FakePresenter())
    two.register(FakePresenter())
    try:
        first = await dealt_at(one, GROUP, (ALICE, BOB))
        second = await dealt_at(two, OTHER, (ALICE, CAROL))
        reply = await one.private_start(ALICE, "")
        assert reply.text == "\n".join(
            [
                f"Your cards for table #{first.id} are above.",
                f"Your cards for table #{second.id}: https://t.me/ofc_test_bot?start=t{second.id}",
            ]
        )
    finally:
        await one.stop()
        await two.stop()
