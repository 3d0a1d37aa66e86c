"""``python -m bot --router`` missing one of the two things it needs (nu59): the line said
"the router needs TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_URL" with the token set, sending
the operator to check a token that was there. It names what is missing (operations.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

TOKEN = "123456:" + "T" * 35


@pytest.mark.parametrize(
    ("env", "line"),
    [
        (
            f"TELEGRAM_BOT_TOKEN={TOKEN}\n",
            "error: the router needs TELEGRAM_WEBHOOK_URL (the public HTTPS URL Telegram posts "
            "the updates to) and TELEGRAM_WEBHOOK_SECRET: it takes them by webhook only\n",
        ),
        (
            "TELEGRAM_WEBHOOK_URL=https://bot.example.com/telegram\n"
            "TELEGRAM_WEBHOOK_SECRET=a-secret\n",
            "error: the router needs TELEGRAM_BOT_TOKEN, the workers' own\n",
        ),
        ("", "error: the router needs TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_URL\n"),
    ],
)
def test_the_router_names_what_it_misses(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: str,
    line: str,
) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    for name in (
        "TELEGRAM_BOT_TOKEN",
        "DISCORD_BOT_TOKEN",
        "DATABASE_URL",
        "WORKER_ID",
        "TELEGRAM_WEBHOOK_URL",
        "TELEGRAM_WEBHOOK_SECRET",
    ):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "router.env").write_text(env)
    assert main(["--env-file", "router.env", "--router"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", line)
    assert not (tmp_path / "ofc.sqlite3").exists()  # (refused before any database)
