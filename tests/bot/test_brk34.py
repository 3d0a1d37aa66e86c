"""Break-it of the session's merges (brk34): the daily bonus under the time zone that now
follows the group's language (utc_offset never set)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.model import Actor
from bot.service import TableService
from bot.service.wallet import advice
from storage.check import check_store
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_settings import ALICE, GROUP, say, stored

CAROL = Actor("telegram", "3", "Carol", "en")


async def test_r8_1_switching_the_language_after_the_daily_pays_no_second_bonus() -> None:
    """R8.1: /daily once a day. An English group (UTC, utc_offset never set) takes it at
    22:00 UTC; the admins switch the language to Russian, the zone follows (Moscow, 01:00 the
    next day): the same player took it two minutes ago and gets no second bonus."""
    store = MemoryStore()
    midnight = 1_700_000_000.0 - 1_700_000_000.0 % 86400
    now = [midnight - 2 * 3600]  # 22:00 UTC, 01:00 the next day in Moscow
    service = TableService(
        store, clock=lambda: now[0], rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    assert not (await say(service, "language", "en")).alert
    assert (await stored(store)).day_zone() == 0
    assert not (await service.daily(GROUP, ALICE)).alert
    assert (await service.daily(GROUP, ALICE)).alert  # (taken today)
    assert not (await say(service, "language", "ru")).alert
    assert (await stored(store)).day_zone() == 3
    now[0] += 120
    again = await service.daily(GROUP, ALICE)
    assert again.alert, again.text
    # the next one at Moscow's next midnight (21:00 UTC), 22 h 58 min from 22:02 UTC
    assert again.text.endswith("через 22 ч 58 мин."), again.text
    community = await store.community("telegram", GROUP.chat_id)
    player = await store.find_player(community.id, ALICE.user_id)
    assert player is not None and player.balance == 1100
    now[0] = midnight + 21 * 3600 - 60
    assert (await service.daily(GROUP, ALICE)).text.endswith("через 0 ч 1 мин.")
    now[0] += 60
    assert not (await service.daily(GROUP, ALICE)).alert
    player = await store.find_player(community.id, ALICE.user_id)
    assert player is not None and player.balance == 1200
    assert await check_store(store) == []


async def test_r8_1_raising_utc_offset_after_the_daily_pays_no_second_bonus(
    tmp_path: Path,
) -> None:
    """R8.1: the same with ``utc_offset`` raised by hand (0 to 5 at 20:00 UTC, already 01:00
    the next day there), on SQLite: no second bonus, the next one at the zone's midnight;
    another player, who took none today, still gets theirs; and the money advice says when
    the next one comes instead of offering /daily."""
    store = await SqliteStore.open(tmp_path / "s.sqlite3")
    try:
        midnight = 1_700_000_000.0 - 1_700_000_000.0 % 86400
        now = [midnight - 4 * 3600]  # 20:00 UTC
        service = TableService(
            store, clock=lambda: now[0], rng=random.Random(5), next_hand_delay=0, timers=False
        )
        service.register(FakePresenter())
        assert not (await say(service, "language", "en")).alert
        assert not (await service.daily(GROUP, ALICE)).alert
        assert not (await say(service, "utc_offset", "5")).alert
        now[0] += 60
        again = await service.daily(GROUP, ALICE)
        assert again.alert and again.text.endswith("The next one in 22 h 59 min."), again.text
        community = await store.community("telegram", GROUP.chat_id)
        player = await store.find_player(community.id, ALICE.user_id)
        assert player is not None and player.balance == 1100
        hint = await advice(service.rt, community, player.id, "en", lower_buy_in=True)
        assert hint.endswith("Next /daily in 22 h 59 min."), hint
        assert not (await service.daily(GROUP, CAROL)).alert
        now[0] = midnight + 19 * 3600  # 00:00 in the zone (+5)
        assert not (await service.daily(GROUP, ALICE)).alert
        player = await store.find_player(community.id, ALICE.user_id)
        assert player is not None and player.balance == 1200
        assert await check_store(store) == []
    finally:
        await store.close()


async def test_r8_1_a_language_set_reads_with_its_default_auto() -> None:
    """R8.1: the language's default is auto. Since the time zone's default follows the
    language, ``/settings language`` of a group that set English read "Now: English
    (default)", as if nothing had been set; the time zone's own default still follows it."""
    store = MemoryStore()
    service = TableService(
        store, clock=lambda: 1.7e9, rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    assert (await say(service, "language")).text.endswith("Now: auto (default).")
    assert not (await say(service, "language", "en")).alert
    reply = await say(service, "language")
    assert reply.text.endswith(
        "Now: English (default auto)." + "\n/settings language default gives it back its default."
    ), reply.text
    assert (await say(service, "utc_offset")).text.endswith("Now: auto — 0 (default).")
    assert not (await say(service, "language", "ru")).alert
    reply = await say(service, "language")
    assert reply.text.endswith(
        "Сейчас: русский (по умолчанию авто)."
        + "\n/settings язык по умолчанию — вернуть значение по умолчанию."
    ), reply.text
    assert (await say(service, "utc_offset")).text.endswith("Сейчас: авто — 3 (по умолчанию).")
    assert (await stored(store)).utc_offset is None
