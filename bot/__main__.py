"""``python -m bot`` (or ``ofc-bot``): run the bot with the tokens from ``.env``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

from bot.config import ConfigError, load_settings

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad configuration)."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the OFC bot.")
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.env_file)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if not settings.has_token:
        print(
            "error: no bot token set: put TELEGRAM_BOT_TOKEN (or DISCORD_BOT_TOKEN) in .env "
            "(see .env.example)",
            file=sys.stderr,
        )
        return 2
    from bot.app import run

    try:
        asyncio.run(run(settings))
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
