"""The Telegram adapter (python-telegram-bot 22): commands and button presses in, messages out.

:class:`TelegramAdapter` and :class:`TelegramPresenter` are imported at their first use: the
router imports :mod:`bot.telegram.one_bot` and never the adapter, whose import (the table
service with it) was most of the router's start and memory (fix40f)."""

import os
from typing import TYPE_CHECKING, Any

# Opt in to python-telegram-bot's timedelta durations now (RetryAfter.retry_after and friends);
# without it every 429 emits a deprecation warning.
os.environ.setdefault("PTB_TIMEDELTA", "1")

if TYPE_CHECKING:
    from bot.telegram.adapter import TelegramAdapter, TelegramPresenter

__all__ = ["TelegramAdapter", "TelegramPresenter"]


def __getattr__(name: str) -> Any:
    """``TelegramAdapter`` and ``TelegramPresenter`` from :mod:`bot.telegram.adapter`, which is
    imported then (once read they are names of this package)."""
    if name in __all__:
        from bot.telegram import adapter

        value = getattr(adapter, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
