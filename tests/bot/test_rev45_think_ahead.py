"""rev45: a computer player's decision started ahead (:func:`bot.service.bots.think_ahead`)
from what its seat knew before is cancelled when the seat's knowledge has changed and a new
one is started: it was replaced in ``rt.thinking`` and left running, keeping the decision
process (or a thread) busy for a result thrown away."""

from __future__ import annotations

import asyncio
import logging
import re

import pytest

from bot.service import bots
from game.board import Box
from game.cards import Card
from game.policy import Level, SeatKnowledge, knowledge
from storage.check import check_store
from tests.bot.test_bots import alice_and_a_bot, held_decisions, play_hand_with_bots
from tests.bot.test_service import ALICE, GROUP, press_auto_and_confirm
from tests.waiting import until

CARD = "A♠"


async def test_a_decision_from_knowledge_gone_stale_is_cancelled_and_the_new_one_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The computer player's decision is started from what it knows before Alice places her
    street (the second hand: she acts first); she places it and the decision is started
    again from what it knows now: the first is cancelled (it was left to run), the thinker is
    not given up on, and the computer player moves by the second when its time comes (no
    third decision asked)."""
    service, presenter, store, clock = await alice_and_a_bot()
    rt = service.rt
    t = service.table_in(GROUP)
    assert t is not None
    await play_hand_with_bots(service, presenter, clock)
    while t.hand is None:
        clock.now += 5
        await service.run_due()
    hand = t.hand
    bot = next(s.seat for s in t.seats.values() if s.bot)
    assert hand.to_act != (bot,)  # (Alice first)
    gate, asked = held_decisions(monkeypatch, 30)
    given_up: list[bool] = []
    monkeypatch.setattr(rt.thinker, "given_up", lambda: given_up.append(True))
    bots.think_ahead(rt, t, [bot])
    first = rt.thinking[(t.id, bot)][1]
    await until(lambda: len(asked) == 1, what="the first decision is being made")
    await press_auto_and_confirm(service, presenter, ALICE)
    assert hand.to_act == (bot,) and asked[0] != knowledge(hand, bot)
    bots.think_ahead(rt, t, [bot])
    k, second = rt.thinking[(t.id, bot)]
    assert second is not first and k == knowledge(hand, bot)
    await asyncio.wait([first], timeout=5)
    assert first.cancelled()  # (it ran on, its result thrown away)
    assert not second.done()
    gate.set()
    await asyncio.wait([second], timeout=5)
    assert second.done() and not second.cancelled() and second.exception() is None
    assert t.bot_due is not None
    clock.now = t.bot_due
    await service.run_due()
    assert hand.to_act != (bot,)  # it moved, by the second decision
    assert len(asked) == 2 and asked[1] == k
    assert given_up == []
    assert (t.id, bot) not in rt.thinking
    await service.stop()
    assert await check_store(store) == []


async def test_a_computer_player_s_failed_decision_is_logged_without_the_error_s_text(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A computer player's decision fails with an error naming its hidden card: its street
    is made by the timeout rule (R8.5), and the log says the error's type and where it was
    raised, never its text nor traceback (it was ``log.exception``; ops42 made the timer
    step's line so, and this one ran inside that step)."""

    def failing(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
        raise RuntimeError(f"no placement for the hidden {CARD}")

    monkeypatch.setattr(bots, "decide", failing)
    service, _presenter, store, clock = await alice_and_a_bot()
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None and t.bot_due is not None
    bot = next(s.seat for s in t.seats.values() if s.bot)
    assert t.hand.to_act == (bot,)
    clock.now = t.bot_due
    with caplog.at_level(logging.INFO):
        await service.run_due()
    assert t.hand.to_act != (bot,)  # (moved by the timeout rule)
    [record] = [r for r in caplog.records if "could not decide" in r.getMessage()]
    # (the stand-in raises in this test: placed at the innermost line of the bot's own code
    # calling it, the decision's thread or process, ops43)
    assert re.fullmatch(
        rf"table {t.id}: computer player at seat {bot} could not decide "
        r"\(RuntimeError at bot\.thinking:\d+\)",
        record.getMessage(),
    ), record.getMessage()
    assert record.exc_info is None
    assert CARD not in caplog.text
    assert await check_store(store) == []
