"""The logging set-up of one test does not reach the next (tests/conftest.py,
``_kept_logging``; tst40). A test that ran ``python -m bot``'s ``main`` in the process
(tests/bot/test_nu54_cluster_refusals.py: a start refused for its database) left the bot's
log handler on the root logger, writing to that test's ``capsys`` stream, and the root at
``INFO``. When the same xdist worker later started its PostgreSQL server (pgserver logs at
``INFO``) inside tests/storage/test_backup_cli.py's check of an empty database, each record
printed "--- Logging error ---" (the stream was closed) into that test's standard error,
which it reads exactly: the flake. The two tests are run here in that order in one process,
as they met in a worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: a test that configures logging as ``bot.__main__.main`` does, then one that logs at INFO
#: (as pgserver does at a server's start) and reads its standard error exactly
TESTS = """
import logging
import sys

import pytest

from bot.logs import configure_logging


def test_a_bot_start_in_the_process(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("INFO")  # (to sys.stderr: this test's capsys stream)
    logging.getLogger("bot.app").info("bot running")
    assert "INFO bot.app: bot running" in capsys.readouterr().err


def test_then_a_test_that_reads_its_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    logging.getLogger("pgserver").info("Running commandline: pg_ctl start")
    print("error: nothing to check", file=sys.stderr)
    assert capsys.readouterr().err == "error: nothing to check\\n"
    assert logging.getLogger().level == logging.WARNING
"""


def test_a_bot_start_s_logging_is_gone_before_the_next_test(tmp_path: Path) -> None:
    (tmp_path / "test_two.py").write_text(TESTS)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
            "-p", "no:randomly", "-p", "tests.conftest", "--rootdir", str(tmp_path),
            str(tmp_path / "test_two.py"),
        ],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "2 passed" in run.stdout, run.stdout
