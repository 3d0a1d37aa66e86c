"""An operator's URLs without their scheme (nu50): ``TELEGRAM_API_BASE_URL=127.0.0.1:8081/bot``
stopped the start with "cannot reach the Telegram Bot API (aiohttp.NonHttpUrlClientError)";
``TELEGRAM_WEBHOOK_URL=bot.example.com/telegram`` started a webhook server on the path
``bot.example.com/telegram`` and registered a URL Telegram cannot post to. Both are refused
by the settings in one line naming the variable and the form it takes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings

API = (
    "TELEGRAM_API_BASE_URL must be an http:// or https:// URL of a Bot API server "
    "(e.g. http://127.0.0.1:8081/bot), or empty for Telegram's"
)
HOOK = (
    "TELEGRAM_WEBHOOK_URL must be the public https:// URL Telegram posts updates to "
    "(e.g. https://bot.example.com/telegram), or empty to poll"
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("TELEGRAM_API_BASE_URL=127.0.0.1:8081/bot", API),
        ("TELEGRAM_API_BASE_URL=localhost:8081", API),
        ("TELEGRAM_API_BASE_URL=ftp://127.0.0.1/bot", API),
        ("TELEGRAM_API_BASE_URL=http://", API),
        ("TELEGRAM_WEBHOOK_URL=bot.example.com/telegram", HOOK),
        ("TELEGRAM_WEBHOOK_URL=https:/bot.example.com/telegram", HOOK),
    ],
)
def test_a_url_without_its_scheme_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("TELEGRAM_API_BASE_URL", "TELEGRAM_WEBHOOK_URL", "TELEGRAM_WEBHOOK_SECRET"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text(f"{line}\nTELEGRAM_WEBHOOK_SECRET=s3cret\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(".env")
    assert str(caught.value) == expected


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("TELEGRAM_API_BASE_URL=http://127.0.0.1:8081/bot", "telegram_api_base_url"),
        ("TELEGRAM_API_BASE_URL= HTTPS://api.example.com ", "telegram_api_base_url"),
        ("TELEGRAM_WEBHOOK_URL=https://bot.example.com/telegram", "telegram_webhook_url"),
        ("TELEGRAM_WEBHOOK_URL=http://127.0.0.1:8443/hook", "telegram_webhook_url"),
    ],
)
def test_urls_with_their_scheme_are_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    for var in ("TELEGRAM_API_BASE_URL", "TELEGRAM_WEBHOOK_URL", "TELEGRAM_WEBHOOK_SECRET"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / ".env").write_text(f"{line}\nTELEGRAM_WEBHOOK_SECRET=s3cret\n", encoding="utf-8")
    settings = load_settings(".env")
    assert getattr(settings, name) == line.partition("=")[2].strip()
