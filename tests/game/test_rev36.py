"""rev36: a malformed action read from a log is refused as :class:`GameError` naming its
type and fields, never its cards (R3.3), whatever the malformed part is."""

from __future__ import annotations

from typing import Any

import pytest

from game.actions import action_from_json
from game.errors import GameError


@pytest.mark.parametrize(
    ("data", "hidden"),
    [
        # a card text that is two cards: CardError quoted it ("not a card: 'As Kd'")
        ({"type": "timeout", "seat": 0, "placed": [["As Kd", None]]}, ("As", "Kd")),
        ({"type": "arrange", "seat": 1, "placements": [["Qh Jc", "top"]]}, ("Qh", "Jc")),
        ({"type": "discard", "seat": 0, "card": "7d 8d"}, ("7d", "8d")),
        # a card that is no text: AttributeError ('int' object has no attribute 'strip')
        ({"type": "timeout", "seat": 0, "placed": [[5, "top"], ["9s", None]]}, ("9s",)),
        ({"type": "place", "seat": 0, "card": 5, "box": "top"}, ()),
    ],
)
def test_a_malformed_card_is_refused_naming_no_card(
    data: dict[str, Any], hidden: tuple[str, ...]
) -> None:
    with pytest.raises(GameError) as err:
        action_from_json(data)
    text = str(err.value)
    assert text.startswith(f"malformed action: type {data['type']!r}")
    for code in hidden:
        assert code not in text
