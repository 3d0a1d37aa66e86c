"""An admin's ``/kick <name>`` (fixkick): a bought-in player sitting out keeps their seat and
stack indefinitely (R8.6), and an admin could stand them up only by closing the whole table
(``/kick`` was an unknown command). ``/kick`` stands a seated person up exactly as their own
/leave would: between hands at once, the stack back to the balance (R8.2); during their hand
after it, their cards placed as on timeout (R8.5); refused at a tournament (R8.7), for a
computer player (``/removebot``), for anyone not seated, and for non-admins."""

from __future__ import annotations

from pathlib import Path

from bot.model import LiveTable, SeatState
from bot.service import TableService
from bot.texts import tr
from storage.api import Store
from storage.check import check_store
from tests.bot.conftest import Clock
from tests.bot.discord import dc_world
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    dealt_at,
    press_auto_and_confirm,
    seated,
)
from tests.bot.test_tournament_service import new_service, running_tournament
from tests.bot.test_transitions import player_balance
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import CAROL as TG_CAROL
from tests.bot.tg_world import GROUP_ID, world
from tests.fakes.discord_api import EPHEMERAL


async def _timed_out(
    service: TableService, presenter: FakePresenter, clock: Clock
) -> tuple[LiveTable, SeatState]:
    """Alice and Bob play hand 1; Bob lets his clock run out: he sits out (R8.6), keeping
    seat and stack, and no hand is dealt. Returns (table, Bob's seat)."""
    t = await seated(service, ALICE, BOB)
    assert t is not None and t.hand is not None
    bob = t.seat_of(BOB.user_id)
    assert bob is not None
    while t.hand is not None and t.hand_no == 1:
        if t.seats[t.hand.to_act[0]] is bob:
            clock.now += 181
            await service.run_due()
        else:
            await press_auto_and_confirm(service, presenter, ALICE)
    assert bob.sitting_out and t.hand is None
    return t, bob


async def test_an_admin_stands_up_a_player_sitting_out_their_stack_back(env) -> None:  # type: ignore[no-untyped-def]
    """R8.6's stuck seat: Bob sits out after a timeout with his stack at the table. Carol
    (no admin) is refused, nothing changes; Alice (admin) kicks him by his name: his seat
    is free, his whole stack back on his balance, the ledger balanced."""
    service, presenter, store, clock = env
    t, bob = await _timed_out(service, presenter, clock)
    stack = bob.stack
    assert stack > 0
    before = await player_balance(store, BOB)
    reply = await service.kick(GROUP, CAROL, False, "Bob")
    assert reply.alert and reply.text == tr("en", "reply.admins_only"), reply.text
    assert t.seat_of(BOB.user_id) is bob and await player_balance(store, BOB) == before
    reply = await service.kick(GROUP, ALICE, True, "bob")
    assert not reply.alert
    assert reply.text == tr("en", "reply.kicked", name="Bob", amount=stack, label="kush")
    assert reply.text == f"Admin stood Bob up; {stack} kush back to their balance."
    assert t.seat_of(BOB.user_id) is None
    assert await player_balance(store, BOB) == before + stack
    assert (await store.stacks(t.id)).get(bob.player_id, 0) == 0
    assert await check_store(store) == []
    again = await service.kick(GROUP, ALICE, True, "Bob")
    assert again.alert and again.text == "Bob is not seated here."


