"""Members who leave a guild, and the bot's own roles, through the real discord.py client and
the fake Discord (the counterpart of a member leaving a Telegram group,
``tests/bot/test_telegram_chats.py``): a member who leaves the server, is kicked or banned
leaves its tables as ``/ofc leave`` would (R8.2: at once between hands, their stack back to
the balance; during a hand after it, R8.5), and a role given back to the bot lets it write
again (R8.2a)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import discord
import pytest

from bot.discord import adapter as adapter_module
from bot.discord.adapter import default_intents
from bot.model import LiveTable
from bot.texts import tr
from storage.check import check_store
from tests.bot.discord.dc_world import ALICE, BOB, CAROL, World, world
from tests.bot.discord.test_discord_chats import balance_of
from tests.bot.discord.test_discord_e2e import seat_everyone
from tests.fakes.discord_api import BOT_ROLE_ID, CHANNEL_ID, TOKEN, FakeDiscord


def channel_texts(w: World) -> list[str]:
    """The content of the bot's public messages in the table's channel, oldest first."""
    return [str(m.get("content", "")) for m in w.fake.channel_messages(CHANNEL_ID)]


def table_text(w: World) -> str:
    """The table message as the channel shows it now."""
    return str(w.table_message().get("content", ""))


async def test_the_default_intents_are_unprivileged_and_take_bans() -> None:
    """The bot asks for no privileged intent unless told to (``DISCORD_MEMBERS_INTENT``):
    guilds, and moderation for GUILD_BAN_ADD."""
    plain = default_intents()
    assert (plain.guilds, plain.moderation, plain.members) == (True, True, False)
    assert default_intents(members=True).members is True
    assert discord.Intents(guilds=True, moderation=True).value == plain.value


async def test_a_member_who_leaves_the_server_between_hands_is_stood_up_at_once(
    tmp_path: Path,
) -> None:
    """R8.2: Carol, seated and bought in (200 of her 1,000), leaves the server between
    hands (GUILD_MEMBER_REMOVE, the members intent on). Her seat stayed taken for good and
    her 200 at the table. Now she stands up at once: the 200 are back in her balance, the
    channel is told in a notice of its own and the table message no longer shows her."""
    async with world(tmp_path, intents=default_intents(members=True)) as w:
        await w.slash(ALICE, "new")
        for u in (ALICE, CAROL):
            await w.press_lobby(u, "j")
        await w.slash(CAROL, "ready")
        t = w.table()
        assert await balance_of(w, CAROL.id) == 800
        assert "Carol" in table_text(w)
        await w.fake.remove_member(CAROL)
        await w.fake.wait_for(lambda: t.seat_of(str(CAROL.id)) is None)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        assert await balance_of(w, CAROL.id) == 1000
        notice = tr(t.lang, "notice.left_group.discord", name="Carol")
        assert notice == "👋 Carol left the server and the table."
        assert channel_texts(w).count(notice) == 1, channel_texts(w)[-3:]
        assert "Carol" not in table_text(w) and "Alice" in table_text(w)
        assert await check_store(w.store) == []


async def test_a_member_kicked_mid_hand_leaves_after_it_with_the_stack_back(
    tmp_path: Path,
) -> None:
    """R8.5, R8.2: Bob is kicked from the server in the middle of a hand of three (his DMs
    closed to the bot from then on). His seat stayed and the clock played his hands for
    good. Now his moves are made for him and he leaves when the hand ends: the channel is
    told at once and again after the showdown with the kush cashed out, which is in his
    balance; Alice and Carol play on, dealt the next hand without him."""
    async with world(tmp_path, intents=default_intents(members=True)) as w:
        await seat_everyone(w, [ALICE, BOB, CAROL])
        t = w.table()
        assert t.hand is not None and t.hand_no == 1
        bob = t.seat_of(str(BOB.id))
        assert bob is not None
        await w.fake.remove_member(BOB)
        await w.fake.wait_for(lambda: bob.leaving)
        later = tr(t.lang, "notice.left_group_later.discord", name="Bob")
        await w.fake.wait_for(lambda: later in channel_texts(w))
        assert t.hand is not None and t.hand_no == 1  # the hand goes on
        await w.play_hand([ALICE, CAROL], {ALICE.id: "dm", CAROL.id: "dm"})
        await w.fake.wait_for(lambda: t.seat_of(str(BOB.id)) is None)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        pattern = re.escape(
            tr(t.lang, "notice.left_after_hand", name="Bob", amount="@", label="kush")
        )
        cashed = [
            int(m[1].replace(",", ""))
            for text in channel_texts(w)
            if (m := re.fullmatch(pattern.replace("@", "([0-9,]+)"), text))
        ]
        assert len(cashed) == 1, channel_texts(w)[-4:]
        assert await balance_of(w, BOB.id) == 800 + cashed[0]
        stacks = sum(s.stack for s in t.seats.values())
        balances = sum([await balance_of(w, u.id) for u in (ALICE, BOB, CAROL)])
        assert balances + stacks == 3000  # nothing made or lost
        assert "Bob" not in table_text(w)
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        assert {s.user_id for s in t.seats.values()} == {str(ALICE.id), str(CAROL.id)}
        assert await check_store(w.store) == []


async def test_a_member_banned_without_the_members_intent_is_stood_up(tmp_path: Path) -> None:
    """Without the privileged members intent (the default) Discord sends no
    GUILD_MEMBER_REMOVE, but a ban comes as GUILD_BAN_ADD (the moderation intent): Carol,
    banned between hands, stands up at once with her 200 back."""
    async with world(tmp_path) as w:
        await w.slash(ALICE, "new")
        for u in (ALICE, CAROL):
            await w.press_lobby(u, "j")
        await w.slash(CAROL, "ready")
        t = w.table()
        assert await balance_of(w, CAROL.id) == 800
        await w.fake.remove_member(CAROL, ban=True)
        await w.fake.wait_for(lambda: t.seat_of(str(CAROL.id)) is None)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        assert await balance_of(w, CAROL.id) == 1000
        notice = tr(t.lang, "notice.left_group.discord", name="Carol")
        assert channel_texts(w).count(notice) == 1
        assert await check_store(w.store) == []


async def test_a_ban_mid_hand_with_the_members_intent_is_told_once(tmp_path: Path) -> None:
    """A ban comes twice with the members intent (GUILD_BAN_ADD, then GUILD_MEMBER_REMOVE):
    Bob, banned mid-hand, leaves after it, and the channel reads that once."""
    async with world(tmp_path, intents=default_intents(members=True)) as w:
        await seat_everyone(w, [ALICE, BOB, CAROL])
        t = w.table()
        bob = t.seat_of(str(BOB.id))
        assert bob is not None and t.hand is not None
        await w.fake.remove_member(BOB, ban=True)
        await w.fake.wait_for(lambda: bob.leaving)
        later = tr(t.lang, "notice.left_group_later.discord", name="Bob")
        await w.play_hand([ALICE, CAROL], {ALICE.id: "dm", CAROL.id: "dm"})
        await w.fake.wait_for(lambda: t.seat_of(str(BOB.id)) is None)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        assert channel_texts(w).count(later) == 1, channel_texts(w)
        assert await check_store(w.store) == []


async def test_a_role_given_back_to_the_bot_mid_hand_keeps_its_table(tmp_path: Path) -> None:
    """R8.2a: @everyone may not send messages in the guild; the bot writes through a role
    of its own. An admin takes that role from the bot mid-hand (the next write answers 403
    50013, which queues the table's close), then gives it back before the hand ends: Discord
    tells only GUILD_MEMBER_UPDATE of the bot's own member (no channel or role changed).
    The close stood and the table closed after the hand, though the bot could write again;
    now the close is cancelled, the channel told, and the next hand dealt."""
    fake = FakeDiscord(TOKEN)
    fake.bot_roles.append(BOT_ROLE_ID)
    fake.guild_locked = True  # @everyone may not send: the bot's role may
    await fake.start()
    try:
        async with world(tmp_path, fake=fake) as w:
            await seat_everyone(w, [ALICE, BOB])
            t = w.table()
            assert t.hand is not None and t.hand_no == 1
            await fake.set_bot_role(False)
            assert CHANNEL_ID in fake.locked_channels
            first = ALICE if t.hand.to_act == (0,) else BOB
            await w.play_street(first, "dm")
            await fake.wait_for(lambda: t.closing)
            await fake.set_bot_role(True)
            await fake.wait_for(lambda: not t.closing)
            notice = tr("en", "lobby.close_cancelled", table=t.id)
            await fake.wait_for(lambda: notice in channel_texts(w))
            await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
            await fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
            assert t.id in w.service.tables and not t.closing
            assert await check_store(w.store) == []
    finally:
        await fake.stop()


async def test_a_registered_tournament_player_who_leaves_the_server_is_unregistered(
    tmp_path: Path,
) -> None:
    """R8.7: Bob, registered for a tournament that has not started, leaves the server: his
    registration stayed, his buy-in in the pool. He is unregistered as ``/ofc leave`` would,
    the buy-in back in his balance, and the channel reads it in "server" words."""
    from tests.bot.discord.test_tournament_discord import BUY_IN, START, lobby_message
    from tests.bot.discord.test_tournament_discord import press_lobby as press_tournament

    async with world(tmp_path, intents=default_intents(members=True)) as w:
        reply = await w.slash(ALICE, "tournament", {"game": "pineapple"})
        assert reply["content"], reply
        for user in (ALICE, BOB):
            await press_tournament(w, user, "g")
        t = w.table()
        assert t.tournament is not None and len(t.tournament.players) == 2
        assert await balance_of(w, BOB.id) == START - BUY_IN
        await w.fake.remove_member(BOB)
        await w.fake.wait_for(lambda: t.seat_of(str(BOB.id)) is None)
        await w.service.rt.settled(t)
        await w.adapter.presenter.flush()
        assert await balance_of(w, BOB.id) == START
        assert len(t.tournament.players) == 1
        notice = tr(t.lang, "notice.left_group_unregistered.discord", name="Bob")
        assert notice == "👋 Bob left the server: their registration is withdrawn."
        assert notice in channel_texts(w)
        assert "Bob" not in str(lobby_message(w).get("content", ""))
        assert await check_store(w.store) == []


async def timed_out_mid_hand(w: World, seconds: float) -> LiveTable:
    """Alice and Bob seated, hand 1 dealt; the bot is timed out for ``seconds`` and the
    first street played: its refused writes (403 50013) queued the table's close."""
    await seat_everyone(w, [ALICE, BOB])
    t = w.table()
    assert t.hand is not None and t.hand_no == 1
    await w.fake.time_out_bot(seconds)
    first = ALICE if t.hand.to_act == (0,) else BOB
    await w.play_street(first, "dm")
    await w.fake.wait_for(lambda: t.closing)
    return t


async def plays_on(w: World, t: LiveTable) -> None:
    """The close was cancelled: the channel is told, and the next hand is dealt."""
    notice = tr("en", "lobby.close_cancelled", table=t.id)
    await w.fake.wait_for(lambda: notice in channel_texts(w))
    await w.play_hand([ALICE, BOB], {ALICE.id: "dm", BOB.id: "dm"})
    await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
    assert t.id in w.service.tables and not t.closing
    assert await check_store(w.store) == []


async def test_a_timeout_lifted_from_the_bot_mid_hand_keeps_its_table(tmp_path: Path) -> None:
    """R8.2a: a server admin times the bot out mid-hand (its writes answer 403 50013, which
    queues the table's close), then lifts the timeout before the hand ends: Discord tells
    only GUILD_MEMBER_UPDATE of the bot's own member, its roles unchanged. The close stood
    and the table closed after the hand; now the close is cancelled, the channel told, and
    the next hand dealt."""
    async with world(tmp_path) as w:
        t = await timed_out_mid_hand(w, 600)
        await w.fake.time_out_bot(None)
        await w.fake.wait_for(lambda: not t.closing)
        await plays_on(w, t)


async def test_a_timeout_of_the_bot_that_runs_out_mid_hand_keeps_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.2a: the bot is timed out for three seconds mid-hand (its writes refused: the close
    queued). Discord sends no event when a timeout runs out; the bot looks at the channels
    again when it ends, so the close is cancelled (not before) and the channel told, with no
    update from Discord; the next hand is dealt."""
    monkeypatch.setattr(adapter_module, "TIMEOUT_END_MARGIN", 0.2)
    async with world(tmp_path) as w:
        ends = time.time() + 3.0
        t = await timed_out_mid_hand(w, 3.0)
        await w.fake.wait_for(lambda: not t.closing, timeout=10)
        assert time.time() >= ends  # (not before the timeout ran out)
        await plays_on(w, t)


async def test_a_timeout_of_the_bot_from_before_a_restart_that_runs_out_keeps_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.2a: the bot is timed out while it is stopped (or restarted after the timeout was
    given: the look it had scheduled for the timeout's end is gone). The restarted bot
    learns of the timeout only from GUILD_CREATE (its member's
    ``communication_disabled_until``); its writes mid-hand (the table message it shows
    again on resuming) are refused (the close queued),
    and when the timeout runs out, with no event from Discord, the close is cancelled and the
    next hand dealt. (It stood: the bot looked again only after a GUILD_MEMBER_UPDATE.)"""
    monkeypatch.setattr(adapter_module, "TIMEOUT_END_MARGIN", 0.2)
    fake = FakeDiscord(TOKEN)
    await fake.start()
    db = tmp_path / "ofc.sqlite3"
    try:
        async with world(tmp_path, fake=fake, db=db) as w:
            await seat_everyone(w, [ALICE, BOB])
            assert w.table().hand is not None
        ends = time.time() + 4.0
        fake.bot_timed_out_until = ends  # (given while the bot was away: no event seen)
        async with world(tmp_path, fake=fake, db=db) as w:
            t = w.table()
            assert t.hand is not None and t.hand_no == 1
            await w.fake.wait_for(lambda: t.closing)  # (its table message, shown, refused)
            await w.fake.wait_for(lambda: not t.closing, timeout=15)
            assert time.time() >= ends  # (not before the timeout ran out)
            await plays_on(w, t)
    finally:
        await fake.stop()
