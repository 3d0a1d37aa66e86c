"""brk59: break-it round on fixw37's worker starts (:mod:`bot.workers`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The bot's event loop ends (its asyncio.run returns) while a worker's start, in its daemon
# thread (fixw37), has the forkserver fork the worker but has not yet handed it its process
# object: the connection is held up here so that this happens every time.
_EXIT_MID_START = """
import asyncio, threading, time
import multiprocessing.forkserver as forkserver
from bot.workers import ProcessWorker

connect = forkserver.connect_to_new_process
forked = threading.Event()

def slow(fds):
    out = connect(fds)  # (the worker is forked: it waits for its process object)
    forked.set()
    time.sleep(1.0)
    return out

forkserver.connect_to_new_process = slow

async def main():
    ProcessWorker().start_soon()
    await asyncio.to_thread(forked.wait, 30)

asyncio.run(main())
print("ended")
"""


def test_the_bots_exit_mid_start_prints_no_traceback() -> None:
    """fixw37 moved a worker's start to a daemon thread of its own, which the interpreter's
    exit no longer waited for (the event loop's default pool was joined by asyncio.run): a
    bot that exited within a second or two of its start (or after its stop gave a slow
    start up) left the worker being made half-way, and the worker printed ``EOFError: Ran
    out of input`` (or, a moment later, ``FileNotFoundError`` for its pool's semaphores,
    unlinked by the bot's exit) under the bot's exit. The exit now gives the starts under
    way up and waits for them (``EXIT_SECONDS`` at most) to kill the workers they made."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", _EXIT_MID_START],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "ended\n", "")
