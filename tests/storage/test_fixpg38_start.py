"""The tests' PostgreSQL server when ``pg_ctl start`` outlasts pgserver's 10 s (fixpg38: a
loaded machine). pgserver raised ``TimeoutExpired``, tests/pg.py skipped every PostgreSQL test
of the session without a word, and the postgres it had started kept running after the session
while its data directory was deleted. Now the late server is waited for and taken, or stopped
and the start tried again; a start that still fails fails the tests with the reason, and only
a machine without pgserver skips them (and the session's end counts them).

A fake ``pg_ctl`` (a ``sleep`` process as the postmaster, its ``postmaster.pid`` written by
hand) drives most of them; the last wraps the real one, as the bug was first seen."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import tests.pg as pg

pgserver = pytest.importorskip("pgserver", reason="pgserver is not installed")


class FakePostgres:
    """``pg_ctl`` and ``initdb`` for pgserver: ``start`` runs a ``sleep`` as the postmaster,
    writes its ``postmaster.pid`` with status ``starting`` (``ready`` ``ready_after`` seconds
    later, if given) and raises ``TimeoutExpired`` as pgserver's ``pg_ctl`` does on a loaded
    machine; ``stop`` fails (a ``pg_ctl`` that cannot stop it), or kills it if
    ``stop_works``."""

    def __init__(self, ready_after: float | None = None, stop_works: bool = False) -> None:
        self.ready_after = ready_after
        self.stop_works = stop_works
        self.calls: list[list[str]] = []
        self.postmasters: list[subprocess.Popen[bytes]] = []
        self.timers: list[threading.Timer] = []

    def initdb(self, args: list[str], pgdata: Path, **kwargs: Any) -> str:
        (pgdata / "PG_VERSION").write_text("16\n")
        return ""

    def _pidfile(self, pgdata: Path, pid: int, status: str) -> None:
        lines = [str(pid), str(pgdata), str(int(time.time())), "5432", str(pgdata), "", "0 0"]
        (pgdata / "postmaster.pid").write_text("\n".join([*lines, status]) + "\n")

    def pg_ctl(self, args: list[str], pgdata: Path, **kwargs: Any) -> str:
        self.calls.append(args)
        if args[-1] == "start":
            postmaster = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
            self.postmasters.append(postmaster)
            self._pidfile(pgdata, postmaster.pid, "starting")
            (pgdata / "log").write_text("LOG:  starting PostgreSQL 16\n")  # pgserver shows it
            if self.ready_after is not None:
                ready = threading.Timer(
                    self.ready_after, self._pidfile, (pgdata, postmaster.pid, "ready")
                )
                self.timers.append(ready)
                ready.start()
            raise subprocess.TimeoutExpired(["pg_ctl", *args], 10)
        if args[-1] == "stop":
            if not self.stop_works:
                raise subprocess.CalledProcessError(1, ["pg_ctl", *args])
            for postmaster in self.postmasters:
                postmaster.kill()
                postmaster.wait(5)
            (pgdata / "postmaster.pid").unlink()
        return ""

    def starts(self) -> int:
        return sum(1 for args in self.calls if args[-1] == "start")

    def end(self) -> None:
        """Kill and reap every fake postmaster left."""
        for timer in self.timers:
            timer.cancel()
            timer.join()
        for p in self.postmasters:
            p.kill()
            p.wait(5)

    def running(self) -> list[int]:
        """The pids of the fake postmasters still running."""
        return [p.pid for p in self.postmasters if p.poll() is None]


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A session state of tests/pg.py of the test's own (the real session's server stays
    untouched), stopped afterwards; 0.5 s of waiting for a late server instead of 60."""
    monkeypatch.setattr(pg, "_state", {})
    monkeypatch.setattr(pg, "READY_WAIT_SECONDS", 0.5)
    try:
        yield
    finally:
        pg.stop_server()


def start() -> str | BaseException:
    """The server's URL, or what :func:`tests.pg.server_url` raised (a skip included, which
    would otherwise skip the test itself)."""
    try:
        return pg.server_url()
    except BaseException as e:
        return e


