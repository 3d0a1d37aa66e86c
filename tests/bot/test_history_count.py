"""``/history [N]``: the player's last N entries (a whole number 1–20, 5 without it); any
other word ("0", "21", "abc", "3 4") answers the usage and lists nothing. Read in one place,
the service (:func:`bot.service.wallet.history_count`), for both adapters: Telegram passes
the words typed, Discord its ``count`` option. Before, ``/history 3`` was refused on
Telegram ("/history takes no words") and Discord had no way to ask for more than 5."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.model import Actor, ChatRef, LiveTable
from bot.service import TableService
from bot.service.wallet import history_count
from bot.texts import tr
from storage.api import Store
from storage.memory import MemoryStore
from tests.bot.discord import dc_world
from tests.bot.fakes import FakePresenter
from tests.bot.tg_world import ALICE as TG_ALICE
from tests.bot.tg_world import BOB as TG_BOB
from tests.bot.tg_world import world

GROUP = ChatRef("telegram", "-100", "-100", "Friends")
ALICE = Actor("telegram", "1", "Alice", "en")
BOB = Actor("telegram", "2", "Bob", "ru")
EPHEMERAL = 64


async def seed_hands(store: Store, t: LiveTable, count: int) -> None:
    """``count`` settled hands of the table's two seated players, numbered 101, 102, …
    (the newest last), each won by seat 0 by its index in points and kush."""
    players = {s: t.seats[s].player_id for s in (0, 1)}
    for i in range(count):
        result = {
            "seats": [{"seat": 0, "points": i}, {"seat": 1, "points": -i}],
            "kush": {"0": i, "1": -i},
        }
        await store.settle_hand(
            t.id, 101 + i, {"actions": []}, result, players,
            {players[0]: i, players[1]: -i}, key=f"seed{i}",
        )  # fmt: skip


def numbers(text: str) -> list[int]:
    """The hand numbers a /history answer lists, in its order ("Table 1, hand 103: …")."""
    return [int(line.split("hand ")[1].split(":")[0]) for line in text.splitlines()[1:]]


@pytest.fixture
async def env() -> tuple[TableService, MemoryStore]:
    store = MemoryStore()
    service = TableService(store, clock=lambda: 1_000_000.0, rng=random.Random(5), timers=False)
    service.register(FakePresenter())
    await service.new_table(GROUP, ALICE)
    for a in (ALICE, BOB):
        await service.join(GROUP, a)
        await service.ready(GROUP, a)
    t = service.table_in(GROUP)
    assert t is not None and t.seats[0].user_id == ALICE.user_id
    await seed_hands(store, t, 8)
    return service, store


def test_history_count_reads_one_whole_number_1_to_20() -> None:
    assert [history_count(a) for a in ("", "  ", "1", " 2 ", "20", "+3", "05")] == [
        5, 5, 1, 2, 20, 3, 5,
    ]  # fmt: skip
    for arg in ("0", "21", "-1", "abc", "3 4", "2.0", "٣", "１", "1_0", "9" * 40):
        assert history_count(arg) is None, arg


async def test_history_n_lists_the_last_n_and_refuses_other_words(env) -> None:  # type: ignore[no-untyped-def]
    service, _store = env
    assert numbers((await service.history(GROUP, ALICE)).text) == [108, 107, 106, 105, 104]
    reply = await service.history(GROUP, ALICE, "2")
    assert not reply.alert and reply.text.splitlines() == [
        "Your last hands:",
        f"#{_id(reply.text, 1)} · Table #1, hand 108: +7 pts, +7 kush",
        f"#{_id(reply.text, 2)} · Table #1, hand 107: +6 pts, +6 kush",
    ]
    assert numbers((await service.history(GROUP, ALICE, "20")).text) == list(range(108, 100, -1))
    for arg in ("0", "21", "abc", "3 4"):
        refused = await service.history(GROUP, ALICE, arg)
        assert refused.alert and refused.text == (
            "Usage: /history [N]: your last N hands (1–20; 5 without N)."
        ), arg
    refused = await service.history(GROUP, BOB, "abc")
    assert refused.alert and refused.text == (
        "Формат: /history [N] — ваши последние N раздач (1–20; без N — 5)."
    )
    # a private chat has no wallet: told so, whatever the number
    dm = ChatRef("telegram", "1", "1", "", private=True)
    assert (await service.history(dm, ALICE, "3")).text == tr("en", "reply.wallet_in_group")


def _id(text: str, line: int) -> int:
    """The ``#id`` of the ``line``-th line of a /history answer."""
    return int(text.splitlines()[line].split(" ")[0][1:])


async def test_telegram_history_n(tmp_path: Path) -> None:
    """``/history 2`` on Telegram lists two hands (it answered "/history takes no words");
    ``/history 0`` and ``/history 3 4`` answer the usage, in the user's language."""
    async with world(tmp_path) as w:
        await w.say(TG_ALICE, "/newtable")
        for u in (TG_ALICE, TG_BOB):
            await w.say(u, "/join")
            await w.say(u, "/ready")
        t = next(iter(w.service.tables.values()))
        await seed_hands(w.store, t, 8)
        first = str(t.seats[0].user_id)
        user = TG_ALICE if first == str(TG_ALICE.id) else TG_BOB
        reply = await w.say(user, "/history 2")
        assert numbers(reply["text"]) == [108, 107], reply
        reply = await w.say(user, "/history")
        assert numbers(reply["text"]) == [108, 107, 106, 105, 104], reply
        for words in ("0", "21", "abc", "3 4"):
            reply = await w.say(TG_ALICE, f"/history {words}")
            assert reply["text"] == tr("en", "usage.history"), (words, reply)
        reply = await w.say(TG_BOB, "/history 21")
        assert reply["text"] == tr("ru", "usage.history"), reply


async def test_discord_history_count(tmp_path: Path) -> None:
    """``/ofc history count:2`` lists two hands, ephemerally; the option is published with
    Discord's bounds 1..20 and its Russian description."""
    async with dc_world.world(tmp_path) as w:
        ofc = next(c for c in w.fake.commands if c["name"] == "ofc")
        history = next(o for o in ofc["options"] if o["name"] == "history")
        [count] = history["options"]
        assert (count["name"], count["type"], count["required"]) == ("count", 4, False)
        assert (count["min_value"], count["max_value"]) == (1, 20)
        assert count["description_localizations"]["ru"] == (
            "сколько последних раздач, 1–20 (по умолчанию 5)"
        )
        await w.slash(dc_world.ALICE, "new")
        for u in (dc_world.ALICE, dc_world.BOB):
            await w.slash(u, "join")
            await w.slash(u, "ready")
        t = next(iter(w.service.tables.values()))
        await seed_hands(w.store, t, 8)
        user = dc_world.ALICE if t.seats[0].user_id == str(dc_world.ALICE.id) else dc_world.BOB
        reply = await w.slash(user, "history", {"count": 2})
        assert reply["flags"] & EPHEMERAL and numbers(reply["content"]) == [108, 107], reply
        reply = await w.slash(user, "history")
        assert numbers(reply["content"]) == [108, 107, 106, 105, 104], reply
