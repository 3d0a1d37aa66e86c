"""No hidden card in the logs through an exception's text (R3.3; logs43): whoever runs the bot
may sit at its tables. :func:`bot.logs.configure_logging` installs
:class:`bot.logs.HideErrorText`, so a failure logged at ``INFO`` and above (``log.exception``,
``exc_info=``, an exception as an argument) says the error's type and the frames of its
traceback, never its text, unless it is a network error's. Driven through real paths: a
Telegram refusal quoting the private screen sent, a snapshot refused on a restart with its
value quoted."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.logs import configure_logging, failure_logged, said_by_type, text_kept
from bot.telegram.fake_api import ApiCall
from game.errors import CardError
from tests.bot.test_break15 import faces, watched
from tests.bot.test_brk25_leaks import codes, restarted
from tests.bot.test_service_classic import ALICE, BOB, GROUP, auto_street, start
from tests.bot.test_telegram_e2e import seat_everyone
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import world


def logged_at_info(caplog: pytest.LogCaptureFixture) -> str:
    """What the bot's handler would write of the records at ``INFO`` and above: each
    formatted by the capture's formatter (the filters' ``exc_text`` included)."""
    fmt = caplog.handler.formatter or logging.Formatter()
    return "\n".join(fmt.format(r) for r in caplog.records if r.levelno >= logging.INFO)


async def test_r3_3_a_telegram_refusal_quoting_a_private_hand_is_logged_without_its_cards(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram refuses Alice's first hand message with a 400 whose description quotes the
    message sent (her dealt cards, on its buttons). The adapter logs it with
    ``log.exception`` ("cannot write the private message of …"): the line says
    ``BadRequest`` and the frames of the bot's own code it came through, never the
    description (it printed ``telegram.error.BadRequest: Bad Request: … 'A♥ Top' …
    p:Aht …``, Alice's hidden cards, at ERROR)."""
    configure_logging("INFO", stream=io.StringIO())  # (as python -m bot: on caplog's handler)
    caplog.set_level(logging.INFO)
    refused: dict[str, Any] = {"ok": False, "error_code": 400, "description": ""}
    quoted: list[str] = []

    def alices_hand(call: ApiCall) -> bool:
        body = f"{call.params.get('text', '')} {call.params.get('reply_markup', '')}"
        if call.method != "sendMessage" or int(call.params.get("chat_id", 0)) != TG_ALICE.id:
            return False
        if not faces(body):  # (her hand: its cards on its buttons)
            return False
        refused["description"] = f"Bad Request: can't parse entities in {body!r}"
        quoted.append(body)
        return True

    async with world(tmp_path) as w:
        w.fake.started_users.update({TG_ALICE.id, TG_BOB.id})
        w.fake.fail_when(alices_hand, 400, refused)
        await seat_everyone(w, [TG_ALICE, TG_BOB])
        await w.fake.wait_for(lambda: quoted)
        await w.settle()
        await w.adapter.presenter.flush()
    hand = faces(quoted[0])
    assert hand, quoted  # (the refusal quoted her dealt cards)
    text = logged_at_info(caplog)
    assert f"cannot write the private message of {TG_ALICE.id}" in text, text
    assert "BadRequest: [text withheld]" in text, text  # (its type)
    assert 'bot/telegram/adapter.py", line' in text, text  # (where: the frames)
    assert "can't parse entities" not in text, text
    assert not faces(text), [c.face for c in faces(text)]
    assert not [c for c in hand if c.code_str() in text], text


