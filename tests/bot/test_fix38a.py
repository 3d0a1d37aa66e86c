"""fix38a: leftovers of the kush and tournament review. A Ready or a tournament's Register
refused for a short balance names the balance the refusing transaction read (R8.2, R8.7), as
a top-up's refusal does, not one read after it (a /grant landing meanwhile). A player an
admin's /kick unregisters from a tournament is told in private."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.model import Actor, ChatRef, LiveTable
from bot.service import TableService
from bot.texts import tr
from storage.api import InsufficientFunds
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.conftest import Clock
from tests.bot.fakes import FakePresenter
from tests.bot.money import assert_conserved
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.bot.test_transitions import (
    KillableStore,
    new_service,
    player_balance_in,
    told_once_after_a_crash,
)

Hook = Callable[[], Awaitable[Any]]

TG = ChatRef("telegram", "-100", "-100", "Friends")
DC = ChatRef("discord", "guild", "c1", "one")


class MeanwhileStore(MemoryStore):
    """A memory store that runs the next of ``before`` as each table step's commit starts,
    and the next of ``refused`` right after a commit is refused for a short balance: other
    steps' writes landing at those moments (the first Ready or Register refused, its try
    again refused too)."""

    def __init__(self) -> None:
        super().__init__()
        self.before: list[Hook] = []
        self.refused: list[Hook] = []

    async def commit(self, *args: Any, **kwargs: Any) -> list[int]:  # type: ignore[override]
        if self.before:
            await self.before.pop(0)()
        try:
            return await super().commit(*args, **kwargs)
        except InsufficientFunds:
            if self.refused:
                await self.refused.pop(0)()
            raise


def _service(store: MemoryStore, platform: str) -> TableService:
    service = TableService(
        store, clock=Clock(), rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter(platform, None) if platform == "discord" else FakePresenter())
    return service


def _grant(store: MemoryStore, chat: ChatRef, who: Actor, amount: int, key: str) -> Hook:
    async def grant() -> None:
        community = await store.community(chat.platform, chat.community_id)
        player = await store.find_player(community.id, who.user_id)
        assert player is not None
        await store.grant(community.id, player.id, amount, actor="admin", reason="", key=key)

    return grant


async def _nothing() -> None:
    """The first try's commit: nothing lands before it."""


def _actors(chat: ChatRef, lang: str) -> tuple[Actor, Actor]:
    return Actor(chat.platform, "11", "Alice", lang), Actor(chat.platform, "12", "Bob", "en")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("chat", [TG, DC], ids=["telegram", "discord"])
async def test_r8_2_ready_refused_twice_names_the_balance_its_transaction_read(
    chat: ChatRef, lang: str
) -> None:
    """Alice (0 kush) presses Ready (a buy-in of 200): refused, and a /grant of 200 lands,
    so it is tried again; as that try commits, her buy-in at another table takes 150 (50
    left): refused again, and a /grant of 500 lands. The refusal read the balance after it:
    "the buy-in is 200, you have 550", a balance that would have paid it. It names the 50
    the refusing transaction read."""
    store = MeanwhileStore()
    service = _service(store, chat.platform)
    alice, bob = _actors(chat, lang)
    try:
        assert not (await service.new_table(chat, bob)).alert
        for a in (alice, bob):
            assert not (await service.join(chat, a)).alert
        await _grant(store, chat, alice, -1000, "take")()
        store.before = [
            _nothing,
            _grant(store, chat, alice, -150, "other table"),
        ]
        store.refused = [_grant(store, chat, alice, 200, "give"),
                         _grant(store, chat, alice, 500, "give more")]  # fmt: skip
        reply = await service.ready(chat, alice)
        assert reply.alert
        assert reply.text.split("\n")[0] == tr(
            lang, "reply.no_money", label="kush", need=200, have=50
        )
        t = service.table_in(chat)
        assert t is not None
        seat = t.seat_of(alice.user_id)
        assert seat is not None and not seat.ready and seat.stack == 0
        assert await player_balance_in(store, chat, alice) == 550
        assert seat.player_id not in await store.stacks(t.id)
        assert not store.before and not store.refused
        await assert_conserved(store)
    finally:
        await service.stop()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("chat", [TG, DC], ids=["telegram", "discord"])
