"""The worker processes of :mod:`bot.workers` as a terminal's Ctrl-C reaches them."""

from __future__ import annotations

import asyncio
import os
import signal

from bot.workers import ProcessWorker


async def test_a_worker_ignores_ctrl_c_which_the_bot_handles() -> None:
    """Ctrl-C reaches the whole foreground process group: each worker (the drawing one and
    the decisions') died of it with a KeyboardInterrupt traceback under the sandbox's "bye"
    (README: "/quit (or Ctrl-C) exits"). A worker now ignores SIGINT: it keeps running and
    takes the next task, and the bot's stop shuts it down."""
    worker = ProcessWorker()
    try:
        pid = await worker.run(os.getpid)
        assert pid != os.getpid()
        os.kill(pid, signal.SIGINT)
        await asyncio.sleep(0.5)
        assert await worker.run(os.getpid) == pid
    finally:
        await worker.close()
