"""The bot process of the crash test: ``python tests/bot/crash/child.py`` with the code to run
(this repository, or an export of another commit) as working directory and ``PYTHONPATH``.
It imports nothing from ``tests``.

It runs the real composition root (:func:`bot.app.run`) with three test hooks, all set from
the environment:

* **storage kill points.** The transactions of ``storage.sqlite._run_batch`` (every queued
  write) and ``storage.sqlite._in_transaction`` (get-or-create of communities and players) run
  on a connection whose ``BEGIN`` and ``COMMIT`` are watched. Each ``COMMIT`` is one *commit
  boundary*, numbered from 1 in this process. ``OFC_CRASH_COMMIT=N`` kills the process with
  SIGKILL right after the N-th commit (``OFC_CRASH_COMMIT_WHEN=after``, the default) or right
  before its ``COMMIT`` statement (``before``: the work is done but never committed).
  ``OFC_CRASH_COMMIT_MATCH`` counts only some commits: ``+buy_in``, ``+cash_out``,
  ``+hand_result`` … (the transaction wrote a ledger row of that kind), ``+hand`` (a row of
  the hand history), or any other text: part of the name of a write function in it (these
  change with the code; the tags do not). On PostgreSQL (``DATABASE_URL`` set) every
  transaction of ``storage.postgres._transact`` is watched the same way: the kill comes
  right before its ``COMMIT`` (the work done, never committed) or right after it.
  ``OFC_CRASH_TRACE=path`` appends one line per commit
  (``number<TAB>write names<TAB>tags<TAB>note``); once the file ``OFC_CRASH_DISARM`` exists the
  kill point is off (the test has what it wanted).
* **the table service.** ``bot.app.TableService`` gets ``next_hand_delay`` from
  ``OFC_CRASH_NEXT_HAND_DELAY`` and a ``deck_source``: hand *n* of the run (n = the hands
  recorded in the database + 1) is dealt from ``OFC_CRASH_DECKS`` (JSON ``{"n": "As Kd …"}``)
  or else from a shuffle seeded with ``OFC_CRASH_SEED`` and n, so a restarted bot deals the
  same cards.
* **the Telegram adapter.** No client-side rate limits (the fake has none), so a game is not
  throttled to Telegram's 20 group messages a minute.

The bot itself is configured by ``TELEGRAM_BOT_TOKEN``, ``TELEGRAM_API_BASE_URL``,
``DATABASE_PATH`` (or ``DATABASE_URL``) and ``LOG_LEVEL``; no ``.env`` file is read and
Discord stays off. With ``OFC_CRASH_PARENT_PID`` the process kills itself when that parent
is gone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import logging
import os
import random
import signal
import sqlite3
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import SecretStr
from telegram.ext import AIORateLimiter

import bot.app
import bot.service.play
import bot.telegram
import storage.sqlite
from bot.config import Settings
from bot.telegram.adapter import TelegramAdapter
from game.cards import Card, parse_cards, shuffled_deck
from game.policy import Level

__all__ = ["main"]


class _Commits:
    """Counts commit boundaries and kills the process at the chosen one."""

    def __init__(self, env: dict[str, str]) -> None:
        self.target = int(env.get("OFC_CRASH_COMMIT", "0") or 0)
        self.when = env.get("OFC_CRASH_COMMIT_WHEN", "after")
        self.match = env.get("OFC_CRASH_COMMIT_MATCH", "")
        self.trace_path = env.get("OFC_CRASH_TRACE", "")
        self.disarm_path = env.get("OFC_CRASH_DISARM", "")
        self.count = 0  # every commit (the trace's numbering)
        self.matched = 0  # commits that match (the kill point's numbering)
        self._lock = threading.Lock()

    def _kill(self) -> None:
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGKILL)

    def _matches(self, names: Sequence[str], tags: Sequence[str]) -> bool:
        if not self.match:
            return True
        if self.match.startswith("+"):
            return self.match in tags
        return any(self.match in n for n in names)

    def _is_target(self, names: Sequence[str], tags: Sequence[str]) -> bool:
        if not self.target or not self._matches(names, tags):
            return False
        if self.matched + 1 != self.target:
            return False
        return not (self.disarm_path and os.path.exists(self.disarm_path))

    def before(self, names: Sequence[str], tags: Sequence[str]) -> None:
        with self._lock:
            if self.when == "before" and self._is_target(names, tags):
                self._trace(self.count + 1, names, tags, "killed before commit")
                self._kill()

    def after(self, names: Sequence[str], tags: Sequence[str]) -> None:
        with self._lock:
            target = self.when == "after" and self._is_target(names, tags)
            self.count += 1
            if self._matches(names, tags):
                self.matched += 1
            self._trace(self.count, names, tags, "killed after commit" if target else "")
            if target:
                self._kill()

    def _trace(self, number: int, names: Sequence[str], tags: Sequence[str], note: str) -> None:
        if not self.trace_path:
            return
        with open(self.trace_path, "a", encoding="utf-8") as f:
            f.write(f"{number}\t{','.join(names)}\t{','.join(tags)}\t{note}\n")


class _Watched:
    """The store's connection inside one transaction, with its ``BEGIN`` and ``COMMIT``
    watched; everything else goes to the connection itself."""

    def __init__(self, conn: sqlite3.Connection, commits: _Commits, names: list[str]) -> None:
        self._conn = conn
        self._commits = commits
        self._names = names
        self._marks = (0, 0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def _max_ids(self) -> tuple[int, int]:
        try:
            ledger = self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM ledger").fetchone()
            hands = self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM hands").fetchone()
        except sqlite3.Error:
            return (0, 0)
        return (int(ledger[0]), int(hands[0]))

    def _tags(self) -> list[str]:
        """What the transaction wrote: ``+<ledger kind>`` per kind of its new ledger rows and
        ``+hand`` for a new row of the hand history."""
        try:
            kinds = self._conn.execute(
                "SELECT DISTINCT kind FROM ledger WHERE id > ? ORDER BY kind", (self._marks[0],)
            ).fetchall()
            hands = self._conn.execute(
                "SELECT COUNT(*) FROM hands WHERE id > ?", (self._marks[1],)
            ).fetchone()
        except sqlite3.Error:
            return []
        return [f"+{k}" for (k,) in kinds] + (["+hand"] if hands[0] else [])

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        word = sql.lstrip()[:6].upper()
        if word == "BEGIN ":
            cursor = self._conn.execute(sql, *args)
            self._marks = self._max_ids()
            return cursor
        if word == "COMMIT":
            tags = self._tags()
            self._commits.before(self._names, tags)
            cursor = self._conn.execute(sql, *args)
            self._commits.after(self._names, tags)
            return cursor
        return self._conn.execute(sql, *args)


def _name(fn: Callable[..., Any]) -> str:
    return str(getattr(fn, "__qualname__", getattr(fn, "__name__", repr(fn))))


def install_commit_hooks(env: dict[str, str]) -> _Commits:
    """Watch the transactions of the two functions of :mod:`storage.sqlite` that commit."""
    commits = _Commits(env)
    run_batch = storage.sqlite._run_batch
    in_transaction = storage.sqlite._in_transaction

    @functools.wraps(run_batch)
    def _run_batch(conn: Any, items: Sequence[Any]) -> list[tuple[bool, Any]]:
        watched: Any = _Watched(conn, commits, [_name(i.body) for i in items])
        return run_batch(watched, items)

    @functools.wraps(in_transaction)
    def _in_transaction(conn: Any, body: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        watched: Any = _Watched(conn, commits, [_name(body)])
        return in_transaction(watched, body, args)

    storage.sqlite._run_batch = _run_batch
    storage.sqlite._in_transaction = _in_transaction
    install_postgres_hooks(commits)
    return commits


def install_postgres_hooks(commits: _Commits) -> None:
    """Watch the transactions of :mod:`storage.postgres` (every write runs its body through
    ``_transact``): the kill before the commit comes at the end of the body, still inside
    the transaction; the one after, once ``_transact`` returned (committed)."""
    try:
        import storage.postgres
    except ImportError:  # OFC_CRASH_BOT_ROOT: a commit from before the PostgreSQL store
        return
    transact = storage.postgres._transact

    async def max_ids(conn: Any) -> tuple[int, int]:
        row = await conn.fetchrow(
            "SELECT (SELECT COALESCE(MAX(id), 0) FROM ledger),"
            " (SELECT COALESCE(MAX(id), 0) FROM hands)"
        )
        return (int(row[0]), int(row[1]))

    async def tags(conn: Any, marks: tuple[int, int]) -> list[str]:
        kinds = await conn.fetch(
            "SELECT DISTINCT kind FROM ledger WHERE id > $1 ORDER BY kind", marks[0]
        )
        hands = await conn.fetchval("SELECT COUNT(*) FROM hands WHERE id > $1", marks[1])
        return [f"+{k}" for (k,) in kinds] + (["+hand"] if hands else [])

    @functools.wraps(transact)
    async def _transact(conn: Any, body: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        names = [_name(body)]
        seen: list[str] = []

        async def watched(c: Any, *a: Any) -> Any:
            marks = await max_ids(c)
            result = await body(c, *a)
            seen[:] = await tags(c, marks)
            commits.before(names, seen)
            return result

        result = await transact(conn, watched, args)
        commits.after(names, seen)
        return result

    storage.postgres._transact = _transact


class _Decks:
    """The deck of hand n: from ``OFC_CRASH_DECKS`` or a shuffle seeded with (seed, n)."""

    def __init__(self, db: str, seed: int, decks: dict[int, list[Card]]) -> None:
        self.db = db
        self.seed = seed
        self.decks = decks

    def _hands_recorded(self) -> int:
        if self.db.startswith(("postgresql://", "postgres://")):
            # the deck source is called synchronously on the event loop: ask PostgreSQL from
            # a thread of its own (a test process; the few milliseconds do not matter)
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                return pool.submit(asyncio.run, _count_hands(self.db)).result()
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("SELECT COUNT(*) FROM hands").fetchone()
        finally:
            conn.close()
        return int(row[0])

    def __call__(self) -> list[Card]:
        n = self._hands_recorded() + 1
        if n in self.decks:
            return list(self.decks[n])
        return shuffled_deck(rng=random.Random(self.seed * 1000 + n))


async def _count_hands(url: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT COUNT(*) FROM hands"))
    finally:
        await conn.close()


class _Adapter(TelegramAdapter):
    """The real adapter without client-side rate limits (429s are still retried)."""

    def __init__(
        self,
        service: Any,
        token: str,
        base_url: str | None = None,
        rate_limiter: AIORateLimiter | None = None,
    ) -> None:
        limiter = rate_limiter or AIORateLimiter(
            overall_max_rate=0, group_max_rate=0, max_retries=3
        )
        super().__init__(service, token, base_url, limiter)


def patch_bot(env: dict[str, str]) -> None:
    """Point :func:`bot.app.run` at a test-friendly service and adapter."""
    db = env.get("DATABASE_URL") or env["DATABASE_PATH"]
    decks = {
        int(k): list(parse_cards(v))
        for k, v in json.loads(env.get("OFC_CRASH_DECKS") or "{}").items()
    }
    deck_source = _Decks(db, int(env.get("OFC_CRASH_SEED", "1")), decks)
    delay = float(env.get("OFC_CRASH_NEXT_HAND_DELAY", "0.2"))
    app = vars(bot.app)  # the names run() looks up when it is called
    app["TableService"] = functools.partial(
        bot.app.TableService, next_hand_delay=delay, deck_source=deck_source
    )
    vars(bot.telegram)["TelegramAdapter"] = _Adapter
    bot.service.play.ARRANGE_LEVEL = Level.NORMAL  # as in the test suite (tests/conftest.py)
    bot.service.play.FOUL_CONFIRM_MIN_SECONDS = 0.0  # (the same: a fouled Confirm at once)


def _watch_parent(parent: int) -> None:
    """Die with the test: a bot left behind would poll a closed port forever."""

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os.kill(os.getpid(), signal.SIGKILL)
            threading.Event().wait(0.5)

    threading.Thread(target=watch, name="crash-test-parent-watch", daemon=True).start()


def main() -> None:
    env = dict(os.environ)
    if env.get("OFC_CRASH_PARENT_PID"):
        _watch_parent(int(env["OFC_CRASH_PARENT_PID"]))
    install_commit_hooks(env)
    patch_bot(env)
    settings = Settings(
        telegram_bot_token=SecretStr(env["TELEGRAM_BOT_TOKEN"]),
        telegram_api_base_url=env["TELEGRAM_API_BASE_URL"],
        discord_bot_token=None,
        database_path=env["DATABASE_PATH"],
        database_url=SecretStr(env["DATABASE_URL"]) if env.get("DATABASE_URL") else None,
        log_level=env.get("LOG_LEVEL", "WARNING"),
        decisions_in_process=False,  # as in the test suite (tests/conftest.py)
        # as the test worlds (TEST_STORAGE_WAIT): the bot's 1 s refused a press beside busy
        # test workers now and then ("Could not save, nothing changed"); no bound is tested here
        storage_wait_seconds=5.0,
        _env_file=None,  # type: ignore[call-arg]
    )
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(bot.app.run(settings))


if __name__ == "__main__":
    main()
