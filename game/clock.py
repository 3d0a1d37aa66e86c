"""A player's clock for one hand: the time budget and the time bank (R8.5).

Values are frozen; times are wall-clock seconds (``time.time()`` style floats) passed in by
the caller, so a restarted service rebuilds the same deadlines and tests use a fixed "now".
The budget runs only while it is the player's turn; when it is spent the bank runs; when both
are spent the move is made for the player (the service applies :class:`game.hand.Timeout`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

__all__ = ["SeatClock"]


@dataclass(frozen=True, slots=True)
class SeatClock:
    """Seconds left of the budget and of the bank; ``running_since`` is set while it runs;
    ``fantasyland``: the budget is (or includes) the player's Fantasyland arrangement's own
    (R8.5), given when the arrangement's turn came (:meth:`arrangement`) or at the deal."""

    budget: float
    bank: float
    running_since: float | None = None
    fantasyland: bool = False

    @property
    def running(self) -> bool:
        """Whether the clock is counting now."""
        return self.running_since is not None

    def start(self, now: float) -> SeatClock:
        """Start counting at ``now`` (no change if already running)."""
        return self if self.running_since is not None else replace(self, running_since=now)

    def stop(self, now: float) -> SeatClock:
        """Stop counting at ``now``: the elapsed time comes off the budget, then the bank."""
        if self.running_since is None:
            return self
        budget, bank = self.left(now)
        return replace(self, budget=budget, bank=bank, running_since=None)

    def left(self, now: float) -> tuple[float, float]:
        """(budget, bank) seconds left at ``now``: ``(0.0, 0.0)`` from :meth:`deadline` on
        (computed as a difference, the bank left at the deadline itself could be a rounding
        error above 0, say 4.8e-08 s, and a press at that instant counted, R8.5)."""
        if self.running_since is None:
            return self.budget, self.bank
        if now >= self.running_since + self.budget + self.bank:
            return 0.0, 0.0
        spent = max(0.0, now - self.running_since)
        budget = self.budget - spent
        if budget >= 0:
            return budget, self.bank
        return 0.0, max(0.0, self.bank + budget)

    def in_bank(self, now: float) -> bool:
        """Whether the budget is spent and the bank is running (R8.5)."""
        return self.left(now)[0] <= 0

    def deadline(self, grace: float | None = None) -> float | None:
        """When budget and bank will both be spent, if running; else ``None``. With ``grace``
        (a tournament player away, R8.7): at most ``grace`` seconds after this turn's clock
        started, whatever budget and bank are left."""
        if self.running_since is None:
            return None
        end = self.running_since + self.budget + self.bank
        return end if grace is None else min(end, self.running_since + grace)

    def expired(self, now: float, grace: float | None = None) -> bool:
        """Budget and bank are both spent at ``now`` (or, with ``grace``, this turn's
        ``grace`` seconds are over: :meth:`deadline`)."""
        budget, bank = self.left(now)
        if budget <= 0 and bank <= 0:
            return True
        end = self.deadline(grace)
        return end is not None and now >= end

    def arrangement(self, budget: float, now: float) -> SeatClock:
        """The Fantasyland arrangement's own ``budget`` from ``now`` (R8.5), when its turn comes
        after the player's ordinary board (double boxes, R4.2, R6.3): the time that board
        took comes off as usual until ``now``, what is left of its budget is not carried
        over (each has its own), the bank is kept, and the clock runs as it did."""
        left = self.stop(now)
        fresh = SeatClock(budget, left.bank, None, fantasyland=True)
        return fresh.start(now) if self.running else fresh

    def with_budget(self, budget: float) -> SeatClock:
        """A fresh budget for a new hand, keeping the bank (R8.5: the bank does not refill)."""
        return SeatClock(budget, self.bank, None)

    def refill_bank(self, seconds: float, cap: float) -> SeatClock:
        """Give back ``seconds`` of bank, at most up to ``cap`` (R8.5 refill per match)."""
        return replace(self, bank=min(cap, self.bank + seconds))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        out: dict[str, Any] = {
            "budget": self.budget,
            "bank": self.bank,
            "running_since": self.running_since,
        }
        if self.fantasyland:
            out["fantasyland"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatClock:
        """Inverse of :meth:`to_json`."""
        return cls(
            float(data["budget"]),
            float(data["bank"]),
            data.get("running_since"),
            bool(data.get("fantasyland", False)),
        )
