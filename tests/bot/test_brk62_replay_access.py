"""Break session 62: ``/replay`` asked as a hostile player hunting for hidden cards across
chats (issue 12, R3.3, R6.3): a hand of another group, the id of a hand still being played,
forged numbers. Each is refused with a short notice and shows no card; a player's own hand
asked from another group goes to their private chat, the group hearing only that it went."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from bot.cluster import route_key
from bot.discord.components import routed_table
from bot.model import ChatRef
from bot.presses import ReplayStep, encode, table_of
from bot.service import TableService
from bot.texts import tr
from game.cards import DECK
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.discord.shard_world import guild_on_shard
from tests.bot.fakes import FakePresenter
from tests.bot.test_cluster_dm import ALICE as DC_ALICE
from tests.bot.test_cluster_dm import CHAT, KEY, _dm, _worker
from tests.bot.test_stats_service import CAROL, DM, GROUP, _table, env, play_scripted

__all__ = ["env"]  # (the fixture, imported for these tests)

OTHER_GROUP = ChatRef("telegram", "-200", "-200", "Strangers")
FACES = {c.face for c in DECK}


def faces_in(text: str) -> set[str]:
    return {f for f in FACES if f in text}


async def test_r3_3_a_hand_of_another_group_is_refused_to_a_stranger_and_shows_no_card(
    env: tuple[TableService, FakePresenter, MemoryStore],
) -> None:
    service, presenter, store = env
    await play_scripted(service, presenter)
    hand = (await store.hand_history(_table(service).seats[0].player_id, 1))[0]
    await service.new_table(OTHER_GROUP, CAROL)  # Carol is known in the other group only
    privates = {u: len(s) for u, s in presenter.privates.items()}
    reply = await service.replay(OTHER_GROUP, CAROL, str(hand.id))
    assert reply.alert and reply.screen is None
    assert reply.text == tr("en", "replay.not_yours")
    dm = ChatRef("telegram", CAROL.user_id, CAROL.user_id, "", private=True)
    reply = await service.replay(dm, CAROL, f"#{hand.id}", here=True)
    assert reply.alert and reply.screen is None and not faces_in(reply.text)
    # the frames pressed with a forged step of that hand: refused the same
    step = await service.press(CAROL, encode(ReplayStep(hand.id, "R5", 5)), dm)
    assert step.alert and step.screen is None and not faces_in(step.text)
    assert {u: len(s) for u, s in presenter.privates.items()} == privates  # nothing sent


async def test_r3_3_a_players_own_hand_asked_in_another_group_goes_to_their_private_chat(
    env: tuple[TableService, FakePresenter, MemoryStore],
) -> None:
    service, presenter, store = env
    winner, _ = await play_scripted(service, presenter)
    hand = (await store.hand_history(_table(service).seats[0].player_id, 1))[0]
    await service.new_table(OTHER_GROUP, winner)
    reply = await service.replay(OTHER_GROUP, winner, str(hand.id))
    assert not reply.alert and reply.screen is None
    assert reply.text == tr(winner.language or "en", "replay.sent", n=hand.id)
    shown = presenter.last_private(winner.user_id)
    assert shown is not None and "1 of 5" in shown.text


@pytest.mark.parametrize(
    "arg", ["-1", "0x1", "1e3", "1 2", "٣", "²", "9" * 13, "#", "", "+1", "1.0"]
)
async def test_r3_3_forged_replay_numbers_answer_the_usage(
    env: tuple[TableService, FakePresenter, MemoryStore], arg: str
) -> None:
    service, presenter, _store = env
    winner, _ = await play_scripted(service, presenter)
    reply = await service.replay(GROUP, winner, arg)
    assert reply.alert and reply.screen is None
    assert reply.text == tr(winner.language or "en", "replay.usage")


async def test_r6_3_the_hand_being_played_has_no_replay_yet(
    env: tuple[TableService, FakePresenter, MemoryStore],
) -> None:
    """The id the next stored hand will get names the hand being played: unknown until its
    showdown is recorded, so nobody replays a board still hidden (R6.3) or this street's
    cards; ids far past it and 12 digits likewise."""
    service, presenter, store = env
    winner, loser = await play_scripted(service, presenter)
    t = _table(service)
    hand = (await store.hand_history(t.seats[0].player_id, 1))[0]
    assert t.hand is not None and not t.hand.is_over  # the second hand is being played
    for n in (hand.id + 1, hand.id + 2, 10**12 - 1):
        for actor in (winner, loser):
            reply = await service.replay(DM[actor.user_id], actor, str(n), here=True)
            assert reply.alert and reply.screen is None
            assert reply.text == tr(actor.language or "en", "replay.unknown", n=n)
            assert not re.search(r"[♠♥♦♣]", reply.text)


async def test_r14_a_replay_step_names_no_table_so_routes_by_none() -> None:
    """A replay's ◀ ▶ payload carries the hand's history id where other payloads carry a
    table's (bot/presses.py, ReplayStep): routing read it as table #<hand id>, an unrelated
    table of another chat, maybe another guild. Shard 0's worker, pressed ▶ on a replay
    in a DM, left it to the worker of that table (which cannot write an ephemeral replay),
    and pressed in a guild of its own shard it took the lease of the other guild's chat (on
    a shard it does not run) and loaded its table. A replay needs no table: served where it
    is pressed, nothing taken (table_of's doc: "None for ... a replay")."""
    store = MemoryStore()
    w1, _ = await _worker(store, "w1", [1])
    assert await w1.claim(KEY)
    await w1.service.new_table(CHAT, DC_ALICE)
    t = w1.service.table_in(CHAT)
    assert t is not None
    await w1.stop()  # the lease free: nobody holds the table
    replay = encode(ReplayStep(t.id, "R5", 2))  # hand #<t.id> of some other chat
    assert table_of(replay) is None and routed_table(replay) is None
    w0, _ = await _worker(store, "w0", [0])
    try:
        assert await w0.claim_interaction(_dm({"custom_id": replay}))  # served here
        in_guild = SimpleNamespace(
            data={"custom_id": replay}, guild_id=guild_on_shard(0), channel_id=77
        )
        assert await w0.claim_interaction(in_guild)
        assert await store.lease_owner(KEY) is None  # the other guild's chat not taken
        assert w0.service.table_in(CHAT) is None
        assert await store.lease_owner(lease_key("discord", "77")) == "w0"
    finally:
        await w0.stop()


async def test_r14_telegram_routes_a_replay_step_by_its_chat_not_a_table_of_that_number() -> None:
    """The router's side of the above: a ▶ of hand #<n> in a private chat went to the worker
    of table #<n>'s group (another chat, whose lease it may take to answer it)."""
    store = MemoryStore()
    community = await store.community("telegram", "-100", "G")
    table = await store.create_table(community.id, "-100", {"game": "pineapple"}, 200)
    user = {"id": 1, "is_bot": False, "first_name": "A"}
    msg = {"message_id": 1, "date": 0, "from": user, "chat": {"id": 1, "type": "private"}}
    replay = encode(ReplayStep(table.id, "R5", 2))
    press = {"id": "q", "from": user, "data": replay, "message": msg}
    assert await route_key(store, {"callback_query": press}) == "telegram:1"
