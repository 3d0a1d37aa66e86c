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
