"""fix39f: ``/replay`` and its ◀ ▶ made a hand's frames (:func:`game.history.replay_frames`)
in a thread of the bot (``asyncio.to_thread``). A hand log whose timeouts did not record their
placement (R8.5: logs from before ``Timeout.placed``) has them decided again by the strategy
while it replays, pure Python holding the GIL: every other table's presses waited. The frames
are now made like a decision, through :meth:`bot.thinking.Thinker.compute`: in the decision
process (process mode, the bot's default), else in a press thread."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.model import ChatRef
from bot.presses import ReplayStep, encode
from bot.service import TableService
from bot.texts import tr
from bot.thinking import Thinker
from game.history import replay_frames
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_stats_service import _table, env, play_scripted

__all__ = ["env"]  # (the fixture, imported for these tests)


async def test_replay_frames_go_through_the_decision_process(
    env: tuple[TableService, FakePresenter, MemoryStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In process mode ``/replay`` and ◀ ▶ ask the decision worker for the frames (a fake
    worker here, recording what it is asked); none was asked before: a thread of the bot."""
    service, presenter, store = env
    winner, _ = await play_scripted(service, presenter)
    hand = (await store.hand_history(_table(service).seats[0].player_id, 1))[0]
    thinker = service.rt.thinker
    thinker.in_process = True
    asked: list[tuple[Any, tuple[object, ...]]] = []

    async def run_again_if_died(fn: Any, *args: object, logger: Any, what: str) -> Any:
        asked.append((fn, args))
        return await asyncio.to_thread(fn, *args)

    monkeypatch.setattr(thinker.worker, "run_again_if_died", run_again_if_died)
    dm = ChatRef("telegram", winner.user_id, winner.user_id, "", private=True)
    reply = await service.replay(dm, winner, f"#{hand.id}", here=True)
    assert not reply.alert and reply.screen is not None and "1 of 5" in reply.screen.text
    service.rt.replays.clear()  # (kept for ◀ ▶ since fix39j: made again here)
    step = await service.press(winner, encode(ReplayStep(hand.id, "R5", 2)), dm)
    assert not step.alert and step.screen is not None and "2 of 5" in step.screen.text
    assert [fn for fn, _ in asked] == [replay_frames, replay_frames]
    assert all(args[0] == hand.hand for _, args in asked)


async def test_replay_frames_not_made_in_time_are_refused_with_a_notice(
    env: tuple[TableService, FakePresenter, MemoryStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frames that did not come within a press's time (a worker queued behind decisions, a
    stop under way): a short notice, nothing shown."""
    service, presenter, store = env
    winner, _ = await play_scripted(service, presenter)
    hand = (await store.hand_history(_table(service).seats[0].player_id, 1))[0]

    async def late(fn: Any, *args: object) -> Any:
        raise TimeoutError

    monkeypatch.setattr(service.rt.thinker, "compute", late)
    dm = ChatRef("telegram", winner.user_id, winner.user_id, "", private=True)
    reply = await service.replay(dm, winner, str(hand.id), here=True)
    assert reply.alert and reply.screen is None
    assert reply.text == tr(winner.language or "en", "replay.busy")


async def test_a_real_decision_process_makes_the_same_frames(
    env: tuple[TableService, FakePresenter, MemoryStore],
) -> None:
    """The frames come back from the worker process (pickled) as a thread makes them."""
    service, presenter, store = env
    await play_scripted(service, presenter)
    hand = (await store.hand_history(_table(service).seats[0].player_id, 1))[0]
    thinker = Thinker(in_process=True)
    try:
        frames = await thinker.compute(replay_frames, hand.hand, 0, 3)
        assert thinker.running
    finally:
        await thinker.close()
    assert frames == replay_frames(hand.hand, 0, 3) and len(frames) == 5
