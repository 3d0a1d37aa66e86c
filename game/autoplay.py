"""Auto-placement on timeout (R8.5).

Cards go, in the order they were received, to the bottom box, then middle, then top (first
free slot); on a street with discards the first cards received are placed and the rest
discarded (streets 2–5: the first two placed, the third discarded; a Fantasyland hand: the
first 13 placed, the rest discarded). Cards the player already put down on this street stay
where they are; only the rest is placed this way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from game.board import Box
from game.cards import Card

__all__ = ["auto_street"]

_FILL_ORDER = (Box.BOTTOM, Box.MIDDLE, Box.TOP)


def auto_street(
    cards: Sequence[Card], free: Mapping[Box, int], discards: int
) -> list[tuple[Card, Box | None]]:
    """Place ``cards`` (in received order) by R8.5.

    :param cards: the street's cards not yet placed, in the order received.
    :param free: free slots per box after what is already placed.
    :param discards: how many of ``cards`` must be discarded.
    :returns: ``(card, box)`` per card, box ``None`` for a discard.
    """
    slots = dict(free)
    keep = len(cards) - discards
    out: list[tuple[Card, Box | None]] = []
    for i, c in enumerate(cards):
        if i >= keep:
            out.append((c, None))
            continue
        for box in _FILL_ORDER:
            if slots.get(box, 0) > 0:
                slots[box] -= 1
                out.append((c, box))
                break
        else:  # pragma: no cover - the plan always has room for the kept cards
            out.append((c, None))
    return out
