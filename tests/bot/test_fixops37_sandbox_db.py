"""fixops37: ``python -m bot --sandbox --sandbox-db ofc.sqlite3`` (the bot's own database,
the bot stopped) played the sandbox's group, its computer players and their kush among the
real groups', its start line calling that file "the sandbox's own file". A ``--sandbox-db``
that is the bot's ``DATABASE_PATH`` (the same file, however written) is refused in one line,
in ``--lang``, exit status 2, and nothing is written to it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import bot.sandbox
from bot.__main__ import main
from bot.config import ConfigError
from bot.sandbox import SandboxOptions
from tests.bot.test_fixlock import TOKEN


@pytest.mark.parametrize(
    ("database_path", "sandbox_db"),
    [
        (None, "ofc.sqlite3"),  # the default DATABASE_PATH
        ("data/bot.sqlite3", "./data/../data/bot.sqlite3"),
        ("ABS", "data/bot.sqlite3"),  # an absolute DATABASE_PATH, a relative --sandbox-db
    ],
)
def test_the_bots_database_is_refused_as_the_sandboxs(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    database_path: str | None,
    sandbox_db: str,
) -> None:
    async def started(opts: SandboxOptions, out: object = None) -> None:
        raise AssertionError(f"the sandbox started on {opts.db}")

    monkeypatch.setattr(bot.sandbox, "run_sandbox", started)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    monkeypatch.delenv("DATABASE_URL", raising=False)
    if database_path is None:
        monkeypatch.delenv("DATABASE_PATH", raising=False)
    else:
        path = str(tmp_path / "data/bot.sqlite3") if database_path == "ABS" else database_path
        monkeypatch.setenv("DATABASE_PATH", path)
    args = ["--sandbox", "--sandbox-db", sandbox_db]  # (no .env in tmp_path, the cwd)
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no start line (it called this file "the sandbox's own file")
    assert err == (
        f"error: {sandbox_db} is the bot's database (DATABASE_PATH): the sandbox never plays "
        "on it; give --sandbox-db a file of its own (default sandbox.sqlite3)\n"
    )
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["data"]  # nothing written
    assert main([*args, "--lang", "ru"]) == 2
    assert capsys.readouterr().err == (
        f"ошибка: {sandbox_db} — база бота (DATABASE_PATH): песочница никогда не играет на "
        "ней; дайте --sandbox-db свой файл (по умолчанию sandbox.sqlite3)\n"
    )


async def _refusal(db: Path) -> str:
    """The text of the :class:`ConfigError` the bot (on a fake Telegram, its SQLite database
    ``db``) stops with at its start; asserts it took no update before."""
    from bot.app import run
    from bot.telegram.fake_api import FakeTelegram
    from tests.bot.test_fixlock import settings_for

    telegram = FakeTelegram(TOKEN)
    await telegram.start()
    try:
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(settings_for(telegram, db), asyncio.Event()), 30)
    finally:
        await telegram.stop()
    assert not telegram.calls_of("getUpdates")  # it took no update
    return str(caught.value)


async def test_the_bot_refuses_a_database_holding_the_sandboxs_table(tmp_path: Path) -> None:
    """The other way round: ``DATABASE_PATH=sandbox.sqlite3`` (the sandbox's file) restored
    the sandbox's table in the real bot, which wrote to its made-up group. A bot whose SQLite
    database holds the sandbox's open table stops in one line naming the file; nothing in it
    is changed."""
    from bot.sandbox import GROUP_ID
    from storage.sqlite import SqliteStore

    db = tmp_path / "sandbox.sqlite3"
    store = await SqliteStore.open(db)
    try:
        community = await store.community("telegram", str(GROUP_ID))
        table = await store.create_table(community.id, str(GROUP_ID), {}, 100)
    finally:
        await store.close()
    assert await _refusal(db) == (
        f"DATABASE_PATH={db} is the sandbox's database (it holds the sandbox's table): give "
        "the bot its own file (python -m bot --sandbox plays on its own, --sandbox-db)"
    )
    store = await SqliteStore.open(db)
    try:
        assert await store.chat_table("telegram", str(GROUP_ID)) == table.id  # still open
    finally:
        await store.close()


async def test_the_bot_refuses_the_sandboxs_database_with_its_table_closed(tmp_path: Path) -> None:
    """fix38e: the sandbox's file after ``/closetable`` (its group, its made-up players and
    their kush, no table open) passed the check, which looked for the sandbox's open table
    only: the bot ran on it. It stops in one line naming the file, as with the table open."""
    from bot.sandbox import GROUP_ID
    from storage.sqlite import SqliteStore

    db = tmp_path / "sandbox.sqlite3"
    store = await SqliteStore.open(db)
    try:
        community = await store.community("telegram", str(GROUP_ID))
        table = await store.create_table(community.id, str(GROUP_ID), {}, 100)
        await store.close_table(table.id)
        assert await store.chat_table("telegram", str(GROUP_ID)) is None
    finally:
        await store.close()
    assert await _refusal(db) == (
        f"DATABASE_PATH={db} is the sandbox's database (it holds the sandbox's group): give "
        "the bot its own file (python -m bot --sandbox plays on its own, --sandbox-db)"
    )


async def test_the_bot_runs_on_its_own_database_with_another_group(tmp_path: Path) -> None:
    """The check reads the sandbox's group only: a database of a real group passes it."""
    from bot.app import _not_the_sandboxs
    from storage.sqlite import SqliteStore

    db = tmp_path / "ofc.sqlite3"
    store = await SqliteStore.open(db)
    try:
        await store.community("telegram", "-1001234567890")
        await _not_the_sandboxs(store, str(db))  # (no error)
    finally:
        await store.close()
