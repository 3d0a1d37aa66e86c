"""``python -m storage check`` (and ``backup``) without ``--db`` read the bot's ``.env``
and said nothing of a misspelt variable: ``DATABSE_URL=postgresql://…`` checked the SQLite
file ``ofc.sqlite3`` and printed "OK", while the bot's start warned of it (nu59). Both now
print the bot's own warning line (:func:`bot.config.unread_warning`), on standard error
(ops42); with ``--db`` the file is not read, and nothing is said."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.__main__ import main
from storage.sqlite import SqliteStore

WARNING = (
    "warning: bot.env sets DATABSE_URL (DATABASE_URL?), which the bot does not read "
    "(README's Configuration lists the variables it reads)\n"
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    asyncio.run(_made(tmp_path / "ofc.sqlite3"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    (tmp_path / "bot.env").write_text("DATABSE_URL=postgresql://ofc:secret@db/ofc\n")
    return tmp_path


@pytest.mark.parametrize("command", [["check"], ["backup", "copy.sqlite3"]])
def test_a_misspelt_variable_is_warned_of(
    folder: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    assert main([command[0], "--env-file", "bot.env", *command[1:]]) == 0
    out, err = capsys.readouterr()
    assert err == WARNING
    assert "secret" not in out + err
    assert out.splitlines()[-1] == "OK: every balance and stack matches the ledger"


def test_the_bot_s_start_says_the_same_line(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import bot.sandbox
    from bot.__main__ import main as bot_main

    async def sandbox(*_: object, **__: object) -> None:
        print("the sandbox ran")

    monkeypatch.setattr(bot.sandbox, "run_sandbox", sandbox)
    for name in ("TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN", "WORKER_ID"):
        monkeypatch.delenv(name, raising=False)
    assert bot_main(["--env-file", "bot.env", "--sandbox"]) == 0
    assert capsys.readouterr().err == WARNING


def test_with_db_the_settings_file_is_not_read(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--env-file", "bot.env", "--db", "ofc.sqlite3"]) == 0
    assert capsys.readouterr().err == ""


async def _made(path: Path) -> None:
    store = await SqliteStore.open(path)
    await store.close()
