"""No hidden card in the logs through an exception inside a container argument (R3.3;
logs44): :class:`bot.logs.HideErrorText` says by its type an exception in a list, tuple, set
or dict passed to a log call (``log.warning("…: %r", [..., exc])``, the results of
``asyncio.gather(..., return_exceptions=True)``), as it did one passed alone; a network
error's text is kept, the caller's objects are not changed, a ``DEBUG`` record is written as
logged."""

from __future__ import annotations

import asyncio
import io
import logging

from bot.logs import WITHHELD, configure_logging
from game.errors import CardError

#: a hidden card, as an error's text names it
ACE = "".join(("A", "♠"))
KING = "".join(("K", "♥"))


def _logged(level: str = "INFO") -> tuple[io.StringIO, logging.Logger]:
    """The bot's logging set-up (:func:`configure_logging`) writing to a fresh stream, and a
    logger of this test."""
    stream = io.StringIO()
    configure_logging(level, secrets=[], stream=stream)
    return stream, logging.getLogger("logs44")


def test_r3_3_an_error_in_a_dict_argument_is_said_by_type_the_dict_unchanged() -> None:
    """A dict beside another argument, and one two deep (a list in a dict): on the old code
    only an exception passed alone (or a lone dict's values) was hidden, and these lines
    printed ``CardError('A♠ is not in your hand')``."""
    stream, log = _logged()
    refused = CardError(f"{ACE} is not in your hand")
    failure = {"seat": 1, "error": refused}
    nested = {"seats": [2, CardError(f"{KING} twice")]}
    log.warning("table %s: a press failed: %r", 7, failure)
    log.info("table %s: %r", 8, nested)
    text = stream.getvalue()
    said = f"CardError {WITHHELD} code=bad_card"
    assert f"table 7: a press failed: {{'seat': 1, 'error': {said}}}" in text, text
    assert f"table 8: {{'seats': [2, {said}]}}" in text, text
    assert ACE not in text and KING not in text, text
    assert failure == {"seat": 1, "error": refused} and failure["error"] is refused  # (as given)
    assert nested["seats"][1].__class__ is CardError


async def test_r3_3_gathered_errors_logged_as_a_list_are_said_by_type_network_ones_kept() -> None:
    """The results of ``asyncio.gather(..., return_exceptions=True)``, a list, logged with
    ``%r`` (and as a tuple, with ``%s``): a game error's text is withheld, a refused
    connection's kept for the operator; on the old code both printed whole."""
    stream, log = _logged()

    async def refused() -> None:
        raise CardError(f"{ACE} is not in your hand")

    async def offline() -> None:
        raise ConnectionRefusedError("Connection refused by 10.0.0.7:443")

    async def fine() -> int:
        return 3

    results = await asyncio.gather(refused(), offline(), fine(), return_exceptions=True)
    log.error("writers ended: %r", results)
    log.warning("writers ended (%d): %s", len(results), tuple(results))
    text = stream.getvalue()
    said = f"CardError {WITHHELD} code=bad_card"
    offline_repr = "ConnectionRefusedError('Connection refused by 10.0.0.7:443')"
    assert f"writers ended: [{said}, {offline_repr}, 3]" in text, text
    assert f"writers ended (3): ({said}, {offline_repr}, 3)" in text, text
    assert ACE not in text, text
    assert isinstance(results[0], CardError) and results[2] == 3  # (the caller's list as it was)


def test_a_debug_record_with_an_error_in_a_list_is_written_as_logged() -> None:
    """``DEBUG`` is the developer's level: an error in a list argument keeps its text
    there (as one passed alone, logs43); at ``INFO`` the same call withholds it."""
    stream, log = _logged("DEBUG")
    log.debug("developer's view: %r", [CardError(f"{KING} twice")])
    log.info("operator's view: %r", [CardError(f"{KING} twice")])
    text = stream.getvalue()
    assert f"developer's view: [CardError('{KING} twice')]" in text, text
    assert f"operator's view: [CardError {WITHHELD} code=bad_card]" in text, text


async def test_r3_3_a_discord_connection_ended_by_a_bug_is_said_by_type_and_place() -> None:
    """The Discord client's task ends with an error of no known kind (a bug's, whose text
    may quote a card): the one error line, and the line handed to ``on_ended`` (the start's
    ``error:`` line), say its type and where it was raised, not its text; on the old code
    the line was ``its connection ended (CardError('A♠ is not in your hand'))``, written into
    the message where :class:`bot.logs.HideErrorText` cannot see it."""
    from bot.discord import DiscordAdapter
    from bot.service import TableService
    from storage.memory import MemoryStore

    stream, _log = _logged()
    adapter = DiscordAdapter(TableService(MemoryStore()), "A" * 24 + "." + "B" * 6 + ".C")
    ended: list[str] = []
    adapter.on_ended = ended.append

    async def broken() -> None:
        raise CardError(f"{ACE} is not in your hand")

    task = asyncio.create_task(broken())
    await asyncio.wait([task])
    adapter._connection_ended(task)
    text = stream.getvalue()
    said = f"its connection ended (CardError {WITHHELD} code=bad_card at tests.bot.test_logs44"
    assert said in text, text
    assert ended and said in ended[0], ended
    assert ACE not in text and ACE not in ended[0], (text, ended)
