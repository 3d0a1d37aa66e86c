"""The card room attacked as a hostile or confused member would (``/daily``, ``/balance``,
``/top``, ``/history``, ``/replay``): the cases no other test covered."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.model import Actor, ChatRef
from bot.service import TableService
from bot.texts import tr
from storage.api import LedgerKind
from storage.check import check_store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.fakes import FakePresenter

GROUP = ChatRef("telegram", "-100", "-100", "Friends")
ALICE = Actor("telegram", "1", "Alice", "en")
BORIS = Actor("telegram", "2", "Борис", "ru")
DAY = 86400.0


async def test_r8_1_a_time_zone_turned_back_gives_no_second_daily_bonus() -> None:
    """``/daily`` at 00:30 of a Moscow group's day, then an admin sets ``utc_offset -5``:
    the group's clock reads 16:30 of the day before, which nobody claimed. It paid a second
    bonus an hour after the first; now a day is taken only after the latest one taken, and
    the refusal says when the next one really comes: the start of the day after the one
    taken, in the group's new time zone (31 h 30 min; its own midnight, 7 h 30 min away,
    begins the day already taken)."""
    store = MemoryStore()
    now = [1_700_000_000.0 - 1_700_000_000.0 % DAY + 21.5 * 3600]  # 21:30 UTC: 00:30 Moscow
    service = TableService(store, clock=lambda: now[0], next_hand_delay=0, timers=False)
    service.register(FakePresenter())
    # (a Moscow group: set so, as its one player reads English, whose group's day is UTC's)
    assert not (await service.settings(GROUP, ALICE, True, ["utc_offset", "3"])).alert
    paid = await service.daily(GROUP, ALICE)
    assert not paid.alert, paid.text
    assert not (await service.settings(GROUP, ALICE, True, ["utc_offset", "-5"])).alert
    again = await service.daily(GROUP, ALICE)  # 16:30 of the day before there
    assert again.alert and again.text == tr("en", "reply.daily_taken", hours=31, minutes=30)
    ru = await service.daily(GROUP, BORIS)  # Boris never took one: his is paid
    assert not ru.alert and ru.text.startswith("Ежедневный бонус")
    now[0] += 7.5 * 3600  # 00:00 of the group's next day in UTC-5: still Moscow's taken day
    assert (await service.daily(GROUP, ALICE)).alert
    now[0] += 24 * 3600  # the day after the one taken
    assert not (await service.daily(GROUP, ALICE)).alert
    community = await store.community("telegram", "-100")
    rows = [r for r in await store.ledger(community.id) if r.kind is LedgerKind.DAILY_BONUS]
    assert len(rows) == 3  # Alice twice a day apart, Boris once
    assert not await check_store(store)


async def test_r8_1_daily_pressed_at_once_pays_once_and_midnight_utc_is_no_new_day(
    tmp_path: Path,
) -> None:
    """Five ``/daily`` at once from a member the group has never seen (its wallet made by
    the first of them) on SQLite: one bonus, one ledger row; the replies say so, EN and RU.
    Midnight UTC is not a Moscow group's midnight (21:00 UTC is); ``/balance`` and ``/top``
    agree with the ledger."""
    store = await SqliteStore.open(tmp_path / "ofc.sqlite3")
    now = [1_700_000_000.0 - 1_700_000_000.0 % DAY + 23.5 * 3600]  # 23:30 UTC, 02:30 Moscow
    service = TableService(store, clock=lambda: now[0], next_hand_delay=0, timers=False)
    service.register(FakePresenter())
    try:
        replies = await asyncio.gather(*(service.daily(GROUP, a) for a in [ALICE, BORIS] * 5))
        paid = [r.text for r in replies if not r.alert]
        assert sorted(paid) == [
            "Daily bonus: +100 kush. Balance 1,100.",
            "Ежедневный бонус: +100 кушей. Баланс 1100.",
        ]
        refused = {r.text for r in replies if r.alert}
        assert refused == {
            tr("en", "reply.daily_taken", hours=21, minutes=30),
            tr("ru", "reply.daily_taken", hours=21, minutes=30),
        }
        now[0] += 3600  # 00:30 UTC: still the same day in Moscow
        assert (await service.daily(GROUP, ALICE)).alert
        now[0] += 20.5 * 3600  # 21:00 UTC: the group's next day
        assert not (await service.daily(GROUP, ALICE)).alert
        community = await store.community("telegram", "-100")
        rows = [r for r in await store.ledger(community.id) if r.kind is LedgerKind.DAILY_BONUS]
        assert len(rows) == 3
        assert (
            await service.balance(GROUP, ALICE)
        ).text == "Alice: 1,200 kush on balance, 0 at the table."
        top = (await service.top(GROUP, ALICE)).text.splitlines()
        assert top[1:] == ["1. Alice — 1,200 kush", "2. Борис — 1,100 kush"]
        assert not await check_store(store)
    finally:
        await service.stop()
        await store.close()
