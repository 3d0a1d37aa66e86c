"""Write a SQLite database mid-hand with an older release of the bot (brkupg).

Run with the older release first on the path, from a checkout of it (never modified)::

    git worktree add --detach /tmp/old-REV REV
    PYTHONPATH=/tmp/old-REV python tests/data/upgrade/make_old_db.py OUT.db [stop|crash]

It opens several tables on one database through the release's own service (its
``tests.bot.fakes.FakePresenter``, a fixed clock, seeded decks) and leaves them mid-hand:

- ``-101`` Pineapple, three players, a Fantasyland earned, the next hand not dealt yet;
- ``-102`` Pineapple, the Fantasyland hand under way;
- ``-103`` classic OFC, a few streets in;
- ``-104`` Chinese Poker, the second hand of a game under way;
- ``-105`` a tournament, mid-hand (releases that have tournaments);
- ``-106`` a table an admin closed during a hand, closed after it, whose last messages the
  platform refused (owed);
- ``-107`` Pineapple with the group's settings changed (language, kush label);
- ``-108`` Pineapple between hands, its showdown refused by the platform (owed);
- ``-109`` Pineapple mid-hand, both players' top-ups of their whole balance queued
  (``/topup 800``), added when the hand ends, the winner's cut to the table's maximum.

``stop``: the bot is stopped (its stop saves every table); ``crash``: the process ends
after the last commit without stopping. Uses only what every release since e4204b9 has.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot.model import Actor, ChatRef
from bot.screens import Payload
from bot.service import TableService
from storage.sqlite import SqliteStore
from tests.bot.fakes import FakePresenter

CLOCK = [1_000_000.0]


class FailingPresenter(FakePresenter):  # type: ignore[misc]
    """Refuses every group message to the chats in ``failing``."""

    failing: frozenset[str] = frozenset()

    async def show_table(self, chat_id: str, screen: Any, ref: Any) -> Any:
        if chat_id in self.failing:
            raise RuntimeError("platform down")
        return await super().show_table(chat_id, screen, ref)

    async def post(self, chat_id: str, text: str, *args: Any, **kw: Any) -> Any:
        if chat_id in self.failing:
            raise RuntimeError("platform down")
        return await super().post(chat_id, text, *args, **kw)


def chat(n: int) -> ChatRef:
    return ChatRef("telegram", f"-{n}", f"-{n}", f"Group {n}")


def actors(n: int, count: int) -> list[Actor]:
    names = ["Alice", "Bob", "Carol"]
    return [Actor("telegram", f"{n}{i}", names[i], "en") for i in range(count)]


async def press(service: TableService, p: FakePresenter, a: Actor, action: str) -> Any:
    screen = p.last_private(a.user_id)
    data = next(
        b.data for b in screen.all_buttons() if b.data and Payload.decode(b.data).action == action
    )
    return await service.press(a, data)


async def move(service: TableService, p: FakePresenter, t: Any, people: list[Actor]) -> None:
    """The player to act arranges automatically and confirms (twice if asked)."""
    owner = t.owner(t.hand.to_act[0]) if hasattr(t, "owner") else t.hand.to_act[0]
    a = next(x for x in people if x.user_id == t.seats[owner].user_id)
    await press(service, p, a, "a")
    reply = await press(service, p, a, "c")
    if reply.alert or "fouled" in reply.text:
        reply = await press(service, p, a, "c")


async def play_hand(service: TableService, p: FakePresenter, t: Any, people: list[Actor]) -> None:
    no = t.hand_no
    while t.hand is not None and t.hand_no == no and not t.hand.is_over:
        await move(service, p, t, people)


async def deal(service: TableService, t: Any) -> None:
    for _ in range(5):
        if t.hand is not None and not t.hand.is_over:
            return
        CLOCK[0] += 11
        await service.run_due()


async def seat(service: TableService, c: ChatRef, people: list[Actor], game: str) -> Any:
    r = await service.new_table(c, people[0], game)
    assert not r.alert, r.text
    for a in people:
        assert not (await service.join(c, a)).alert
    for a in people:
        await service.ready(c, a)
    t = service.table_in(c)
    await deal(service, t)
    assert t.hand is not None
    return t


async def main(out: Path, mode: str) -> None:
    if str(out).startswith("postgresql:"):  # a PostgreSQL database's URL instead
        from storage.postgres import PostgresStore

        store: Any = await PostgresStore.open(str(out))
    else:
        store = await SqliteStore.open(out)
    kw: dict[str, Any] = {}
    service = TableService(
        store,
        clock=lambda: CLOCK[0],
        rng=random.Random(7),
        next_hand_delay=10.0,
        timers=False,
        **kw,
    )
    p = FailingPresenter()
    service.register(p)
    await service.start()
    made: dict[str, Any] = {}

    # -101 / -102: Pineapple until a Fantasyland is earned
    for n, into_fl in ((101, False), (102, True)):
        people = actors(n, 3)
        t = await seat(service, chat(n), people, "pineapple")
        for _ in range(60):
            await play_hand(service, p, t, people)
            if t.match is not None and t.match.fantasyland:
                break
            await deal(service, t)
        assert t.match.fantasyland, "no Fantasyland in 60 hands"
        if into_fl:
            await deal(service, t)
            await move(service, p, t, people)  # one move of the Fantasyland hand
        made[str(n)] = {"hand_no": t.hand_no, "fl": dict(t.match.fantasyland)}

    # -103: classic OFC, a few streets in
    people = actors(103, 2)
    t = await seat(service, chat(103), people, "ofc")
    for _ in range(5):
        await move(service, p, t, people)
    made["103"] = {"hand_no": t.hand_no}

    # -104: Chinese Poker, the second hand under way
    people = actors(104, 2)
    t = await seat(service, chat(104), people, "chinese")
    await play_hand(service, p, t, people)
    await deal(service, t)
    await move(service, p, t, people)
    made["104"] = {"hand_no": t.hand_no}

    # -105: a tournament mid-hand
    if hasattr(service, "new_tournament"):
        people = actors(105, 3)
        # one-minute levels where a release allows them (its refusal: the default kept)
        r = await service.settings(chat(105), people[0], True, ["level_minutes", "1"])
        made["105_settings"] = r.text[:60]
        r = await service.new_tournament(chat(105), people[0], "pineapple")
        assert not r.alert, r.text
        for a in people:
            assert not (await service.join(chat(105), a)).alert
        t = service.table_in(chat(105))
        start = [
            b.data
            for b in p.last_table("-105").all_buttons()
            if b.data and Payload.decode(b.data).action == "o"
        ]

        async def yes() -> bool:
            return True

        if start:  # (a full tournament starts by itself)
            r = await service.press(people[0], start[0], chat(105), yes)
            assert not r.alert, r.text
        await deal(service, t)
        await play_hand(service, p, t, people)
        CLOCK[0] += 50  # (into the second level, when a level is a minute)
        await deal(service, t)
        await move(service, p, t, people)
        await move(service, p, t, people)
        made["105"] = {"hand_no": t.hand_no, "level": getattr(t.tournament, "level", None)}

    # -106: closed by an admin during a hand, its last messages refused by the platform
    people = actors(106, 2)
    t = await seat(service, chat(106), people, "pineapple")
    await move(service, p, t, people)
    r = await service.close_table(chat(106), people[0], True)
    if r.alert:  # (a release that closes between hands only: its sending fails loudly)
        await play_hand(service, p, t, people)
        p.failing = frozenset({"-106"})
        with contextlib.suppress(RuntimeError):
            await service.close_table(chat(106), people[0], True)
    else:
        p.failing = frozenset({"-106"})
        await play_hand(service, p, t, people)
    made["106"] = {"closed": service.table_in(chat(106)) is None}

    # -108: an open table whose showdown the platform refused (owed at the stop)
    people = actors(108, 2)
    t = await seat(service, chat(108), people, "pineapple")
    failing = p.failing
    p.failing = failing | {"-108"}
    with contextlib.suppress(RuntimeError):  # (a release whose sending fails loudly)
        await play_hand(service, p, t, people)
    p.failing = failing
    made["108"] = {"hand_no": t.hand_no, "outbox": len(t.outbox)}

    # -107: settings changed, then a hand under way
    people = actors(107, 2)
    admin = people[0]
    for args in (["language", "ru"], ["kush_label", "фишки"]):
        r = await service.settings(chat(107), admin, True, args)
        made.setdefault("107_settings", []).append(r.text[:60])
    if r.text.startswith("Не удалось"):  # (bb973ff2 on: "фишки" are tournament chips)
        r = await service.settings(chat(107), admin, True, ["kush_label", "монеты"])
        made["107_settings"].append(r.text[:60])
    t = await seat(service, chat(107), people, "pineapple")
    await move(service, p, t, people)
    await move(service, p, t, people)
    made["107"] = {"hand_no": t.hand_no}

    # -109: a top-up queued during a hand (added, and the group told, when it ends)
    if hasattr(service, "top_up"):
        people = actors(109, 2)
        t = await seat(service, chat(109), people, "pineapple")
        await move(service, p, t, people)
        # each queues the whole balance: the winner's is cut to the maximum when the hand
        # ends (the group told), the loser's added whole
        queued = [(await service.top_up(chat(109), a, "800")).text[:60] for a in people]
        made["109"] = {"hand_no": t.hand_no, "queued": queued}
        await move(service, p, t, people)

    print(json.dumps(made, ensure_ascii=False))
    sys.stdout.flush()
    if mode == "crash":
        os._exit(0)
    await service.stop()
    await store.close()


def compact(src: Path, dst: Path) -> None:
    """A one-file copy of ``src`` (its WAL included) with small pages."""
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
        b.execute("PRAGMA journal_mode=DELETE")
        b.execute("PRAGMA page_size=1024")
        b.execute("VACUUM")
    a.close()
    b.close()


if __name__ == "__main__":
    if sys.argv[1] == "compact":
        compact(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        target: Any = sys.argv[1] if sys.argv[1].startswith("postgresql:") else Path(sys.argv[1])
        asyncio.run(main(target, sys.argv[2] if len(sys.argv) > 2 else "stop"))