def fake(monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> FakePostgres:
    postgres = FakePostgres(**kwargs)
    monkeypatch.setattr(pgserver.postgres_server, "pg_ctl", postgres.pg_ctl)
    monkeypatch.setattr(pgserver.postgres_server, "initdb", postgres.initdb)
    return postgres


@pytest.mark.usefixtures("session")
def test_a_start_that_never_gets_ready_is_stopped_retried_and_fails_loudly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    postgres = fake(monkeypatch)
    try:
        failed = start()
        assert isinstance(failed, pytest.fail.Exception), failed
        pgdata = Path(pg._state["dir"].name).resolve()
        assert postgres.starts() == pg.START_ATTEMPTS == 2
        # each late server was stopped (pg_ctl stop -m immediate, then its pid killed)
        assert postgres.calls.count(["-m", "immediate", "-w", "stop"]) == 2
        assert postgres.running() == []
        assert [p.wait(5) < 0 for p in postgres.postmasters] == [True, True]
        assert str(failed) == (
            "the PostgreSQL server did not start: 2 starts failed: "
            "pg_ctl start ran out of its 10 s and the server was not ready 0.5 s later; "
            "pg_ctl start ran out of its 10 s and the server was not ready 0.5 s later"
        )
        # pgserver keeps no handle of the failed server (it would hand it out again)
        assert pgdata not in pgserver.postgres_server.PostgresServer._instances
        # every later test fails at once, without starting again
        assert isinstance(start(), pytest.fail.Exception)
        assert postgres.starts() == 2
    finally:
        postgres.end()


@pytest.mark.usefixtures("session")
def test_a_start_that_gets_ready_late_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    postgres = fake(monkeypatch, ready_after=0.2, stop_works=True)
    try:
        url = start()
        pgdata = Path(pg._state["dir"].name).resolve()
        assert postgres.starts() == 1
        assert url == f"postgresql://postgres:@/postgres?host={pgdata}"
        assert postgres.running() == [postgres.postmasters[0].pid]
        pg.stop_server()
        assert postgres.calls[-1] == ["-w", "stop"]  # pgserver's own stop at the end
        assert postgres.running() == []
        assert not pgdata.exists()
    finally:
        postgres.end()


@pytest.mark.usefixtures("session")
def test_without_pgserver_the_tests_are_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pgserver", None)  # import pgserver raises ImportError
    skipped = start()
    assert isinstance(skipped, pytest.skip.Exception), skipped
    assert str(skipped).startswith(
        f"{pg.NO_SERVER}: pgserver is not installed (pip install -e '.[dev]'): "
    )
    assert "dir" not in pg._state


def test_the_session_end_counts_the_skipped_postgresql_tests() -> None:
    from tests.conftest import pytest_terminal_summary

    lines: list[str] = []

    class Skipped:
        def __init__(self, reason: str) -> None:
            self.longrepr = ("test_x.py", 1, f"Skipped: {reason}")

    class Reporter:
        stats: ClassVar[dict[str, list[Any]]] = {
            "skipped": [
                Skipped(f"{pg.NO_SERVER}: pgserver is not installed"),
                Skipped(f"{pg.NO_SERVER}: pgserver is not installed"),
                Skipped("OFC_SLOW=1 runs the exhaustive sweep"),
            ],
            "passed": [object()],
        }

        def write_sep(self, sep: str, title: str, **markup: bool) -> None:
            lines.append(f"{sep} {title} {sep}")

        def write_line(self, line: str) -> None:
            lines.append(line)

    pytest_terminal_summary(Reporter())
    assert lines == [
        "= PostgreSQL =",
        f"2 PostgreSQL tests skipped: Skipped: {pg.NO_SERVER}: pgserver is not installed",
    ]
    lines.clear()
    Reporter.stats["skipped"] = Reporter.stats["skipped"][2:]
    pytest_terminal_summary(Reporter())
    assert lines == []


@pytest.mark.usefixtures("session")
def test_the_real_server_started_late_is_taken_and_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The repro: the real pg_ctl starts the server, then raises ``TimeoutExpired`` as if
    it had taken more than 10 s. The server is taken (it answers), and stopped at the end."""
    import asyncio

    import asyncpg

    real = pgserver.postgres_server.pg_ctl

    def late(args: list[str], **kwargs: Any) -> str:
        out: str = real(args, **kwargs)
        if args[-1] == "start":
            raise subprocess.TimeoutExpired(["pg_ctl", *args], 10)
        return out

    monkeypatch.setattr(pgserver.postgres_server, "pg_ctl", late)
    monkeypatch.setattr(pg, "READY_WAIT_SECONDS", 30.0)
    url = start()
    assert isinstance(url, str), url
    pgdata = Path(pg._state["dir"].name).resolve()
    pid = int((pgdata / "postmaster.pid").read_text().split()[0])

    async def one() -> int:
        conn = await asyncpg.connect(url)
        try:
            return int(await conn.fetchval("SELECT 1"))
        finally:
            await conn.close()

    assert asyncio.run(one()) == 1
    pg.stop_server()
    assert not pg._alive(pid)
    assert not pgdata.exists()
