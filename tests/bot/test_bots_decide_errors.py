"""bots: a computer player's decision that raises in the decision process (issue 13,
``DECISIONS_IN_PROCESS``). A ``RuntimeError`` of the decision itself (a ``RecursionError``
say) was taken for the process failing: logged with its text (which may name the seat's
hidden cards or discard) as "the decision process failed (...)" and made again in a thread
of the bot, on the event loop's process. It is what :meth:`Thinker.decide` documents: what
the decision raised, raised once, its text in no log line."""

from __future__ import annotations

import logging

import pytest

from bot.thinking import Thinker
from game.board import Box
from game.cards import Card, parse_cards
from game.options import RuleOptions
from game.policy import Level, SeatKnowledge

pytestmark = pytest.mark.production_decisions

#: decisions made in this process (a thread of the bot), not in the worker
IN_THE_BOT: list[SeatKnowledge] = []


def failing(k: SeatKnowledge, level: Level) -> list[tuple[Card, Box | None]]:
    """A decision that fails naming the seat's cards (as a bug in a policy might)."""
    IN_THE_BOT.append(k)
    raise RecursionError(f"no placement for {' '.join(str(c) for c in k.cards)}")


async def test_a_decisions_own_runtime_error_is_raised_once_and_never_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from game.board import Board

    cards = parse_cards("As Kd Qh Jc Tc")
    k = SeatKnowledge(Board(), cards, 0, frozenset(), 0, RuleOptions())
    thinker = Thinker(in_process=True)
    caplog.set_level(logging.DEBUG)
    IN_THE_BOT.clear()
    try:
        with pytest.raises(RecursionError):
            await thinker.decide(failing, k, Level.EASY)
        with pytest.raises(RecursionError):
            await thinker.compute(failing, k, Level.EASY)
    finally:
        await thinker.close()
    assert IN_THE_BOT == []  # made in the worker only, not again in a thread of the bot
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert str(cards[0]) not in logged and "no placement" not in logged
