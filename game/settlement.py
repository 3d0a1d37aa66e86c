"""Kush settlement of a finished hand (R8.4, R5.7, R7.6).

Points become kush pairwise: for each pair, the loser pays ``points × kush_per_point`` to the
winner. Pairs are applied in the given order (R5.7: for three players, the two after the button
first, then the first after the button with the button, then the button with the second), each
transfer capped by what the paying player still has at that moment, so nobody wins more than
an opponent has at the table nor loses more than they have (R8.4). The result is zero-sum and
no stack goes negative.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.errors import SettlementError

__all__ = ["Settlement", "Transfer", "settle"]


@dataclass(frozen=True, slots=True)
class Transfer:
    """Kush moved from ``payer`` to ``payee``; ``owed`` is the uncapped amount (R8.4)."""

    payer: int
    payee: int
    owed: int
    amount: int

    @property
    def capped(self) -> bool:
        """The payer could not cover what was owed."""
        return self.amount < self.owed


@dataclass(frozen=True, slots=True)
class Settlement:
    """The transfers of one settlement and the stacks before and after (kush).

    ``deltas[seat]`` is ``after - before``; the deltas always sum to zero.
    """

    transfers: tuple[Transfer, ...]
    before: Mapping[int, int]
    after: Mapping[int, int]

    @property
    def deltas(self) -> dict[int, int]:
        """Change of each stack (kush)."""
        return {s: self.after[s] - self.before[s] for s in self.before}

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form: transfers and stacks (seat keys as strings)."""
        return {
            "transfers": [
                {"payer": t.payer, "payee": t.payee, "owed": t.owed, "amount": t.amount}
                for t in self.transfers
            ],
            "before": {str(k): v for k, v in self.before.items()},
            "after": {str(k): v for k, v in self.after.items()},
        }


def settle(
    pairs: Sequence[tuple[int, int, int]],
    stacks: Mapping[int, int],
    kush_per_point: int = 1,
) -> Settlement:
    """Turn pairwise points into capped kush transfers (R8.4, R5.7).

    :param pairs: ``(a, b, points)`` in settlement order, ``points`` being what ``a`` receives
        from ``b`` (negative: ``a`` pays ``b``).
    :param stacks: every involved seat's stack at the table before settlement (kush, ≥ 0).
    :param kush_per_point: kush per point (R7.6).
    :raises SettlementError: on a negative stack, an unknown seat or ``kush_per_point < 1``.
    """
    if kush_per_point < 1:
        raise SettlementError("kush_per_point must be at least 1")
    for seat, stack in stacks.items():
        if stack < 0:
            raise SettlementError(f"seat {seat} has a negative stack: {stack}")
    current = dict(stacks)
    transfers: list[Transfer] = []
    for a, b, points in pairs:
        if a not in current or b not in current:
            raise SettlementError(f"unknown seat in pair ({a}, {b})")
        if points == 0:
            continue
        payer, payee = (b, a) if points > 0 else (a, b)
        owed = abs(points) * kush_per_point
        amount = min(owed, current[payer])
        current[payer] -= amount
        current[payee] += amount
        transfers.append(Transfer(payer, payee, owed, amount))
    return Settlement(tuple(transfers), dict(stacks), current)