async def test_a_kick_mid_hand_stands_the_player_up_after_the_hand() -> None:
    """During Bob's hand nothing is asked first (his own /leave asks): he is marked leaving,
    keeps his seat until the hand ends, his cards placed as on timeout (R8.5); a second
    kick says he is leaving already. After the showdown his stack is on his balance."""
    service, presenter, store, clock = new_service(next_hand_delay=0)
    t = await dealt_at(service, GROUP, (ALICE, BOB))
    bob = t.seat_of(BOB.user_id)
    assert bob is not None and not bob.leaving
    reply = await service.kick(GROUP, ALICE, True, BOB.user_id)
    assert not reply.alert and reply.text == tr("en", "reply.kicked_after_hand", name="Bob")
    assert bob.leaving and t.seat_of(BOB.user_id) is bob and t.hand is not None
    reply = await service.kick(GROUP, ALICE, True, "Bob")
    assert (
        reply.alert and reply.text == "Bob is leaving already: they stand up when this hand ends."
    )
    for _ in range(40):
        if t.hand is None or t.hand_no != 1:
            break
        if t.seats[t.hand.to_act[0]].user_id == ALICE.user_id:
            await press_auto_and_confirm(service, presenter, ALICE)
        else:  # (never reached: his moves are made for him)
            clock.now += 181
            await service.run_due()
    assert t.seat_of(BOB.user_id) is None  # stood up when the hand ended
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None
    # zero-sum: Bob's whole stack is on his balance (none left at the table)
    bob_now = await player_balance(store, BOB)
    assert bob_now == 800 + bob.stack
    assert bob_now + await player_balance(store, ALICE) + alice.stack == 2000
    assert await check_store(store) == []


async def test_a_kick_is_refused_at_a_running_tournament() -> None:
    """R8.7: a tournament seat is its player's own; a kick changes nothing there."""
    service, _presenter, store, _clock = new_service(next_hand_delay=0)
    t, tour = await running_tournament(service)
    chips = dict(tour.chips)
    reply = await service.kick(GROUP, ALICE, True, CAROL.user_id)
    assert reply.alert and reply.text == tr("en", "reply.kick_tournament")
    assert tour.chips == chips and not tour.knocked_out
    seat = t.seat_of(CAROL.user_id)
    assert seat is not None and not seat.leaving
    assert await check_store(store) == []


async def test_a_computer_player_is_pointed_to_removebot_and_nobody_else_is_taken(env) -> None:  # type: ignore[no-untyped-def]
    service, _presenter, store, _clock = env
    await service.new_table(GROUP, ALICE)
    reply = await service.add_bot(GROUP, ALICE, True)
    assert not reply.alert, reply.text
    t = service.table_in(GROUP)
    assert t is not None
    robot = next(s for s in t.seats.values() if s.bot)
    bare = robot.name.removeprefix("🤖").strip()
    reply = await service.kick(GROUP, ALICE, True, bare)
    assert reply.alert
    assert reply.text == f"{robot.name} is a computer player: /removebot {bare} stands it up."
    assert t.seat_of(robot.user_id) is robot and not robot.leaving
    reply = await service.kick(GROUP, ALICE, True, "Zed")
    assert reply.alert and reply.text == "Zed is not seated here."
    reply = await service.kick(GROUP, ALICE, True, "")
    assert reply.alert and reply.text == tr("en", "reply.kick_usage")
    assert await check_store(store) == []


def test_the_texts_in_both_languages() -> None:
    assert tr("ru", "reply.kicked", name="Боб", amount=200, label="kush") == (
        "Боб встаёт из-за стола по решению админа; возвращено на баланс: 200 кушей."
    )
    assert tr("ru", "reply.kick_not_seated", name="Зед") == "Зед не сидит за этим столом."
    for lang in ("en", "ru"):
        assert "/kick" in tr(lang, "help"), lang
        assert "/ofcadmin kick user" in tr(lang, "help.discord"), lang


async def _balance_tg(store: Store, user_id: int) -> int:
    community = await store.community("telegram", str(GROUP_ID))
    player = await store.find_player(community.id, str(user_id))
    assert player is not None
    return player.balance


