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
from tests.bot.test_brk25_leaks import codes, restarted
from tests.bot.test_service_classic import ALICE, BOB, GROUP, auto_street, start


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


async def test_r3_3_a_snapshot_whose_hand_does_not_replay_is_logged_without_its_cards(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A table's snapshot whose hand log does not fit its deal any more (an action naming a
    card the street did not deal: a record from another release, or written by hand) cannot
    be restored: the table is closed with a refund and the failure logged. The log line
    (its traceback too) names the table, never a card of the hand: the refused action's
    card is another player's hidden card (it said "Q♣ is not one of this street's cards"
    in code form)."""
    service, _w, store, clock = watched()
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    alice = t.seat_of(ALICE.user_id)
    bob = t.seat_of(BOB.user_id)
    assert alice is not None and bob is not None
    await auto_street(service, _w, ALICE)  # (Alice's first street placed and confirmed)
    await service.stop()
    snap = json.loads(store._snapshots[t.id])
    actions = snap["hand"]["actions"]
    placed = next(a for a in actions if a.get("card"))
    hidden = t.hand.to_place(bob.seat)[0]  # a card of Bob's street: hidden from Alice
    placed["card"] = hidden.code_str()
    store._snapshots[t.id] = json.dumps(snap)
    with caplog.at_level(logging.INFO):
        again, _w2 = restarted(store, clock)
        await again.start()
    assert again.table_in(GROUP) is None  # (closed with a refund: nothing to resume)
    logged = "\n".join(
        r.getMessage() + (logging.Formatter().formatException(r.exc_info) if r.exc_info else "")
        for r in caplog.records
    )
    assert f"table {t.id}: cannot restore" in logged, logged
    assert "CardNotInHand" in logged, logged  # (what failed: its type and code)
    assert hidden.code_str() not in logged and hidden.face not in logged, logged
    assert not faces(logged) and not codes(logged), logged  # (no card of the hand at all)
    await again.stop()
