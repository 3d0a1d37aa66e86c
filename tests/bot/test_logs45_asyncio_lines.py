"""No hidden card in the logs through asyncio's own error lines (R3.3; logs45): whoever runs
the bot may sit at its tables. asyncio's default exception handler writes its context into
the message itself, "Task exception was never retrieved" then ``future: <Task finished …
exception=CardError('A♠ is not in your hand')>``: the error's repr inside the message, not
an argument nor the record's exception, so :class:`bot.logs.HideErrorText` (logs43, logs44)
let it through. It now says such an error by its type there too; the task's name and
coroutine, the callback's name, stay; a callback's arguments (any value) are not written; a
network error's text is kept."""

from __future__ import annotations

import asyncio
import gc
import io

from bot.logs import WITHHELD, configure_logging
from game.errors import CardError

#: a hidden card, as an error's text names it
ACE = "".join(("A", "♠"))


def _logged(level: str = "INFO") -> io.StringIO:
    """The bot's logging set-up (:func:`configure_logging`) writing to a fresh stream."""
    stream = io.StringIO()
    configure_logging(level, secrets=[], stream=stream)
    return stream


async def _unretrieved(exc: BaseException) -> None:
    """A task that raises ``exc``, nobody retrieving it, collected: asyncio reports it."""

    async def placing() -> None:
        raise exc

    task = asyncio.get_running_loop().create_task(placing(), name="table-7-send")
    await asyncio.sleep(0)
    assert task.done()
    del task
    gc.collect()


async def test_r3_3_a_task_error_never_retrieved_is_said_by_type_in_asyncios_line() -> None:
    """On the old code the line read ``exception=CardError('A♠ is not in your hand')``."""
    stream = _logged()
    await _unretrieved(CardError(f"{ACE} is not in your hand"))
    text = stream.getvalue()
    assert "ERROR asyncio: Task exception was never retrieved" in text, text
    assert "name='table-7-send'" in text and "placing()" in text, text  # (which task)
    assert f"exception=CardError {WITHHELD} code=bad_card>" in text, text
    assert ACE not in text and "is not in your hand" not in text, text


async def test_r3_3_an_error_in_a_callback_is_said_by_type_in_asyncios_line() -> None:
    """A callback that raises: asyncio's line names its handle; the error's repr in a
    future the handle holds (a done callback's argument) is said by its type."""
    stream = _logged()
    loop = asyncio.get_running_loop()
    failed: asyncio.Future[None] = loop.create_future()
    refused = CardError(f"{ACE} twice")
    failed.set_exception(refused)

    def look(done: asyncio.Future[None]) -> None:
        raise done.exception() or RuntimeError()

    loop.call_soon(look, failed)
    await asyncio.sleep(0)
    text = stream.getvalue()
    assert "ERROR asyncio: Exception in callback" in text, text
    assert "look(…) at " in text and "handle: <Handle " in text, text  # (which callback)
    assert ACE not in text and "twice" not in text, text
    assert f"CardError: {WITHHELD} code=bad_card" in text, text  # (the traceback's last line)


async def test_a_network_error_keeps_its_text_a_card_is_hidden_under_debug_too() -> None:
    """A refused connection's text holds no card: kept for the operator. asyncio's line is
    an ``ERROR`` record: hidden under a ``DEBUG`` set-up too."""
    stream = _logged()
    await _unretrieved(ConnectionRefusedError("Connection refused by 10.0.0.7:443"))
    assert "Connection refused by 10.0.0.7:443" in stream.getvalue(), stream.getvalue()
    stream = _logged("DEBUG")
    await _unretrieved(CardError(f"{ACE} is not in your hand"))
    assert ACE not in stream.getvalue(), stream.getvalue()  # (ERROR: hidden at any set-up)
