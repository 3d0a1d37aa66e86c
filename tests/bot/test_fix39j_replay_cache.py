"""fix39j: ``/replay``'s ◀ ▶ made the hand's frames again for every press
(:func:`bot.service.stats._frames` through :meth:`bot.thinking.Thinker.compute`): an old log
whose timeouts did not record their placement re-ran the strategy in the shared decision
queue each time. The frames of a replayed hand are kept (:attr:`Runtime.replays`, a small
LRU keyed by history id and the watcher's seat): ◀ ▶ makes none again, and one watcher's
frames (their discards, R3.3) are never shown to another."""

from __future__ import annotations

from typing import Any

import pytest

from bot.model import Actor, ChatRef
from bot.presses import ReplayStep, encode
from bot.service import TableService
from bot.service import runtime as runtime_module
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_stats_service import _table, env, play_scripted

__all__ = ["env"]  # (the fixture, imported for these tests)


def _dm(actor: Actor) -> ChatRef:
    return ChatRef("telegram", actor.user_id, actor.user_id, "", private=True)


async def test_replay_steps_make_the_frames_once_per_watcher(
    env: tuple[TableService, FakePresenter, MemoryStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The winner replays and presses ▶ ▶ ◀: the frames are made once. The loser's replay of
    the same hand makes their own (their seat), and shows their discards, not the winner's."""
    service, presenter, store = env
    winner, loser = await play_scripted(service, presenter)
    hand = (await store.hand_history(_table(service).seats[0].player_id, 1))[0]
    thinker = service.rt.thinker
    compute = thinker.compute
    asked: list[tuple[object, ...]] = []

    async def counted(fn: Any, *args: object) -> Any:
        asked.append(args)
        return await compute(fn, *args)

    monkeypatch.setattr(thinker, "compute", counted)
    first = await service.replay(_dm(winner), winner, f"#{hand.id}", here=True)
    assert first.screen is not None and "1 of 5" in first.screen.text
    for k in (2, 3, 2):
        step = await service.press(winner, encode(ReplayStep(hand.id, "R5", k)), _dm(winner))
        assert not step.alert and step.screen is not None, step.text
        assert f"{k} of 5" in step.screen.text
    assert len(asked) == 1
    t = _table(service)
    seats = {s.user_id: s.seat for s in t.seats.values()}
    theirs = await service.replay(_dm(loser), loser, f"#{hand.id}", here=True)
    assert theirs.screen is not None
    assert [a[1] for a in asked] == [seats[winner.user_id], seats[loser.user_id]]
    kept = service.rt.replays
    assert set(kept) == {(hand.id, seats[winner.user_id]), (hand.id, seats[loser.user_id])}
    assert kept[(hand.id, seats[winner.user_id])] != kept[(hand.id, seats[loser.user_id])]
    # each watcher's last frame (the showdown) as they saw it before the cache, unchanged
    for actor in (winner, loser):
        last = await service.press(actor, encode(ReplayStep(hand.id, "R5", 5)), _dm(actor))
        assert last.screen is not None
    assert len(asked) == 2


async def test_the_kept_frames_are_a_small_lru(
    env: tuple[TableService, FakePresenter, MemoryStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most :data:`REPLAYS_KEPT` hands are kept; the least recently watched goes first."""
    service, presenter, store = env
    winner, _ = await play_scripted(service, presenter)
    hand = (await store.hand_history(_table(service).seats[0].player_id, 1))[0]
    monkeypatch.setattr(runtime_module, "REPLAYS_KEPT", 2)
    monkeypatch.setattr("bot.service.stats.REPLAYS_KEPT", 2)
    kept = service.rt.replays
    kept[(-1, 0)] = ()
    kept[(-2, 0)] = ()
    await service.replay(_dm(winner), winner, f"#{hand.id}", here=True)
    assert list(kept) == [(-2, 0), (hand.id, _table(service).seat_of(winner.user_id).seat)]  # type: ignore[union-attr]
