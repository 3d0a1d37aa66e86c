"""Several worker processes sharing the tables, driven end to end (issue 14): the fake Bot API
delivers every update to the webhook of an in-process :class:`bot.cluster.Router`, which
forwards it to the worker processes (``tests/bot/cluster/worker_child.py``, the real
composition root) on one store (PostgreSQL from pgserver, or one SQLite file). Players type
commands and press the buttons the bot really sent, as in the other end-to-end tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.cluster import Router
from bot.screens import Payload
from bot.telegram.fake_api import BOT_ID, FakeTelegram, FakeUser
from storage.api import Store

__all__ = [
    "CHILD",
    "DISCORD_TOKEN",
    "Cluster",
    "WorkerProcess",
    "discord_workers",
    "free_port",
    "has",
]

REPO = Path(__file__).resolve().parents[3]
CHILD = REPO / "tests" / "bot" / "cluster" / "worker_child.py"
TOKEN = "123456:" + "C" * 35
SECRET = "cluster-secret"
#: a Discord bot token for the fake Discord, shaped like a real one (the settings check it)
DISCORD_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class WorkerProcess:
    """One worker: ``python tests/bot/cluster/worker_child.py`` with its own id and port."""

    def __init__(self, name: str, env: Mapping[str, str], log: Path) -> None:
        self.name = name
        self.port = free_port()
        self.address = f"http://127.0.0.1:{self.port}"
        self.env = dict(env, WORKER_ID=name, WORKER_LISTEN=f"127.0.0.1:{self.port}")
        self.log = log
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(CHILD),
                cwd=str(REPO),
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=out,
            )

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def kill(self) -> None:
        """SIGKILL now."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)

    async def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (the worker saves and gives its leases up), SIGKILL after ``timeout``."""
        if self.proc is None or self.proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.kill()
            await self.proc.wait()


def discord_workers(
    fake_port: int,
    db_env: Mapping[str, str],
    workdir: Path,
    shard_ids: Sequence[str],
    *,
    shard_count: int,
    lease_seconds: float = 1.0,
    next_hand_delay: float = 60.0,
    answer_within: float | None = None,
) -> list[WorkerProcess]:
    """Discord-only workers ``w0``, ``w1``… (not started), the one of index ``i`` with
    ``DISCORD_SHARD_IDS=shard_ids[i]`` of ``shard_count``, on the database of ``db_env``
    (``DATABASE_PATH`` or ``DATABASE_URL``: open and migrate it first), talking to the fake
    Discord on ``fake_port`` (token :data:`DISCORD_TOKEN`); deferring an interaction after
    ``answer_within`` seconds if given (else the bot's own 0.8 s, as the benchmark wants)."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    env.update(db_env)
    env.update(
        PYTHONPATH=str(REPO),
        DISCORD_BOT_TOKEN=DISCORD_TOKEN,
        DISCORD_SHARD_COUNT=str(shard_count),
        LEASE_SECONDS=str(lease_seconds),
        LOG_LEVEL="INFO",
        OFC_PARENT_PID=str(os.getpid()),
        OFC_NEXT_HAND_DELAY=str(next_hand_delay),
        OFC_DISCORD_API_PORT=str(fake_port),
    )
    if answer_within is not None:
        env["OFC_ANSWER_WITHIN"] = str(answer_within)
    return [
        WorkerProcess(f"w{i}", dict(env, DISCORD_SHARD_IDS=ids), workdir / f"w{i}.log")
        for i, ids in enumerate(shard_ids)
    ]


class Cluster:
    """The fake Bot API, the router and ``n`` workers on ``store`` (opened by the caller on
    the database the workers get in ``db_env``: ``DATABASE_URL`` or ``DATABASE_PATH``)."""

    def __init__(
        self,
        store: Store,
        db_env: Mapping[str, str],
        workdir: Path,
        *,
        workers: int = 3,
        lease_seconds: float = 2.0,
        next_hand_delay: float = 60.0,
    ) -> None:
        self.store = store
        self.fake = FakeTelegram(TOKEN, open_private=True)
        self.router: Router | None = None
        env = {
            k: v
            for k, v in os.environ.items()
            if k in ("PATH", "HOME", "LANG", "TMPDIR", "XDG_RUNTIME_DIR")
        }
        env.update(db_env)
        env.update(
            PYTHONPATH=str(REPO),
            TELEGRAM_BOT_TOKEN=TOKEN,
            LEASE_SECONDS=str(lease_seconds),
            LOG_LEVEL="INFO",
            OFC_PARENT_PID=str(os.getpid()),
            OFC_NEXT_HAND_DELAY=str(next_hand_delay),
        )
        self.env = env
        self.workers = [
            WorkerProcess(f"w{i + 1}", env, workdir / f"w{i + 1}.log") for i in range(workers)
        ]
        self.workdir = workdir

    async def start(self, timeout: float = 30.0, *, workers: int | None = None) -> None:
        """Start the fake Bot API, the router and the first ``workers`` workers (all by
        default; the others later, :meth:`start_worker`); return once those are live."""
        await self.fake.start()
        for w in self.workers:
            w.env["TELEGRAM_API_BASE_URL"] = self.fake.base_url
        first = self.workers if workers is None else self.workers[:workers]
        await asyncio.gather(*(w.start() for w in first))
        port = free_port()
        self.router = Router(self.store, TOKEN, self.fake.base_url, retry_seconds=30.0)
        await self.router.start(f"http://127.0.0.1:{port}/hook", SECRET, "127.0.0.1", port)
        await self._live({w.name for w in first}, first, timeout)

    async def start_worker(self, name: str, timeout: float = 30.0) -> None:
        """Start the worker ``name`` (one :meth:`start` left out); return once it is live."""
        w = self.worker(name)
        await w.start()
        names = set(await self.store.live_workers()) | {name}
        await self._live(names, [w], timeout)

    async def _live(self, names: set[str], started: list[WorkerProcess], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while set(await self.store.live_workers()) != names:
            if time.monotonic() > deadline or any(not w.alive for w in started):
                raise AssertionError(f"workers did not start: {self.logs()}")
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        await asyncio.gather(*(w.stop() for w in self.workers))
        if self.router is not None:
            await self.router.stop()
        await self.fake.stop()

    def logs(self) -> str:
        return "\n".join(
            f"--- {w.name}\n{w.log.read_text()[-3000:]}" for w in self.workers if w.log.exists()
        )

    def worker(self, name: str) -> WorkerProcess:
        return next(w for w in self.workers if w.name == name)

    # -- players -------------------------------------------------------------------------------
    async def say(self, user: FakeUser, chat_id: int, text: str, timeout: float = 20.0) -> str:
        """``user`` writes ``text``; the bot's reply to it."""
        start = len(self.fake.calls)
        mid = await self.fake.send_text(user, chat_id, text)

        def reply() -> str | None:
            params = self.fake.reply_to(chat_id, mid, start)
            return None if params is None else str(params.get("text", ""))

        result: str = await self.fake.wait_for(reply, timeout)
        return result

    def newest(self, chat_id: int, action: str) -> dict[str, Any] | None:
        """The newest bot message of a chat with a button of ``action``."""
        best: dict[str, Any] | None = None
        for (c, mid), m in self.fake.messages.items():
            if c != chat_id or m["from"]["id"] != BOT_ID:
                continue
            if best is not None and mid < best["message_id"]:
                continue
            if any(p.action == action for p in _payloads(m)):
                best = m
        return best

    async def press(
        self, user: FakeUser, chat_id: int, message: Mapping[str, Any], action: str,
        timeout: float = 20.0,
    ) -> dict[str, Any] | None:  # fmt: skip
        """Press the button of ``action`` on ``message``; the callback answer's parameters,
        or ``None`` when the message has no such button."""
        data = next((p.encode() for p in _payloads(message) if p.action == action), None)
        if data is None:
            return None
        qid = await self.fake.press(user, chat_id, int(message["message_id"]), data)
        answer = await self.fake.wait_for(lambda: self.fake.answer_of(qid), timeout)
        params: dict[str, Any] = answer.params
        return params

    async def press_until_changed(
        self, user: FakeUser, chat_id: int, message: Mapping[str, Any], action: str
    ) -> bool:
        """Press and wait (up to 3 s) for the pressed message to be written anew; ``False``
        when the press was refused (an alert: say a hand message superseded by a takeover)."""
        key = (chat_id, int(message["message_id"]))
        before = (self.fake.messages.get(key) or {}).get("text")
        answer = await self.press(user, chat_id, message, action)
        if answer is None or answer.get("show_alert"):
            return False
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_for(
                lambda: (self.fake.messages.get(key) or {}).get("text") != before, 3.0
            )
        return True


def has(message: Mapping[str, Any] | None, action: str) -> bool:
    """Whether a message has a button of ``action``."""
    return message is not None and any(p.action == action for p in _payloads(message))


def _payloads(message: Mapping[str, Any]) -> list[Payload]:
    out = []
    for b in FakeTelegram.buttons(dict(message)):
        p = Payload.decode(b.get("callback_data"))
        if p is not None:
            out.append(p)
    return out