async def test_r8_7_register_refused_twice_names_the_balance_its_transaction_read(
    chat: ChatRef, lang: str
) -> None:
    """Alice (50 kush) registers for a tournament of 33 as her buy-in at another table takes
    the 50: refused, and a /grant of 40 lands, so it is tried again; as that try commits,
    another buy-in of hers takes 30 (10 left): refused again, and a /grant of 500 lands. The
    refusal named 510, which pays 33; it names the 10 the refusing transaction read."""
    store = MeanwhileStore()
    service = _service(store, chat.platform)
    alice, bob = _actors(chat, lang)
    try:
        reply = await service.settings(chat, bob, True, ["tournament_buy_in", "33"])
        assert not reply.alert, reply.text
        assert not (await service.new_tournament(chat, bob, "pineapple")).alert
        assert not (await service.join(chat, bob)).alert
        assert not (await service.join(chat, alice)).alert
        assert not (await service.leave(chat, alice)).alert  # (her wallet: 1000 again)
        await _grant(store, chat, alice, -950, "take")()
        store.before = [
            _grant(store, chat, alice, -50, "first table"),
            _grant(store, chat, alice, -30, "other table"),
        ]
        store.refused = [_grant(store, chat, alice, 40, "give"),
                         _grant(store, chat, alice, 500, "give more")]  # fmt: skip
        reply = await service.join(chat, alice)
        assert reply.alert
        assert reply.text.split("\n")[0] == tr(
            lang, "reply.no_money", label="kush", need=33, have=10
        )
        t = service.table_in(chat)
        assert t is not None and t.tournament is not None
        assert t.seat_of(alice.user_id) is None
        assert await player_balance_in(store, chat, alice) == 510
        assert not store.before and not store.refused
        await assert_conserved(store)
    finally:
        await service.stop()


# /kick at a tournament still registering (R8.7): the player it unregisters is told in private


async def _registering(service: TableService, chat: ChatRef, alice: Actor, bob: Actor) -> LiveTable:
    """Alice opens a tournament (buy-in 100) in ``chat``; she and Bob register."""
    assert not (await service.new_tournament(chat, alice, "pineapple")).alert
    for a in (alice, bob):
        assert not (await service.join(chat, a)).alert
    t = service.table_in(chat)
    assert t is not None and t.tournament is not None
    return t


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("chat", [TG, DC], ids=["telegram", "discord"])
async def test_r8_7_a_player_kicked_from_a_tournament_is_told_in_private(
    chat: ChatRef, lang: str
) -> None:
    """An admin's /kick unregisters Bob from a tournament still registering, his buy-in
    back: the group read the notice, Bob, who may not read the group, was told nothing.
    Now a private message of his own says so (once, in the table's language)."""
    store = MemoryStore()
    service = _service(store, chat.platform)
    presenter = service.rt.presenters[chat.platform]
    assert isinstance(presenter, FakePresenter)
    alice = Actor(chat.platform, "11", "Alice", "en")
    bob = Actor(chat.platform, "12", "Bob", lang)
    try:
        reply = await service.settings(chat, alice, True, ["language", lang])
        assert not reply.alert, reply.text
        t = await _registering(service, chat, alice, bob)
        before = len(presenter.privates.get(bob.user_id, []))
        reply = await service.kick(chat, alice, True, "Bob")
        assert not reply.alert, reply.text
        await service.rt.settled(t)
        told = [s.text for s in presenter.privates.get(bob.user_id, [])[before:]]
        said = tr(lang, "private.kicked_unregistered", table=t.id, amount=100, label="kush")
        assert told == [said]
        assert t.seat_of(bob.user_id) is None
        assert said in (
            f"An admin withdrew you from tournament #{t.id}; your buy-in, 100 kush, is back "
            "on your balance.",
            f"Ваша регистрация в турнире #{t.id} снята админом; взнос 100 кушей возвращён на "
            "баланс.",
        )
        assert not any(said in text for _, text in presenter.posts)  # (not in the group)
        await assert_conserved(store)
    finally:
        await service.stop()


async def test_r8_7_a_kicked_player_s_notice_is_sent_after_a_crash_once() -> None:
    """The process dies right after the kick's commit, before anything is sent: the
    restarted bot tells Bob (his notice is kept with the table's snapshot until sent), and
    a second restart tells him nothing more."""
    store, clock = KillableStore(), Clock()
    service, _ = new_service(store, clock)
    t = await _registering(service, GROUP, ALICE, BOB)
    said = tr("ru", "private.kicked_unregistered", table=t.id, amount=100, label="kush")
    await told_once_after_a_crash(
        store, clock, lambda: service.kick(GROUP, ALICE, True, "Bob"), GROUP, BOB.user_id, said
    )


