"""num42: amounts of chips and kush a player reads are grouped as every other amount
(:func:`bot.texts.grouped`: English from 1,000, Russian from 10 000 with a no-break space).

1. A tournament's settlement line (the Chinese Poker reveal's, a hand's showdown: R8.7,
   :func:`bot.service.tournaments.after_settlement`) joined each stack with ``str``: "chips:
   Alice 10400" under a table message reading "Alice 10,400".
2. ``lobby.buy_in_returned`` (a buy-in lowered between hands) left ``{paid}`` bare: "1,600
   kush of the 12000 paid went back"; ``paid`` is an amount of kush now (``_amounts``).
"""

from __future__ import annotations

import pytest

from bot.service import tournaments
from bot.texts import tr
from tests.bot.test_service import GROUP
from tests.bot.test_tournament_service import PLAYERS, configure, new_service, open_and_register

NBSP = "\u00a0"


@pytest.mark.parametrize(("lang", "amount"), [("en", "10,400"), ("ru", f"10{NBSP}400")])
async def test_r8_7_the_settlement_line_groups_each_player_s_chips(lang: str, amount: str) -> None:
    """The line the reveal (and a hand's showdown) adds after a tournament settlement names
    every stack as the table message does: 10,400 (Russian 10 400), not 10400."""
    service, _presenter, _store, _clock = new_service(0.0)
    try:
        await configure(service, tournament_chips="10400")
        await open_and_register(service, PLAYERS)
        t = service.table_in(GROUP)
        assert t is not None and t.tournament is not None and t.hand is not None
        settled = t.tournament.settle([])  # (no points: every stack stays 10,400)
        line = tournaments.after_settlement(t, settled)(lang)[0]
        names = sorted(t.seats.items())
        chips = ", ".join(f"{seat.name} {amount}" for _, seat in names)
        assert line.endswith(chips), line
        assert "10400" not in line
    finally:
        await service.stop()


@pytest.mark.parametrize(("lang", "paid"), [("en", "10,400"), ("ru", f"10{NBSP}400")])
def test_r8_2_the_buy_in_returned_groups_what_was_paid(lang: str, paid: str) -> None:
    """ "… 1,600 kush of the 12000 paid went back": the amount paid is grouped as the others."""
    text = tr(lang, "lobby.buy_in_returned", name="Alice", buy_in=8800, paid=10400,
              amount=1600, label="kush")  # fmt: skip
    assert f" {paid} " in text, text
    assert "10400" not in text
