"""The bot's processes run numpy's BLAS on one thread unless told otherwise (``bot``'s
import): BLAS threads spun on the small matrices of the computer players' fitted value,
doubling a decision's CPU and lagging the event loop (bench/bench_thinking.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = (
    "import bot, numpy, os; "
    "print(os.environ.get('OPENBLAS_NUM_THREADS'), os.environ.get('OMP_NUM_THREADS'))"
)


def _run(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    clean["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-c", SHOW], env={**clean, **env}, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_importing_the_bot_sets_one_blas_thread_before_numpy_loads() -> None:
    assert _run() == "1 1"


def test_a_thread_count_set_in_the_environment_stays() -> None:
    assert _run(OPENBLAS_NUM_THREADS="2") == "2 1"


async def test_the_decision_worker_runs_blas_on_one_thread() -> None:
    """The decision process comes from the forkserver, which inherits the bot's
    environment: its numpy reads the one thread too."""
    from bot.workers import ProcessWorker

    worker = ProcessWorker()
    try:
        got = await worker.run(os.getenv, "OPENBLAS_NUM_THREADS")
    finally:
        await worker.close()
    assert got == os.environ.get("OPENBLAS_NUM_THREADS") == "1"
