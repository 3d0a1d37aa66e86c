"""Chinese Poker (R7) break-it findings: the screens read the running game's own target, and
the game's points are shown between hands and during the arrangement."""

from __future__ import annotations

from dataclasses import replace

from bot import render
from tests.bot.test_service_classic import (
    chinese_hand_arranged,
)


async def test_r7_1_reveal_and_claim_show_the_games_target_not_the_option() -> None:
    """A game whose target (30) differs from the table's ``target_points`` (200), as a table
    saved before a mid-game change applied to the game: the reveal's totals and the claim
    read the game's 30 (they showed "6/200", and "reached 200 points" for a game to 30)."""
    _service, _presenter, _store, clock, t = await chinese_hand_arranged("3")
    assert t.options.target_points == 200 and t.chinese is not None
    assert t.reveal is not None and t.reveal["stage"] == 1
    t.chinese = replace(t.chinese, target=30)
    text = render.group_screen(t, "en", None, clock.now).text.splitlines()
    assert "Alice · 6/30 pts" in text and "Bob · 0/30 pts" in text
    assert not any("/200" in line for line in text)
    ru = render.group_screen(t, "ru", None, clock.now).text.splitlines()
    assert "Alice · 6 очков из 30" in ru
    # Alice at a target of 6 may claim after the bottom (R7.5): the claim names the game's 6
    t.chinese = replace(t.chinese, target=6)
    t.reveal = {**t.reveal, "claim": {"seats": [0]}}
    screen = render.group_screen(t, "en", None, clock.now)
    assert "🏆 Alice reached 6 points: Claim to end the game now, or Continue the reveal." in (
        screen.text.splitlines()
    )
    assert "Alice · 6/6 pts" in screen.text.splitlines()
    ru_claim = render.group_screen(t, "ru", None, clock.now).text
    assert "🏆 Alice: цель в 6 очков достигнута." in ru_claim
    # with no game running the option is the target (the next game's)
    t.chinese = None
    assert render.game_target(t) == 200