async def test_kick_s_help_and_description_say_it_unregisters_too() -> None:
    """/kick also unregisters a player from a tournament not started (R8.7), the buy-in
    back; Telegram's help and command menu and Discord's help and /ofcadmin kick
    description said only "stand a player up". Each says both now, in both languages, the
    two platforms alike."""
    from bot.discord.adapter import OfcAdminCommands
    from bot.telegram.adapter import COMMANDS
    from bot.texts import DISCORD_DESCRIPTIONS_RU

    service = _service(MemoryStore(), "telegram")
    said = {
        "en": "stand a player up (their stack back to their balance; mid-hand, after the "
        "hand), or unregister them from a tournament not started (the buy-in back)",
        "ru": "поднять игрока из-за стола (стек вернётся на баланс; в раздаче — после неё) "
        "или снять с регистрации в турнире до старта (взнос вернётся)",
    }
    try:
        for lang in ("en", "ru"):
            for chat, command in ((TG, "/kick @"), (DC, "/ofcadmin kick user")):
                actor = Actor(chat.platform, "11", "Alice", lang)
                lines = (await service.help(chat, actor)).text.splitlines()
                line = next(x for x in lines if x.startswith(command))
                assert line.endswith(f" — {said[lang]}"), line
    finally:
        await service.stop()
    kick = next(
        c for c in OfcAdminCommands.__discord_app_commands_group_children__ if c.name == "kick"
    )
    menu = "stand a player up, or unregister them from a tournament not started"
    assert kick.description == "Admins: " + menu
    ru = "поднять игрока из-за стола или снять с регистрации в турнире до старта"
    assert DISCORD_DESCRIPTIONS_RU[kick.description] == "Админам: " + ru
    assert ("kick", "admins: " + menu, "админам: " + ru) in COMMANDS
    assert tr("en", "reply.kick_usage").endswith(
        "stands a seated player up, or unregisters them from a tournament not started."
    )
    assert tr("ru", "reply.kick_usage").endswith(ru + ".")


async def test_a_kicked_tournament_player_is_told_through_telegram(tmp_path: Path) -> None:
    """The kick's private notice through the real python-telegram-bot and the fake Bot API:
    one message in Bob's private chat, in his language (Russian: no group language set)."""
    from tests.bot.tg_world import ALICE as TA
    from tests.bot.tg_world import BOB as TB
    from tests.bot.tg_world import GROUP_ID, world

    async with world(tmp_path) as w:
        w.fake.started_users.update({TA.id, TB.id})
        w.fake.admins[GROUP_ID] = {TA.id}
        await w.say(TA, "/tournament")
        for u in (TA, TB):
            await w.say(u, "/join")
        await w.settle()
        t = next(iter(w.service.tables.values()))
        assert t.seat_of(str(TB.id)) is not None
        reply = await w.say(TA, "/kick @bob")
        assert reply is not None and "withdrew" in reply["text"], reply
        await w.settle()
        said = tr("ru", "private.kicked_unregistered", table=t.id, amount=100, label="kush")
        dms = [m["text"] for (chat, _), m in w.fake.messages.items() if chat == TB.id]
        assert dms.count(said) == 1, dms
        assert await check_store(w.store) == []


async def test_a_kicked_tournament_player_is_told_through_discord(tmp_path: Path) -> None:
    """The same through discord.py and the fake Discord: one DM to Bob, in Russian."""
    from tests.bot.discord import dc_world

    a, b = dc_world.ALICE, dc_world.BOB
    async with dc_world.world(tmp_path) as w:
        await w.slash(a, "tournament", {"game": "pineapple"})
        for u in (a, b):
            await w.slash(u, "join")
        t = w.table()
        assert t.seat_of(str(b.id)) is not None
        reply = await w.slash(a, "kick", {"user": b}, admin=True)
        assert "withdrew" in reply["content"], reply
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        said = tr("ru", "private.kicked_unregistered", table=t.id, amount=100, label="kush")
        dms = [m["content"] for m in w.fake.dm_messages(b.id)]
        assert dms.count(said) == 1, dms
        assert await check_store(w.store) == []