async def test_telegram_kick_end_to_end(tmp_path: Path) -> None:
    """Through python-telegram-bot and the fake Bot API: Bob is bought in at the table;
    Carol (no admin) types /kick @bob and is refused; Alice, an admin, kicks him: the group
    reads the one notice, Bob's stack is back on his balance, the ledger balanced. The
    command is in Telegram's command menu."""
    from bot.telegram.adapter import COMMANDS

    assert any(c[0] == "kick" for c in COMMANDS)
    async with world(tmp_path) as w:
        w.fake.started_users.update(u.id for u in (TG_ALICE, TG_BOB, TG_CAROL))
        await w.say(TG_ALICE, "/newtable")
        await w.say(TG_BOB, "/join")
        reply = await w.say(TG_BOB, "/ready")
        await w.settle()
        t = w.service.rt.table_at("telegram", str(GROUP_ID))
        assert t is not None
        bob = t.seat_of(str(TG_BOB.id))
        assert bob is not None and bob.stack == 200, reply
        assert await _balance_tg(w.store, TG_BOB.id) == 800
        reply = await w.say(TG_CAROL, "/kick @bob")
        assert reply["text"] == tr("en", "reply.admins_only"), reply["text"]
        assert t.seat_of(str(TG_BOB.id)) is bob
        w.fake.admins[GROUP_ID] = {TG_ALICE.id}
        reply = await w.say(TG_ALICE, "/kick @bob")
        assert reply["text"] == "Admin stood Bob up; 200 kush back to their balance.", reply
        await w.settle()
        assert t.seat_of(str(TG_BOB.id)) is None
        assert await _balance_tg(w.store, TG_BOB.id) == 1000
        reply = await w.say(TG_ALICE, "/kick @carol")
        assert reply["text"] == "@carol is not seated here.", reply["text"]
        assert await check_store(w.store) == []


async def test_discord_kick_end_to_end(tmp_path: Path) -> None:
    """``/ofcadmin kick user``: refused (ephemeral) to a member without Manage Server;
    an admin's kick stands Bob up, his stack back on his balance, in public."""
    async with dc_world.world(tmp_path) as w:
        await w.slash(dc_world.ALICE, "new")
        await w.slash(dc_world.BOB, "join")
        await w.slash(dc_world.BOB, "ready")
        t = w.table()
        bob = t.seat_of(str(dc_world.BOB.id))
        assert bob is not None and bob.stack == 200
        reply = await w.slash(dc_world.CAROL, "kick", {"user": dc_world.BOB})
        assert reply["flags"] & EPHEMERAL
        assert reply["content"] == "Only members with Manage Server can do that.", reply
        assert t.seat_of(str(dc_world.BOB.id)) is bob
        reply = await w.slash(dc_world.ALICE, "kick", {"user": dc_world.BOB}, admin=True)
        assert not reply["flags"] & EPHEMERAL, reply
        assert reply["content"] == "Admin stood Bob up; 200 kush back to their balance.", reply
        assert t.seat_of(str(dc_world.BOB.id)) is None
        community = await w.store.community("discord", str(w.fake.guild_id))
        player = await w.store.find_player(community.id, str(dc_world.BOB.id))
        assert player is not None and player.balance == 1000
        assert await check_store(w.store) == []


async def test_kick_me_mid_hand_asks_first_as_the_admins_own_leave_does() -> None:
    """fixsmall36: ``/kick me`` (or the admin's own name) by an admin during their own hand
    is their own /leave: it asks first and changes nothing (it stood them up at the hand's
    end with nothing asked); a second within the confirm window stands them up after the
    hand, with /leave's answer (its texts, both languages)."""
    service, _presenter, store, _clock = new_service(next_hand_delay=0)
    t = await dealt_at(service, GROUP, (ALICE, BOB))
    alice = t.seat_of(ALICE.user_id)
    assert alice is not None and t.plays_now(alice)
    for target in ("me", "alice", "я"):
        reply = await service.kick(GROUP, ALICE, True, target)
        assert reply.alert and reply.text == tr("en", "reply.leave_confirm_typed"), reply.text
        assert not alice.leaving and t.seat_of(ALICE.user_id) is alice
        alice.leave_asked = -1e9  # (the window gone: each asks again)
    asked = await service.kick(GROUP, ALICE, True, "me")
    assert asked.text == "Leave during your hand? Your remaining cards are placed " + (
        "automatically and may foul. Send /leave again to confirm."
    )
    reply = await service.kick(GROUP, ALICE, True, "me")
    assert not reply.alert and reply.text == tr("en", "reply.leave_after_hand")
    assert alice.leaving and t.seat_of(ALICE.user_id) is alice and t.hand is not None
    assert await check_store(store) == []
