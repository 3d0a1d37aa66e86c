"""One bot process per SQLite file (fixlock): two plain ``python -m bot`` started on one
``DATABASE_PATH`` both restored the same tables and served them, each sending its messages
(twice in the group) and taking steps the other then refused as "changed meanwhile". The
second start is now refused in one line (exit status 2); workers (``WORKER_ID``) still share
a file, but not with a plain bot or a sandbox, nor with a worker of the same ``WORKER_ID``."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.app import run
from bot.config import ConfigError, Settings
from bot.dblock import hold_database, hold_worker, let_go
from bot.telegram.fake_api import FakeTelegram
from bot.texts import tr
from tests.bot.cluster.harness import free_port
from tests.bot.test_config import base_env
from tests.bot.test_sandbox import sandbox

TOKEN = "123456:" + "K" * 35


def busy(db: Path) -> str:
    """The line a plain bot is refused with."""
    return (
        f"another bot (or a sandbox) is running on the SQLite database {db.resolve()}: stop it "
        "first, or give this one its own DATABASE_PATH (several processes on one database are "
        "workers, each with its own WORKER_ID: docs/operations.md)"
    )


def settings_for(telegram: FakeTelegram, db: Path, worker: str | None = None) -> Settings:
    """A bot (a worker with ``worker``) on ``db``, polling ``telegram``."""
    return Settings(
        telegram_bot_token=SecretStr(TOKEN),
        telegram_api_base_url=telegram.base_url,
        database_path=str(db),
        worker_id=worker,
        worker_listen=f"127.0.0.1:{free_port()}",
        _env_file=None,  # type: ignore[call-arg]
    )


@asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[asyncio.Task[None]]:
    """:func:`bot.app.run` started until it has logged "bot running" (its tables restored),
    stopped at the end."""
    started = asyncio.Event()
    stop = asyncio.Event()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("bot.app.settle_heap", started.set)  # (called once the bot runs)
        task = asyncio.create_task(run(settings, stop))
        waiting = asyncio.ensure_future(started.wait())
        await asyncio.wait({task, waiting}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        assert started.is_set() and not task.done()
    try:
        yield task
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)


async def second_process_refused_then_killed_one_frees(
    tmp_path: Path, env: dict[str, str], line: str
) -> None:
    """``python -m bot`` (environment ``env``, run in ``tmp_path``) started twice: asserts
    the second prints ``error: {line}`` alone and exits 2; then the first is killed (SIGKILL:
    no stop of its own) and asserts a third start runs and stops with status 0 (SIGTERM)."""

    async def start() -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env,  # (no .env in tmp_path)
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=tmp_path,
        )  # fmt: skip

    async def until_running(proc: asyncio.subprocess.Process) -> None:
        assert proc.stderr is not None
        while b"bot running" not in (got := await asyncio.wait_for(proc.stderr.readline(), 60)):
            assert got, "the bot ended before it ran"

    first = await start()
    try:
        await until_running(first)
        second = await start()
        out, err = await asyncio.wait_for(second.communicate(), 60)
        assert (second.returncode, out, err.decode()) == (2, b"", f"error: {line}\n")
        first.send_signal(signal.SIGKILL)
        await asyncio.wait_for(first.wait(), 30)
        third = await start()
        try:
            await until_running(third)
        finally:
            third.send_signal(signal.SIGTERM)
            await asyncio.wait_for(third.communicate(), 60)
        assert third.returncode == 0
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegram]:
    fake = FakeTelegram(TOKEN)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def test_a_second_bot_on_the_file_is_refused_until_the_first_stops(
    tmp_path: Path, telegram: FakeTelegram
) -> None:
    db = tmp_path / "ofc.sqlite3"
    async with running(settings_for(telegram, db)):
        asked = len(telegram.calls_of("getMe"))
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(settings_for(telegram, db), asyncio.Event()), 30)
        assert str(caught.value) == busy(db)
        assert db.is_file()  # the refused start removed nothing of the first one's
        assert len(telegram.calls_of("getMe")) == asked  # nor went as far as the Bot API
    async with running(settings_for(telegram, db)):  # the first stopped: the file is free
        pass


async def test_a_second_bot_process_exits_2_with_one_line_and_a_killed_one_frees_the_file(
    tmp_path: Path, telegram: FakeTelegram
) -> None:
    """``python -m bot`` twice: the second prints the one line and exits 2; the first, killed
    (SIGKILL: no stop of its own), leaves the file to the next start (the OS drops the lock)."""
    db = tmp_path / "ofc.sqlite3"
    env = {
        **base_env(),
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_BASE_URL": telegram.base_url,
        "DATABASE_PATH": str(db),
    }
    await second_process_refused_then_killed_one_frees(tmp_path, env, busy(db))


async def test_workers_share_the_file_but_not_with_a_bot_or_their_own_worker_id(
    tmp_path: Path, telegram: FakeTelegram
) -> None:
    db = tmp_path / "ofc.sqlite3"
    async with running(settings_for(telegram, db, "w1")), running(settings_for(telegram, db, "w2")):
        with pytest.raises(ConfigError) as caught:  # a plain bot among them
            await asyncio.wait_for(run(settings_for(telegram, db), asyncio.Event()), 30)
        assert str(caught.value) == busy(db)
        with pytest.raises(ConfigError) as caught:  # a worker w1 again
            await asyncio.wait_for(run(settings_for(telegram, db, "w1"), asyncio.Event()), 30)
        assert str(caught.value) == (
            f"another worker with WORKER_ID=w1 is running on the SQLite database {db.resolve()}: "
            "give each worker its own WORKER_ID"
        )
    async with running(settings_for(telegram, db)):  # the workers stopped: a plain bot runs
        with pytest.raises(ConfigError) as caught:  # and a worker is refused beside it
            await asyncio.wait_for(run(settings_for(telegram, db, "w3"), asyncio.Event()), 30)
        assert str(caught.value) == (
            f"a bot without WORKER_ID or a sandbox is running on the SQLite database "
            f"{db.resolve()}: workers share a file only with workers; stop it first"
        )
    async with running(settings_for(telegram, db, "w1")):  # and w1 once more, alone
        pass


async def test_a_bot_and_a_sandbox_on_one_file_refuse_each_other(
    tmp_path: Path, telegram: FakeTelegram
) -> None:
    db = tmp_path / "sandbox.sqlite3"  # (the file the sandbox helper plays on)
    async with running(settings_for(telegram, db)):
        async with sandbox(tmp_path, "--sandbox") as term:
            assert term.proc.stdin is not None and term.proc.stdout is not None
            term.proc.stdin.close()
            out = (await asyncio.wait_for(term.proc.stdout.read(), 60)).decode().splitlines()
            status = await asyncio.wait_for(term.proc.wait(), 30)
        assert (status, out[-1]) == (2, tr("en", "sandbox.db_busy", path=db)), out
    async with sandbox(tmp_path, "--sandbox") as term:
        await term.read_until(r"^Sandbox: ")
        with pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(settings_for(telegram, db), asyncio.Event()), 30)
        assert str(caught.value) == busy(db)
        with pytest.raises(ConfigError):  # nor a worker
            await asyncio.wait_for(run(settings_for(telegram, db, "w1"), asyncio.Event()), 30)
        await term.quit()


def test_the_locks_are_the_descriptors_and_go_with_them(tmp_path: Path) -> None:
    """:mod:`bot.dblock` on its own: exclusive against anything, shared against exclusive
    only, a worker's byte against the same ``WORKER_ID`` only; all gone once let go."""
    db = tmp_path / "x.sqlite3"
    one = hold_database(db)
    assert one is not None and db.is_file()  # (made empty, as SQLite would)
    assert hold_database(db) is None and hold_database(db, shared=True) is None
    let_go(one)
    w1, w2 = hold_database(db, shared=True), hold_database(db, shared=True)
    assert w1 is not None and w2 is not None and hold_database(db) is None
    assert hold_worker(w1, "w1") and hold_worker(w2, "w2")
    assert not hold_worker(w2, "w1") and not hold_worker(w1, "w2")
    let_go(w1)
    assert hold_worker(w2, "w1")  # w1's descriptor gone: its byte free
    let_go(w2)
    let_go(None)
    again = hold_database(db)
    assert again is not None
    let_go(again)
    with pytest.raises(OSError):
        hold_database(tmp_path / "missing" / "x.sqlite3")
