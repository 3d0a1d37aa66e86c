"""One worker process of the multi-worker tests and benchmark (issue 14):
``python tests/bot/cluster/worker_child.py`` with the repository as working directory and
``PYTHONPATH``. It runs the real composition root (:func:`bot.app.run`) configured from the
environment only (``TELEGRAM_BOT_TOKEN``, ``TELEGRAM_API_BASE_URL``, ``DATABASE_PATH`` or
``DATABASE_URL``, ``WORKER_ID``, ``WORKER_LISTEN``, ``LEASE_SECONDS``, ``LOG_LEVEL``,
``DISCORD_BOT_TOKEN``, ``DISCORD_SHARD_IDS``, ``DISCORD_SHARD_COUNT``; no ``.env``), with
test hooks: no client-side rate limits (the fake Bot API has none),
``OFC_NEXT_HAND_DELAY`` seconds between hands, and ``OFC_DISCORD_API_PORT``: discord.py's
REST and gateway pointed at the fake Discord on that port of 127.0.0.1, with no spacing
between IDENTIFYs, and ``OFC_ANSWER_WITHIN``: the seconds after which it defers an
interaction (the bot's own if unset). With ``OFC_PARENT_PID`` the process kills itself when
that parent is gone. It imports nothing from ``tests``."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import signal
import threading
from typing import Any

import bot.app
import bot.service.play
import bot.telegram
from bot.config import Settings
from bot.telegram.adapter import TelegramAdapter
from bot.telegram.ratelimit import AnswerFirstRateLimiter
from game.policy import Level


class _Adapter(TelegramAdapter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["rate_limiter"] = AnswerFirstRateLimiter(
            overall_max_rate=0, group_max_rate=0, max_retries=3
        )
        super().__init__(*args, **kwargs)


def _watch_parent(parent: int) -> None:
    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os.kill(os.getpid(), signal.SIGKILL)
            threading.Event().wait(0.5)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _point_discord_at(port: int, answer_within: float | None) -> None:
    """discord.py's REST base and gateway on the fake Discord (as ``point_discord_at`` of
    ``tests/fakes/discord_api.py`` does); IDENTIFYs not spaced (the fake has no limit); an
    interaction deferred after ``answer_within`` seconds if given (else the bot's own)."""
    import discord.gateway
    import discord.http
    import yarl

    import bot.discord

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    extra: dict[str, Any] = {} if answer_within is None else {"answer_within": answer_within}
    vars(bot.discord)["DiscordAdapter"] = functools.partial(
        bot.discord.DiscordAdapter, identify_interval=0.0, **extra
    )


def main() -> None:
    env = dict(os.environ)
    if env.get("OFC_PARENT_PID"):
        _watch_parent(int(env["OFC_PARENT_PID"]))
    app = vars(bot.app)  # the names run() looks up when it is called
    app["TableService"] = functools.partial(
        bot.app.TableService, next_hand_delay=float(env.get("OFC_NEXT_HAND_DELAY", "0.5"))
    )
    vars(bot.telegram)["TelegramAdapter"] = _Adapter
    if env.get("OFC_DISCORD_API_PORT"):
        within = env.get("OFC_ANSWER_WITHIN")
        _point_discord_at(int(env["OFC_DISCORD_API_PORT"]), float(within) if within else None)
    # as in the test suite (tests/conftest.py): decisions in threads, Arrange at normal
    bot.service.play.ARRANGE_LEVEL = Level.NORMAL
    bot.service.play.FOUL_CONFIRM_MIN_SECONDS = 0.0  # (a fouled Confirm's second press)
    settings = Settings(_env_file=None, decisions_in_process=False)  # type: ignore[call-arg]
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(bot.app.run(settings))


if __name__ == "__main__":
    main()
