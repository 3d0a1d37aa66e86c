"""Break session 77: hidden information (R3.3, R4.5, R6.3: hole cards and Fantasyland boards
never in a group message before the showdown, discards never at all) on paths off the board
render: what the bot logs as it reads a table back after a restart (whoever runs the bot may
sit at its tables: docs/playing.md "Errors and names", docs/architecture.md)."""

from __future__ import annotations

import json
import logging

import pytest

from bot.service.runtime import owed_from_json, owed_to_json
from tests.bot.test_break15 import faces, watched
from tests.bot.test_service_classic import ALICE, BOB, GROUP, start


async def test_r3_3_an_unreadable_owed_private_message_is_logged_without_its_cards(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A table's snapshot keeps the private messages it still owes (a hand screen with the
    player's hole cards). One item of them that cannot be read back (a seat of another
    shape, written by another release) is left out with a warning: the warning names the
    table and the seat, never the message's cards (it logged the whole item, the private
    screen's text and its buttons' card payloads, at WARNING)."""
    service, _w, _store, _clock = watched()
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    seat = t.seat_of(ALICE.user_id)
    assert seat is not None
    screen = service.rt.render_private(t, seat)
    shown = faces(" ".join(b.label for b in screen.all_buttons()))
    assert len(shown) == 5, screen  # (the dealt street is on its buttons)
    items = json.loads(json.dumps(owed_to_json({seat.seat: (seat, screen)})))
    del items[0]["was"]["user_id"]  # (a seat that does not read)
    with caplog.at_level(logging.INFO):
        assert owed_from_json(t.id, items) == {}
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert f"table {t.id}" in logged and f"seat {seat.seat}" in logged, logged
    assert not faces(logged), logged
    assert not [c for c in shown if c.code_str() in logged], logged
