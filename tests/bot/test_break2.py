"""Attacks on the ninth session's merges (the top-up window when a third player leaves, a
settings change during the window, the bot re-added to its group): a hostile or unlucky
user, an admin, a stale platform error. In-memory store, a hand-moved clock, timers fired by
``run_due``; every scenario ends with the ledger checked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.model import Actor, Phase
from bot.service.dealing import TOP_UP_SECONDS
from bot.texts import tr
from game.hand import Hand
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.discord.dc_world import ALICE as DC_ALICE
from tests.bot.discord.dc_world import BOB as DC_BOB
from tests.bot.discord.dc_world import world as dc_world
from tests.bot.discord.test_discord_e2e import seat_everyone as dc_seat_everyone
from tests.bot.fakes import FakePresenter
from tests.bot.test_service import ALICE, BOB, CAROL, GROUP, press_auto_and_confirm, seated
from tests.bot.test_telegram_e2e import play_hand, seat_everyone
from tests.bot.test_tournament_service import new_service as new_tournament_service
from tests.bot.test_transitions import player_balance
from tests.bot.test_window_attacks import bob_busted_of_three
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import GROUP_ID, world
from tests.fakes.discord_api import CHANNEL_ID, GUILD_ID


def assert_nothing_hidden_shown(presenter: FakePresenter, store: MemoryStore) -> None:
    """No discard of any hand played (R3.3) in any group message: the table message's every
    version and every post."""
    texts = [s.text for s in presenter.tables.get(GROUP.chat_id, [])]
    texts += [text for chat, text in presenter.posts if chat == GROUP.chat_id]
    records = [r for r in store._hands.values() if "setup" in r.hand]
    assert records
    for record in records:
        hand = Hand.from_json(record.hand)
        discards = [c.face for s in hand.order for c in hand.discards_of(s)]  # (classic: none)
        assert not [d for d in discards for text in texts if d in text]


async def test_r8_2_the_third_player_leaving_does_not_restart_the_top_up_window() -> None:
    """Alice, Bob and Carol; Bob loses his stack and has 20 s to top up before the next deal
    (R8.2). 5 s into them Carol leaves: Alice alone can play, the table goes back to the
    lobby, whose top-up window is what is left of Bob's 20 s (it started 20 s afresh: up to
    40 s in all for a player offered 20), and at its end Bob is stood up."""
    service, presenter, store, clock, t = await bob_busted_of_three(next_hand_delay=4)
    end = t.next_hand_at
    assert end is not None
    clock.now += 5
    assert not (await service.leave(GROUP, CAROL)).alert
    assert t.phase is Phase.LOBBY and t.top_up_deadline == end
    clock.now = end - 0.5
    await service.run_due()
    assert t.seat_of(BOB.user_id) is not None
    clock.now = end
    await service.run_due()
    assert t.seat_of(BOB.user_id) is None and t.hand is None
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) in presenter.posts
    assert await player_balance(store, BOB) == 800
    assert await check_store(store) == []
    assert_nothing_hidden_shown(presenter, store)


@pytest.mark.parametrize("lobby", [False, True])
async def test_r8_2_a_point_lowered_so_that_nobody_is_busted_ends_the_top_up_wait(
    lobby: bool,
) -> None:
    """Alice, Bob and Carol at 200 kush a point; Bob loses his stack and tops up 100, still
    below a point (R8.2). The admins lower the point to 100 (between matches: at once):
    nobody's top-up is waited for any more, so the next hand comes in the usual 4 s, as
    after a top-up that covers the point (it waited for the end of Bob's 20 s window: a
    settings change never tried to deal). ``lobby``: Carol left first, the table waits in
    the lobby for Bob's top-up: Alice and Bob, both ready, are dealt in at once."""
    service, presenter, store, clock, t = await bob_busted_of_three(next_hand_delay=4)
    end = t.next_hand_at
    assert end is not None
    clock.now += 2
    if lobby:
        assert not (await service.leave(GROUP, CAROL)).alert
        assert t.phase is Phase.LOBBY and t.top_up_deadline == end
    reply = await service.top_up(GROUP, BOB, "100")
    assert reply.text.startswith(tr("ru", "reply.topped_up", amount=100, label="kush", stack=100))
    assert t.hand is None and [s.name for s in t.awaiting_top_up()] == ["Bob"]
    clock.now += 1
    reply = await service.settings(GROUP, ALICE, True, ["kush_per_point", "100"])
    assert not reply.alert, reply.text
    assert t.options.kush_per_point == 100 and t.awaiting_top_up() == []
    if lobby:
        assert t.hand is not None and sorted(t.hand.order) == [0, 1]
    else:
        assert t.hand is None and t.next_hand_at == clock.now + 4
        clock.now += 4
        await service.run_due()
        assert t.hand is not None and sorted(t.hand.order) == [0, 1, 2]
    assert await player_balance(store, BOB) == 700
    assert await check_store(store) == []
    assert_nothing_hidden_shown(presenter, store)