async def test_r3_3_a_snapshot_that_does_not_decode_is_logged_without_its_cards(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A table's snapshot of another shape: its hand's seats written as Bob's dealt cards.
    Read back at a restart, ``int()`` refuses the value with a ``ValueError`` quoting it
    (not a game error, so logged with ``log.exception`` by the recovery): the table closes
    with a refund, and the line names the table, ``ValueError`` and the frames, never the
    cards (it printed ``ValueError: invalid literal for int() with base 10: '…'``)."""
    configure_logging("INFO", stream=io.StringIO())
    service, w, store, clock = watched()
    await start(service, [ALICE, BOB], "pineapple")
    t = service.table_in(GROUP)
    assert t is not None and t.hand is not None
    bob = t.seat_of(BOB.user_id)
    assert bob is not None
    await auto_street(service, w, ALICE)
    await service.stop()
    hidden = t.hand.to_place(bob.seat)  # Bob's street: hidden from Alice
    snap = json.loads(store._snapshots[t.id])
    snap["hand"]["setup"]["seats"][1] = " ".join(c.code_str() for c in hidden)
    store._snapshots[t.id] = json.dumps(snap)
    with caplog.at_level(logging.INFO):
        again, _w2 = restarted(store, clock)
        await again.start()
    assert again.table_in(GROUP) is None  # (closed with a refund)
    text = logged_at_info(caplog)
    assert f"table {t.id}: cannot restore; refunding" in text, text
    assert "ValueError: [text withheld]" in text, text
    assert 'bot/service/recovery.py", line' in text, text
    assert "invalid literal" not in text, text
    assert not [c for c in hidden if c.code_str() in text or c.face in text], text
    assert not faces(text) and not codes(text), text
    await again.stop()


async def test_r3_3_a_failed_background_task_s_error_is_said_by_type_a_network_error_in_full(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """:func:`bot.logs.failure_logged` (a presenter's writer, a nudge) logs "… failed: %r"
    with the exception as an argument and its traceback: a game error's text (a card) is
    withheld there too, its code kept; a network error's text stays whole, for the
    operator; a ``DEBUG`` record is left as it was logged."""
    configure_logging("DEBUG", stream=io.StringIO())
    caplog.set_level(logging.DEBUG)

    hidden = "".join(("A", "♠"))  # (not in the source: a traceback shows its lines)

    async def refused() -> None:
        raise CardError(f"{hidden} is not in your hand")

    async def offline() -> None:
        raise ConnectionError("Connection refused by 10.0.0.7:443")

    for fn, what in ((refused, "a Telegram write"), (offline, "a Discord write")):
        task = failure_logged(asyncio.create_task(fn()), what)
        await asyncio.wait([task])
        await asyncio.sleep(0)  # (its done callback)
    logging.getLogger("bot.tasks").debug("developer's view: %r", CardError("K♥ twice"))
    text = logged_at_info(caplog)
    assert "a Telegram write failed: CardError [text withheld] code=bad_card" in text, text
    assert "game.errors.CardError: [text withheld] code=bad_card" in text, text
    assert "A♠" not in text and "K♥" not in text, text
    assert "a Discord write failed: ConnectionError('Connection refused by 10.0.0.7:443')" in text
    assert "ConnectionError: Connection refused by 10.0.0.7:443" in text, text
    assert "developer's view: CardError('K♥ twice')" in caplog.text  # (DEBUG: as logged)


def test_which_errors_keep_their_text() -> None:
    """A platform's 400 (its verdict on the message's content, which it may quote) and
    every kind not known to be the network's are withheld; the network's errors and a
    platform's refusals of a permission, a gone chat or a flood are kept (fixed phrases)."""
    import discord
    from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TimedOut

    kept = [
        TimeoutError(),
        ConnectionResetError(),
        TimedOut(),
        Forbidden("Forbidden: bot was blocked by the user"),
        RetryAfter(3),
        ChatMigrated(-100),
        sqlite3.OperationalError("database is locked"),  # (SQLite says no bound value)
        sqlite3.IntegrityError("UNIQUE constraint failed: seats.table_id"),
    ]
    withheld = [
        BadRequest("Bad Request: message is not modified"),
        CardError("A♠ is not in your hand"),
        KeyError("As"),
        ValueError("'Kh' is not a valid Box"),
        json.JSONDecodeError("Expecting value", '{"deck": "As Kh"', 9),
        RuntimeError("boom"),
    ]
    assert [text_kept(e) for e in kept] == [True] * len(kept)
    assert [text_kept(e) for e in withheld] == [False] * len(withheld)
    response = type("R", (), {"status": 400, "reason": "Bad Request"})()
    refused = discord.HTTPException(response, {"code": 50035, "message": "A♠ Top"})
    assert not text_kept(refused)
    assert said_by_type(refused) == "HTTPException [text withheld] status=400 code=50035"
    forbidden = discord.Forbidden(response, {"code": 50007, "message": "Cannot send"})
    assert text_kept(forbidden)


def _fail_in_the_worker(card: str) -> str:
    """Run in the decision process: a failure logged there as ``game.hand`` logs a failed
    ``safe_autoplay`` (no handler in the worker: :data:`logging.lastResort`, to the
    standard error); what it wrote."""
    out = io.StringIO()
    with contextlib.redirect_stderr(out):  # (lastResort writes to sys.stderr as it is now)
        try:
            raise CardError(f"{card} is not one of this street's cards")
        except CardError:
            logging.getLogger("game.hand").exception("safe_autoplay failed for seat 1")
    return out.getvalue()


async def test_r3_3_a_failure_logged_in_the_decision_process_is_said_by_type() -> None:
    """The worker process logs to the bot's standard error through ``logging.lastResort``,
    no handler of the bot's there: its initializer hides the errors' texts there too (it
    wrote ``game.errors.CardError: Q♣ is not one of this street's cards``)."""
    from bot.workers import ProcessWorker

    worker = ProcessWorker()
    try:
        written = await worker.run(_fail_in_the_worker, "".join(("Q", "♣")))
    finally:
        await worker.close()
    assert "safe_autoplay failed for seat 1" in written, written
    assert "game.errors.CardError: [text withheld] code=bad_card" in written, written
    assert "♣" not in written, written  # (the source line shows "{card}", not the card)
