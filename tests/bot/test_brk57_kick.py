"""brk57: ``/kick`` at a tournament still registering (R8.7), tried to break after fixsmall37;
nothing broke, these keep what was tried: the kick and the last Register at one moment (one of
them first, under the table's lock: never a kick of a running tournament's player), the kicked
player registering again (the table message's Register shown after the kick, and /join), and
Discord's ``/ofcadmin kick`` (twice, then the admin's own), the balances, the prize pool and the
ledger checked each time (no kush lost or made)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.presses import Register, decode
from bot.texts import tr
from game.tournament import TournamentPhase
from storage.check import check_store
from tests.bot.discord import dc_world
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP
from tests.bot.test_tournament_service import new_service, open_and_register
from tests.bot.test_transitions import player_balance

KICKED_BOB = tr("en", "reply.kicked_unregistered", name="Bob", amount=100, label="kush")


def register_button(presenter: FakePresenter) -> str:
    """The Register button of the group's table message now."""
    screen = presenter.last_table(GROUP.chat_id)
    return next(b.data for b in screen.all_buttons() if isinstance(decode(b.data), Register))


@pytest.mark.parametrize("kick_first", [True, False])
async def test_a_kick_and_the_last_register_at_one_moment(kick_first: bool) -> None:
    """Alice and Bob registered of three seats; an admin kicks Bob as Carol registers.
    Kick first: Bob unregistered, 100 back, Carol registered, no start (two of three).
    Register first: it starts the tournament, the kick is refused as at a running one."""
    service, _presenter, store, _clock = new_service(next_hand_delay=0)
    await open_and_register(service, (ALICE, BOB))
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    kick = service.kick(GROUP, ALICE, True, "Bob")
    join = service.join(GROUP, CAROL)
    if kick_first:
        kicked, joined = await asyncio.gather(kick, join)
    else:
        joined, kicked = await asyncio.gather(join, kick)
    assert not joined.alert, joined.text
    if kick_first:
        assert kicked.text == KICKED_BOB
        assert t.tournament.phase is TournamentPhase.REGISTERING
        assert [s.name for s in t.seats.values()] == ["Alice", "Carol"]
        assert await player_balance(store, BOB) == 1000 and t.tournament.pool == 200
    else:
        assert kicked.alert and kicked.text == tr("en", "reply.kick_tournament")
        assert t.tournament.phase is TournamentPhase.RUNNING and t.hand is not None
        assert await player_balance(store, BOB) == 900 and t.tournament.pool == 300
    assert await check_store(store) == []


async def test_a_kicked_player_registers_again() -> None:
    """Kicked, Bob presses the Register of the table message shown after the kick: he is
    registered (his Leave-time mark, which voids presses on older messages, does not refuse
    it); kicked again, /join registers him too; the buy-in paid each time."""
    service, presenter, store, _clock = new_service(next_hand_delay=0)
    await open_and_register(service, (ALICE, BOB))
    t = service.table_in(GROUP)
    assert t is not None and t.tournament is not None
    assert (await service.kick(GROUP, ALICE, True, "Bob")).text == KICKED_BOB
    reply = await service.press(BOB, register_button(presenter), GROUP)
    assert reply.text == tr("ru", "tour.registered", amount=100, label="kush"), reply.text
    assert t.seat_of(BOB.user_id) is not None
    assert await player_balance(store, BOB) == 900 and t.tournament.pool == 200
    assert (await service.kick(GROUP, ALICE, True, "Bob")).text == KICKED_BOB
    reply = await service.join(GROUP, BOB)
    assert not reply.alert and t.seat_of(BOB.user_id) is not None
    assert await player_balance(store, BOB) == 900 and t.tournament.pool == 200
    assert await check_store(store) == []


async def test_discord_kick_at_a_tournament_registering(tmp_path: Path) -> None:
    async with dc_world.world(tmp_path) as w:
        await w.slash(dc_world.ALICE, "tournament")
        await w.slash(dc_world.ALICE, "join")
        await w.slash(dc_world.BOB, "join")
        t = w.table()
        assert t.tournament is not None and t.tournament.pool == 200
        reply = await w.slash(dc_world.ALICE, "kick", {"user": dc_world.BOB}, admin=True)
        assert reply["content"] == KICKED_BOB, reply
        assert [s.name for s in t.seats.values()] == ["Alice"] and t.tournament.pool == 100
        reply = await w.slash(dc_world.ALICE, "kick", {"user": dc_world.BOB}, admin=True)
        assert reply["content"] == "Bob is not seated here.", reply
        reply = await w.slash(dc_world.ALICE, "kick", {"user": dc_world.ALICE}, admin=True)
        assert reply["content"] == tr("en", "tour.unregistered", amount=100, label="kush")
        assert not t.seats and t.tournament.pool == 0 and t.opener is None
        community = await w.store.community("discord", str(w.fake.guild_id))
        for user in (dc_world.ALICE, dc_world.BOB):
            player = await w.store.find_player(community.id, str(user.id))
            assert player is not None and player.balance == 1000
        assert await check_store(w.store) == []
