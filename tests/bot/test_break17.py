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
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, dealt_at

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
