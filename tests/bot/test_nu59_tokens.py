"""Tokens pasted with what surrounded them (nu59): a Telegram token copied from a Bot API
URL (``bot123456:ABC…``), a Discord one from an Authorization header (``Bot MTIz…``), or
the Discord application id in its place, said only "does not look like a bot token". The
line says what to change, never the token."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings

TG = "123456:" + "T" * 35
DC = "M" * 24 + ".GaBcDe." + "d" * 38


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        (
            "TELEGRAM_BOT_TOKEN",
            "bot" + TG,
            'TELEGRAM_BOT_TOKEN begins with the "bot" of the Bot API\'s URLs: write the token '
            "alone, digits:secret as @BotFather gave it",
        ),
        (
            "DISCORD_BOT_TOKEN",
            "Bot " + DC,
            'DISCORD_BOT_TOKEN begins with "Bot ": write the token alone',
        ),
        (
            "DISCORD_BOT_TOKEN",
            "123456789012345678",
            "DISCORD_BOT_TOKEN is a number, the application id: the token is on the Developer "
            "Portal's Bot tab (Reset Token)",
        ),
        # (anything else as before)
        (
            "TELEGRAM_BOT_TOKEN",
            "123",
            "TELEGRAM_BOT_TOKEN does not look like a bot token (digits:secret from @BotFather)",
        ),
    ],
)
def test_a_token_with_its_surroundings_says_what_to_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str
) -> None:
    env = tmp_path / ".env"
    env.write_text(f"{name}={value}\n")
    for variable in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN"):
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(ConfigError) as caught:
        load_settings(str(env))
    assert str(caught.value) == said
    assert TG not in str(caught.value) and DC not in str(caught.value)


def test_the_tokens_alone_are_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / ".env"
    env.write_text(f"TELEGRAM_BOT_TOKEN={TG}\nDISCORD_BOT_TOKEN={DC}\n")
    for variable in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN"):
        monkeypatch.delenv(variable, raising=False)
    settings = load_settings(str(env))
    assert settings.telegram_bot_token is not None
    assert settings.telegram_bot_token.get_secret_value() == TG
    assert settings.discord_bot_token is not None
    assert settings.discord_bot_token.get_secret_value() == DC
