"""fix40c: one press of 🪄 Arrange for me could think twice its time. Since fix39g a press whose
street's placed cards make a foul certain decides the street afresh (``play._afresh``, R3.4)
and, when that placement fouls too, decides again for the cards still to place: two decisions,
each given :data:`~bot.thinking.PRESS_SECONDS` of its own by :meth:`Thinker.decide
<bot.thinking.Thinker.decide>`, so the press could hold its table for twice that. Both now
share one deadline, :func:`~bot.thinking.press_seconds` from the press's start (in
production :data:`~bot.thinking.PRESS_SECONDS`). No wall-clock timing: the press's clock is
stubbed and the decisions counted by a fake."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

import pytest

from bot import thinking
from bot.service import play
from bot.thinking import PRESS_SECONDS, Moves, Thinker, press_seconds
from game.board import Box
from game.cards import parse_cards
from game.policy import Level, SeatKnowledge, decide, knowledge
from tests.bot.test_fix39g_arrange import _arrange, _chinese

#: the press's start on the stubbed clock
START = 1000.0


class FakeClock:
    """A :func:`time.monotonic` that moves only when told."""

    def __init__(self) -> None:
        self.now = START

    def monotonic(self) -> float:
        return self.now


async def test_a_press_making_two_decisions_thinks_press_seconds_in_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Chinese Poker, eight of Alice's cards placed fouled (AAA on top of a middle of no
    pair), five to place. The first decision (the thirteen afresh) takes 9 of the 10 seconds
    and fouls too, so a second decides the five; it is handed what is left of the press's
    one deadline (1 s), not 10 s more: every decision's deadline is at most
    ``PRESS_SECONDS`` after the press began, and the worker is never waited for past it.
    Without the fix the second decision had ``START + 9 + PRESS_SECONDS``."""
    service, t, board = await _chinese({"As Ah Ad": "top", "2c 3c 4c 5c 8h": "middle"})
    hand = t.hand  # type: ignore[attr-defined]
    rest = knowledge(hand, board)  # (what the second decision is asked: the five)
    clock = FakeClock()
    monkeypatch.setattr(play, "time", SimpleNamespace(monotonic=clock.monotonic))
    asked: list[dict[str, Any]] = []

    async def counted(
        fn: Any, k: SeatKnowledge, level: Level, *, within: float | None = None, **kw: Any
    ) -> Moves:
        until = kw.get("until")
        # (what the real Thinker does without an ``until``: press_seconds from now)
        deadline = until if until is not None else clock.now + press_seconds(within or 0.0)
        asked.append({"at": clock.now, "within": within, "deadline": deadline, "k": k})
        if len(asked) == 1:  # the street afresh: slow, and fouled again
            clock.now += 9.0
            top, middle = parse_cards("As Ah Ad"), parse_cards("2c 3c 4c 5c 8h")
            rest = [c for c in k.cards if c not in top and c not in middle]
            return [
                *((c, Box.TOP) for c in top),
                *((c, Box.MIDDLE) for c in middle),
                *((c, Box.BOTTOM) for c in rest),
            ]
        return decide(k, Level.NORMAL)

    monkeypatch.setattr(service.rt.thinker, "decide", counted)
    await _arrange(service, t, board)
    assert len(asked) == 2  # the afresh decision, then the rest
    assert len(asked[0]["k"].cards) == 13 and asked[1]["k"] == rest
    assert [a["deadline"] for a in asked] == [START + PRESS_SECONDS] * 2
    for a in asked:  # the worker is never waited for past the press's deadline
        assert a["within"] is not None and a["at"] + a["within"] <= START + PRESS_SECONDS
    # the total handed out: the first's time taken plus the second's budget
    spent = asked[1]["at"] - START
    assert spent + (asked[1]["deadline"] - asked[1]["at"]) <= PRESS_SECONDS
    # the five placed around the eight (fouled: no placement of the eight kept fouls nothing)
    assert hand.board_of(board, with_pending=True).is_complete


def test_press_seconds_is_the_press_bound_unless_the_worker_is_given_longer() -> None:
    assert press_seconds(play.ARRANGE_SECONDS) == PRESS_SECONDS == 10.0
    assert press_seconds(60.0) == 60.0  # (a test's "no time limit" for the worker)


async def _given_up(thinker: Thinker, k: SeatKnowledge, fn: Any, until: float) -> None:
    """``thinker.decide(fn, ...)`` of a press with ``until`` ends at once with TimeoutError
    (checked within 5 s of the real clock: no timing assert, a bound for a failing run)."""
    task = asyncio.ensure_future(
        thinker.decide(fn, k, Level.STRONG, within=60.0, instead=Level.NORMAL, until=until)
    )
    done, _ = await asyncio.wait({task}, timeout=5)
    assert task in done, "the decision was waited for past its press's deadline"
    assert isinstance(task.exception(), TimeoutError)


@pytest.mark.parametrize("in_process", [False, True])
async def test_the_thinker_waits_for_no_decision_past_the_press_s_deadline(
    monkeypatch: pytest.MonkeyPatch, in_process: bool
) -> None:
    """A press's ``until`` already passed (the press's first decision took its time): the
    second is given up at once, in a thread (thread mode) and in the worker then the
    thread (process mode), though ``within`` alone would wait 60 s for the worker; one
    with time left is made."""
    service, t, board = await _chinese({})
    k = knowledge(t.hand, board)  # type: ignore[attr-defined]
    clock = FakeClock()
    monkeypatch.setattr(thinking, "time", SimpleNamespace(monotonic=clock.monotonic))
    release = threading.Event()

    def hung(k: SeatKnowledge, level: Level) -> Moves:
        release.wait(30)
        return []

    if in_process:

        def silent(*_args: Any, **_kw: Any) -> asyncio.Future[Moves]:
            return asyncio.get_running_loop().create_future()  # (never answered)

        monkeypatch.setattr(thinking.ProcessWorker, "run_again_if_died", silent)
    thinker = Thinker(in_process=in_process)
    try:
        await _given_up(thinker, k, hung, START - 0.5)
        await _given_up(thinker, k, hung, START)
        if not in_process:  # (a quick decision with time left is made)
            got = await thinker.decide(decide, k, Level.NORMAL, within=0.7, until=START + 5)
            assert {c for c, _b in got} == set(k.cards) and len(got) == len(k.cards)
    finally:
        release.set()
        await thinker.close()
        await service.stop()
