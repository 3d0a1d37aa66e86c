"""fixops37: ``python -m storage check --env-file typo.env`` (a file that does not exist)
checked the default ``ofc.sqlite3`` without a word (``backup`` copied it); both refuse a
settings file given with ``--env-file`` that is not there, in one line, exit status 2, as the
bot says "there is no typo.env". A missing default ``.env`` is still read as none (the
variables may come from the environment)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.__main__ import main
from storage.sqlite import SqliteStore


@pytest.mark.parametrize("command", [["check"], ["backup", "copy.sqlite3"]])
def test_a_missing_env_file_is_refused_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    asyncio.run(_make(tmp_path / "ofc.sqlite3"))  # the default file, there to be read
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main([command[0], "--env-file", "typo.env", *command[1:]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "error: there is no typo.env (--env-file names the bot's settings file)\n"
    assert not (tmp_path / "copy.sqlite3").exists()
    # without --env-file a missing .env is none, as for the bot: the default file is read
    assert main(command) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "copy.sqlite3: backup of ofc.sqlite3 written"
        if command[0] == "backup"
        else "ofc.sqlite3: 0 communities, 0 players, 0 tables, 0 hands, 0 ledger rows"
    )


async def _make(path: Path) -> None:
    store = await SqliteStore.open(path)
    await store.close()
