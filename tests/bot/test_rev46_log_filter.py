"""Review rev46: :class:`bot.logs.HideErrorText` (logs43) never raises into the code that
logs: an exception whose numbered attribute is a property that warns or raises (aiohttp's
``ClientResponseError.code`` warns a ``DeprecationWarning``) is said by its type, the
record written."""

from __future__ import annotations

import io
import logging

import aiohttp
import pytest

from bot.logs import WITHHELD, configure_logging


class _Odd(Exception):
    """An error whose ``status`` property raises (a library's computed attribute); its
    ``code``, an integer held as a value, is still said."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.code = 7

    @property
    def status(self) -> int:
        raise RuntimeError("no response")


def _response_error() -> aiohttp.ClientResponseError:
    return aiohttp.ClientResponseError(
        request_info=None,  # type: ignore[arg-type]
        history=(),
        status=400,
        message="Bad Request: A♠",
    )


@pytest.mark.parametrize("make", [_response_error, lambda: _Odd("K♥")])
def test_an_error_with_an_odd_attribute_is_logged_by_its_type(make: object) -> None:
    """On the old code the warning (an error under the tests' warnings-as-errors, as under
    ``-W error``) or the property's own error came out of ``log.error``: the record lost
    and the caller's ``except`` block interrupted."""
    stream = io.StringIO()
    configure_logging(logging.INFO, secrets=[], stream=stream)
    exc = make()  # type: ignore[operator]
    try:
        raise exc
    except Exception:
        logging.getLogger("rev46").exception("write failed: %r", exc)
    text = stream.getvalue()
    assert f"write failed: {type(exc).__name__} {WITHHELD}" in text
    assert f"{type(exc).__name__}: {WITHHELD}" in text
    assert "♠" not in text and "♥" not in text
    if isinstance(exc, _Odd):
        assert f"_Odd {WITHHELD} code=7" in text
