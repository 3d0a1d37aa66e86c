"""The Telegram adapter (python-telegram-bot 22): commands and button presses in, messages out."""

import os

# Opt in to python-telegram-bot's timedelta durations now (RetryAfter.retry_after and friends);
# without it every 429 emits a deprecation warning.
os.environ.setdefault("PTB_TIMEDELTA", "1")

from bot.telegram.adapter import TelegramAdapter, TelegramPresenter

__all__ = ["TelegramAdapter", "TelegramPresenter"]