async def test_a_write_refused_before_the_bot_was_added_back_does_not_close_the_table(
    tmp_path: Path,
) -> None:
    """The bot is removed from the group mid-hand (the close is queued, R8.2a) and added
    back before the hand ends (the close is cancelled). A group write sent while it was
    out, refused with "bot was kicked", is answered (or reaches the service) only after
    the re-add: it queued the close again, and the table closed after the hand although
    the bot was back and the group had been told the table stays open. A refusal of a
    write sent after the re-add still closes it."""
    async with world(tmp_path) as w:
        w.fake.started_users.update({TG_ALICE.id, TG_BOB.id})
        leaks = w.watch_leaks()
        await seat_everyone(w, [TG_ALICE, TG_BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        gate = asyncio.Event()
        refused: list[str] = []
        tell = w.adapter.presenter.on_chat_gone
        assert tell is not None

        async def late(chat: str, sent: float) -> object:
            refused.append(chat)
            await gate.wait()  # (a 429 held it, the retries of a lost edit, a slow network)
            return await tell(chat, sent)

        w.adapter.presenter.on_chat_gone = late
        await w.fake.remove_bot(GROUP_ID, by=TG_ALICE)
        await w.fake.wait_for(lambda: t.closing and bool(refused))
        await w.fake.add_bot(GROUP_ID, by=TG_ALICE)
        await w.fake.wait_for(lambda: not t.closing)
        gate.set()  # (settling first would wait for it)
        await w.adapter.presenter.flush()
        await w.settle()
        assert not t.closing
        await play_hand(w, [TG_ALICE, TG_BOB])
        await w.settle()
        assert t.id in w.service.tables and t.hand is not None and t.hand_no == 2
        # (the watch reads the open tables' cards: not the closing showdown's below)
        assert leaks == []
        w.adapter.presenter.on_chat_gone = tell
        w.fake.removed_from.add(GROUP_ID)  # removed again, the update lost: a write tells
        await play_hand(w, [TG_ALICE, TG_BOB])
        await w.settle()
        await w.adapter.presenter.flush()
        assert t.id not in w.service.tables and t.hand_no == 2
        assert await check_store(w.store) == []


async def test_r8_3_a_round_settled_early_by_new_settings_offers_the_top_up_it_makes_due() -> None:
    """Alice, Bob and Carol at 45 kush a point, ``settle_per_round`` (R8.3): after the first
    hand Bob owes Alice 4 points (180 kush), which his 200 cover. The admins turn
    ``settle_per_round`` off between matches: the round's points are settled at once,
    leaving Bob 20, below a point. He is offered the top-up and has 20 s for it (R8.2), as
    after a showdown: the deal 4 s later stood him up, "no top-up in time", never having
    offered one. His top-up deals him in."""
    service, presenter, store, clock = new_tournament_service(next_hand_delay=4)
    for name, value in (("kush_per_point", "45"), ("settle_per_round", "on")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB, CAROL)
    assert t is not None
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.match is not None and t.match.round_pairs == ((0, 1, 4),)
    clock.now += 1
    reply = await service.settings(GROUP, ALICE, True, ["settle_per_round", "off"])
    assert not reply.alert, reply.text
    assert {s.name: s.stack for s in t.seats.values()} == {"Alice": 380, "Bob": 20, "Carol": 200}
    settled = (  # each move with the group's unit (it said "Alice +180, Bob -180")
        f"Table #{t.id}: the round is settled early (new table settings): "
        "Alice +180 kush, Bob −180 kush."
    )
    assert (GROUP.chat_id, settled) in presenter.posts, presenter.posts[-4:]
    offer = tr("en", "showdown.below_point", name="Bob", stack=20, label="kush")
    assert (GROUP.chat_id, offer) in presenter.posts
    assert t.next_hand_at == clock.now + TOP_UP_SECONDS
    clock.now += 10
    await service.run_due()
    assert t.hand is None and t.seat_of(BOB.user_id) is not None
    assert not (await service.top_up(GROUP, BOB)).alert
    clock.now += 4
    await service.run_due()
    assert t.hand is not None and sorted(t.hand.order) == [0, 1, 2]
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Bob")) not in presenter.posts
    assert await check_store(store) == []
    assert_nothing_hidden_shown(presenter, store)


async def test_discord_a_write_refused_before_the_bot_was_invited_back_keeps_the_table(
    tmp_path: Path,
) -> None:
    """The Discord twin: the bot removed from the guild mid-hand (the close is queued) and
    invited back before the hand ends (the close is cancelled); a channel write sent while it
    was out, refused (403, 50001), reaching the service after the re-invite queued the
    close again. Ignored now; a refusal of a write sent after it still closes the table."""
    async with dc_world(tmp_path) as w:
        await dc_seat_everyone(w, [DC_ALICE, DC_BOB])
        t = next(iter(w.service.tables.values()))
        assert t.hand is not None and t.hand_no == 1
        gate = asyncio.Event()
        refused: list[str] = []
        tell = w.adapter.presenter.on_locked_out
        assert tell is not None

        async def late(chat: str, sent: float) -> None:
            refused.append(chat)
            await gate.wait()
            await tell(chat, sent)

        w.adapter.presenter.on_locked_out = late
        w.fake.locked_channels.add(CHANNEL_ID)
        await w.fake.dispatch("GUILD_DELETE", {"id": str(GUILD_ID)})
        await w.fake.wait_for(lambda: t.closing and bool(refused))
        w.fake.locked_channels.discard(CHANNEL_ID)
        joined = {k: v for k, v in w.fake.guild_json().items() if k != "unavailable"}
        await w.fake.dispatch("GUILD_CREATE", joined)
        await w.fake.wait_for(lambda: not t.closing)
        gate.set()
        await w.adapter.presenter.flush()
        assert not t.closing
        await w.play_hand([DC_ALICE, DC_BOB], {DC_ALICE.id: "dm", DC_BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.hand is not None and t.hand_no == 2)
        assert t.id in w.service.tables and not t.closing
        w.adapter.presenter.on_locked_out = tell
        w.fake.locked_channels.add(CHANNEL_ID)  # locked out again, no event: a write tells
        await w.play_hand([DC_ALICE, DC_BOB], {DC_ALICE.id: "dm", DC_BOB.id: "dm"})
        await w.fake.wait_for(lambda: t.id not in w.service.tables)
        assert t.hand_no == 2
        assert await check_store(w.store) == []


async def test_r8_3_a_round_settled_early_as_a_player_leaves_offers_the_top_up_it_makes_due() -> (
    None
):
    """Classic OFC for four at 24 kush a point, ``settle_per_round`` (R8.3): after the first
    hand Alice owes Bob 8 points (192 kush), which her 200 cover. Carol leaves between
    hands: the round's points are settled first, leaving Alice 8, below a point, while Bob
    and Dave can still play. Alice is offered the top-up and has 20 s for it (R8.2), as
    after a showdown: the deal 4 s later stood her up, "no top-up in time", never having
    offered one."""
    dave = Actor("telegram", "4", "Dave", "en")
    service, presenter, store, clock = new_tournament_service(next_hand_delay=4)
    for name, value in (("game", "ofc"), ("kush_per_point", "24"), ("settle_per_round", "on")):
        reply = await service.settings(GROUP, ALICE, True, [name, value])
        assert not reply.alert, reply.text
    t = await seated(service, ALICE, BOB, CAROL, dave)
    assert t is not None
    by_id = {a.user_id: a for a in (ALICE, BOB, CAROL, dave)}
    while t.hand is not None:
        await press_auto_and_confirm(service, presenter, by_id[t.seats[t.hand.to_act[0]].user_id])
    assert t.match is not None and t.match.round_pairs == ((0, 1, -8),)
    clock.now += 1
    assert not (await service.leave(GROUP, CAROL)).alert
    assert {s.name: s.stack for s in t.seats.values()} == {"Alice": 8, "Bob": 392, "Dave": 200}
    offer = tr("en", "showdown.below_point", name="Alice", stack=8, label="kush")
    assert (GROUP.chat_id, offer) in presenter.posts
    assert t.phase is Phase.BETWEEN and t.next_hand_at == clock.now + TOP_UP_SECONDS
    clock.now += 10
    await service.run_due()
    assert t.hand is None and t.seat_of(ALICE.user_id) is not None
    assert not (await service.top_up(GROUP, ALICE)).alert
    clock.now += 4
    await service.run_due()
    assert t.hand is not None and sorted(t.hand.order) == [0, 1, 3]
    assert (GROUP.chat_id, tr("en", "lobby.busted_stood_up", names="Alice")) not in presenter.posts
    assert await check_store(store) == []
    assert_nothing_hidden_shown(presenter, store)
