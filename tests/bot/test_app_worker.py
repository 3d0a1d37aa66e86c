"""The composition root as one of several workers (issue 14) starts what a single process's
start does before the first table needs it."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot import app
from bot.app import run
from bot.config import Settings
from bot.drawing import Drawer
from bot.telegram.fake_api import FakeTelegram
from bot.thinking import Thinker
from tests.bot.cluster.harness import free_port

TG_TOKEN = "123456:" + "T" * 35


async def test_a_worker_starts_the_drawing_and_decision_processes_at_its_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A single process's start (:meth:`TableService.start`) starts the drawing process and
    the decision process in the background, so the first showdown picture and the first
    "Arrange for me" after a start find them up (the first picture came a second or more
    after the last press). A worker never calls that start (its tables come by takeover):
    both processes were started only by the first picture and the first decision, on
    every worker."""
    settled: list[int] = []
    monkeypatch.setattr(app, "settle_heap", lambda: settled.append(gc.get_count()[0]))
    started: list[str] = []
    for cls in (Drawer, Thinker):
        monkeypatch.setattr(cls, "start_soon", lambda self, n=cls.__name__: started.append(n))
    telegram = FakeTelegram(TG_TOKEN)
    await telegram.start()
    settings = Settings(
        telegram_bot_token=SecretStr(TG_TOKEN),
        telegram_api_base_url=telegram.base_url,
        database_path=str(tmp_path / "ofc.sqlite3"),
        worker_id="w1",
        worker_listen=f"127.0.0.1:{free_port()}",
        _env_file=None,  # type: ignore[call-arg]
    )
    stop = asyncio.Event()
    try:
        task = asyncio.create_task(run(settings, stop))
        await telegram.wait_for(lambda: settled or task.done(), timeout=20)
        assert not task.done()
        assert sorted(started) == ["Drawer", "Thinker"]
        stop.set()
        await asyncio.wait_for(task, 30)
    finally:
        await telegram.stop()
