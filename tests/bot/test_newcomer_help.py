"""newcomer: ``python -m bot --help``, the first thing a new operator runs, said only "Run the
OFC bot.": not where the tokens come from, nor that without one the same command plays the
local sandbox (README's quick start), which most of its flags are for."""

from __future__ import annotations

import pytest


def test_help_says_where_the_tokens_come_from_and_that_none_is_the_sandbox(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The description names both token variables, ``.env`` and ``.env.example``, and says
    that with no token set the command starts the sandbox."""
    from bot.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "with TELEGRAM_BOT_TOKEN and DISCORD_BOT_TOKEN from .env" in text
    assert ".env.example lists every setting" in text
    assert "With no token set it starts the local sandbox instead" in text
