"""fix40f: leftovers of the cluster (issue 14).

1. The router (``python -m bot --router``) only forwards Telegram's updates, yet it imported
   the whole table service (``bot.service``: the computer players' strategy and thinking
   processes, the renderer and its pictures with Pillow) and the Telegram adapter
   (python-telegram-bot's ``telegram.ext``): most of its start and memory. They are imported
   where a worker uses them now (:mod:`bot.cluster`, :mod:`bot.app`, :mod:`bot.telegram`).
2. A settings change saved by a worker that does not serve the group's table (an update it
   was still handling when the chat's lease changed hands, or a Discord shard handed back
   meanwhile) went to that worker's tables only: the table's worker kept the old settings
   (buy-in, options, language, time zone) until its next restart, its hands showing the
   turn's end in the old zone (fix39c made the change rewrite them, on the worker that
   saved it). The worker that saved it tells the live workers holding the group's other
   open tables (``POST /settings/<platform>``), which pass it to their tables as their own.
3. ``DISCORD_SHARD_COUNT=auto`` (one process): every shard of the count Discord recommends
   (``GET /gateway/bot``), refused at the start in one line past the 16 one process runs; a
   bot past 2,500 servers (close code 4011, sharding required) needs no count looked up and
   set by hand. Refused for workers: each maps a guild to its shard by the count, so they
   need one number, the same for all.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import SecretStr

from bot import __main__ as entry
from bot.app import run
from bot.cluster import Worker, platform_keys
from bot.config import ConfigError, Settings
from bot.model import Actor, ChatRef
from bot.render import clock_time
from bot.service import TableService
from storage.api import lease_key
from storage.memory import MemoryStore
from tests.bot.cluster.harness import free_port
from tests.bot.conftest import Clock
from tests.bot.discord.shard_world import guild_on_shard
from tests.bot.fakes import FakePresenter
from tests.bot.test_cluster_shards import Runner
from tests.bot.test_service import ALICE, BOB, GROUP
from tests.fakes.discord_api import FakeDiscord, FakeUser, point_discord_at
from tests.waiting import until

REPO = Path(__file__).resolve().parents[2]

#: what a router never uses: the table service and what it brings, the Telegram adapter
ROUTER_NEVER = (
    "bot.service",
    "bot.render",
    "bot.drawing",
    "bot.thinking",
    "bot.telegram.adapter",
    "telegram.ext",
    "PIL",
    "discord",
)

_ROUTER = """
import json, sys
from bot.__main__ import main
status = main(["--router", "--env-file", sys.argv[1]])  # (no worker ran on the file: 2)
from bot.cluster import Router
from storage.memory import MemoryStore
Router(MemoryStore(), "123456:" + "R" * 35)  # (its Bot and the webhook's guard)
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def test_the_router_s_code_path_imports_no_table_service(tmp_path: Path) -> None:
    """The router's start (``python -m bot --router``, here refused in one line for an SQLite
    file no worker ran on, exit status 2) and its :class:`~bot.cluster.Router` import none of
    :data:`ROUTER_NEVER`."""
    env_file = tmp_path / "router.env"
    env_file.write_text(
        "TELEGRAM_BOT_TOKEN=123456:" + "R" * 35 + "\n"
        f"DATABASE_PATH={tmp_path / 'ofc.sqlite3'}\n"
        "TELEGRAM_WEBHOOK_URL=https://bot.example.com/telegram\n"
        "TELEGRAM_WEBHOOK_SECRET=s3cret\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-c", _ROUTER, str(env_file)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["status"] == 2, done.stderr
    assert "no worker has run on" in done.stderr, done.stderr
    modules = set(out["modules"])
    assert "bot.cluster" in modules and "bot.app" in modules  # (the router's path ran)
    assert [m for m in ROUTER_NEVER if m in modules] == []


# -- 2. a settings change saved on another worker reaches the table's worker --------------------
TOKEN = "shared-bot-token"  # (both platforms': the internal keys derive from it)
GUILD = str(guild_on_shard(1))


async def _worker(
    store: MemoryStore, clock: Clock, name: str, platform: str
) -> tuple[Worker, FakePresenter]:
    """A worker with its internal endpoint on 127.0.0.1 and a recording presenter: Telegram's
    (a stand-in adapter: only its keys) or Discord's (running shard 1 of 2)."""
    service = TableService(store, clock=clock, rng=random.Random(5), timers=False)
    presenter = FakePresenter(platform=platform, link=None if platform == "discord" else "")
    service.register(presenter)
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    if platform == "telegram":
        worker = Worker(service, name, address, ttl=5.0)
        worker.telegram = SimpleNamespace()  # type: ignore[assignment]
        worker.keys.update(platform_keys("telegram", TOKEN))  # as attach_telegram
    else:
        worker = Worker(service, name, address, ttl=5.0, discord_shards=([1], 2), discord=Runner())
        worker.presses = SimpleNamespace()  # type: ignore[assignment]
        worker.keys.update(platform_keys("discord", TOKEN))  # as attach_discord
    await worker.start(("127.0.0.1", port))
    return worker, presenter


@pytest.mark.parametrize("platform", ["telegram", "discord"])
async def test_r8_5_a_zone_saved_on_a_worker_without_the_table_rewrites_its_hands_there(
    platform: str,
) -> None:
    """w2 serves the group's table, a hand under way in UTC+3; w1 saves ``utc_offset -5``
    (an update it was still handling as the chat's lease, or the guild's shard, moved to
    w2): w2's table takes the new zone, both private hands and the table message say the
    turn's end in it at once, and the buy-in w1 saved next reaches it too."""
    store, clock = MemoryStore(), Clock()
    store.clock = clock
    if platform == "telegram":
        group, alice, bob = GROUP, ALICE, BOB
    else:
        group = ChatRef("discord", GUILD, "11", "Poker")
        alice = Actor("discord", "301", "Alice", "en")
        bob = Actor("discord", "302", "Bob", "ru")
    w1, p1 = await _worker(store, clock, "w1", platform)
    w2, p2 = await _worker(store, clock, "w2", platform)
    try:
        assert await w2.claim(lease_key(platform, group.chat_id))
        assert not (await w2.service.settings(group, alice, True, ["utc_offset", "3"])).alert
        await w2.service.new_table(group, alice)
        for a in (alice, bob):
            await w2.service.join(group, a)
            await w2.service.ready(group, a)
        t = w2.service.table_in(group)
        assert t is not None and t.hand is not None
        await w2.service.rt.settled(t)
        now = clock()
        budget, _bank = t.clocks[t.owner(t.hand.to_act[0])].left(now)
        old, new = clock_time(now + budget, 3), clock_time(now + budget, -5)
        assert old != new and f"until {old}" in p2.last_private(alice.user_id).text

        elsewhere = ChatRef(platform, group.community_id, "12", "Elsewhere")  # (no table)
        reply = await w1.service.settings(elsewhere, alice, True, ["utc_offset", "-5"])
        assert not reply.alert and w1.service.table_in(group) is None  # (w1 serves none)
        await until(lambda: f"until {new}" in p2.last_private(alice.user_id).text)
        assert f"до {new}" in p2.last_private(bob.user_id).text  # (Bob reads Russian)
        assert f"until {new}" in p2.last_table(group.chat_id).text
        assert w2.service.rt.zones[t.community_id] == -5.0
        assert p1.privates == {}  # (w1 wrote nothing of w2's table)

        assert not (await w1.service.settings(elsewhere, alice, True, ["min_buy_in", "300"])).alert
        await until(lambda: t.pending_buy_in == 300)  # (from the next hand, as on w1)
    finally:
        await w1.stop()
        await w2.stop()


# -- 3. DISCORD_SHARD_COUNT=auto -----------------------------------------------------------------
DC_TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


def _auto(tmp_path: Path, **more: object) -> Settings:
    values: dict[str, object] = {"discord_shard_count": "auto", **more}
    return Settings(
        discord_bot_token=SecretStr(DC_TOKEN),
        database_path=str(tmp_path / "ofc.sqlite3"),
        _env_file=None,  # type: ignore[call-arg]
        **values,  # type: ignore[arg-type]
    )


async def test_auto_runs_every_shard_discord_recommends(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord recommends 2 shards: both IDENTIFY from this one process (shard 0 and 1 of
    2), a command is answered, and the start's line says so."""
    fake = FakeDiscord(DC_TOKEN)
    fake.recommended_shards = 2
    await fake.start()
    stop = asyncio.Event()
    caplog.set_level(logging.INFO)
    try:
        with point_discord_at(fake):
            task = asyncio.create_task(run(_auto(tmp_path), stop))
            await fake.wait_for(lambda: "bot running" in caplog.text, timeout=40)
            assert sorted(fake.identified) == [(0, 2), (1, 2)]
            record = await fake.slash(FakeUser(21, "Bob", "en-US"), "new")
            await fake.wait_for(lambda: record.answered, timeout=20)
            assert "Table #" in str(fake.messages[record.messages[-1]]["content"])
            stop.set()
            await asyncio.wait_for(task, 30)
    finally:
        await fake.stop()
    assert (
        "Discord: connected as ofc-bot#0000 (shards 0-1 of 2, as Discord recommends)" in caplog.text
    )


async def test_auto_past_one_process_s_shards_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Discord recommends 17 shards: refused before any shard connects (exit status 2), the
    line saying how to run them as workers."""
    fake = FakeDiscord(DC_TOKEN)
    fake.recommended_shards = 17
    await fake.start()
    try:
        with point_discord_at(fake), pytest.raises(ConfigError) as caught:
            await asyncio.wait_for(run(_auto(tmp_path), asyncio.Event()), 60)
        assert fake.identified == []
    finally:
        await fake.stop()
    line = (
        "DISCORD_SHARD_COUNT=auto: Discord recommends 17 shards for this bot, and one process "
        "runs at most 16; run workers, each with WORKER_ID, DISCORD_SHARD_COUNT=17 and "
        "DISCORD_SHARD_IDS of at most 16 (e.g. 0-15, 16-31): docs/operations.md"
    )
    assert str(caught.value) == line

    async def main() -> None:
        raise caught.value

    assert await asyncio.to_thread(entry._run, main()) == 2
    assert capsys.readouterr().err == f"error: {line}\n"


def test_auto_is_read_in_one_process_and_refused_for_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``auto`` (any case) is read from the environment as from a file; with a worker's id or
    with shard ids it is refused in one line (a worker needs the count every worker uses)."""
    for written in ("auto", "AUTO", " Auto "):
        monkeypatch.setenv("DISCORD_SHARD_COUNT", written)
        s = Settings(_env_file=None)  # type: ignore[call-arg]
        assert s.discord_shard_count == "auto" and s.shard_count is None and s.shard_ids is None
    monkeypatch.delenv("DISCORD_SHARD_COUNT")
    refused = "DISCORD_SHARD_COUNT=auto is for one process without DISCORD_SHARD_IDS"
    for more in ({"worker_id": "w1", "discord_shard_ids": "0"}, {"discord_shard_ids": "0"}):
        with pytest.raises(ValueError, match=refused):
            _auto(tmp_path, **more)
    assert _auto(tmp_path, discord_shard_count=3).shard_ids == [0, 1, 2]  # (a number: as before)
