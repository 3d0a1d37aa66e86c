"""Every group's day turned at Moscow's midnight (``utc_offset`` 3), English groups' too:
their chart axis and the next /daily read 3 h off for a UTC reader. A group that never set
its time zone follows its language: UTC (0) where it is English, else Moscow (3); a group
stored with a value keeps it."""

from __future__ import annotations

import random

from bot.service import TableService
from storage.api import CommunitySettings
from storage.memory import MemoryStore
from storage.sqlite import SqliteStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_settings import ALICE, BORIS, GROUP, say, stored


async def test_an_english_group_counts_its_days_in_utc_and_a_russian_one_in_moscow() -> None:
    store = MemoryStore()
    midnight = 1_700_000_000.0 - 1_700_000_000.0 % 86400
    now = [midnight - 1800]  # 23:30 UTC; 02:30 the next day in Moscow
    service = TableService(
        store, clock=lambda: now[0], rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    assert not (await say(service, "language", "en")).alert
    assert (await stored(store)).utc_offset is None
    assert (await stored(store)).day_zone() == 0
    reply = await say(service, "utc_offset")
    assert reply.text.endswith("Now: auto — 0 (default)."), reply.text
    about = (
        "Until set, or set to auto: 0 (UTC) in a group set to English (language en), or with "
        "language auto where more of its players read English than Russian; else 3."
    )
    assert about in reply.text
    assert not (await service.daily(GROUP, ALICE)).alert
    now[0] += 3600  # 00:30 UTC: a new day in UTC (03:30 the same day in Moscow)
    assert not (await service.daily(GROUP, ALICE)).alert
    # the same group in Russian: Moscow's day
    assert not (await say(service, "language", "ru")).alert
    assert (await stored(store)).day_zone() == 3
    reply = await say(service, "utc_offset", actor=BORIS)
    assert reply.text.endswith("Сейчас: авто — 3 (по умолчанию)."), reply.text
    now[0] += 3600  # 01:30 UTC, 04:30 in Moscow: the day taken at 00:30 UTC
    assert (await service.daily(GROUP, ALICE)).alert
    # set, it stays whatever the language
    assert not (await say(service, "utc_offset", "5")).alert
    assert not (await say(service, "language", "en")).alert
    assert (await stored(store)).day_zone() == 5
    reply = await say(service, "utc_offset")
    assert reply.text.endswith(
        "Now: 5 (default 0)." + "\n/settings utc_offset default gives it back its default."
    ), reply.text


async def test_a_stored_group_keeps_its_time_zone(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Settings saved before always held ``utc_offset`` 3: an English group keeps it (read
    back from its JSON and from a store); one never saved follows its language."""
    old = {**CommunitySettings().to_json(), "utc_offset": 3.0, "language": "en"}
    assert CommunitySettings.from_json(old).day_zone() == 3
    assert CommunitySettings.from_json({"language": "en"}).day_zone() == 0
    fresh = CommunitySettings(language="en")
    assert CommunitySettings.from_json(fresh.to_json()) == fresh
    store = await SqliteStore.open(tmp_path / "s.sqlite3")
    try:
        community = await store.community("telegram", "-1")
        await store.update_settings(community.id, CommunitySettings.from_json(old))
        again = await store.community("telegram", "-1")
        assert again.settings.utc_offset == 3 and again.settings.day_zone() == 3
        await store.update_settings(community.id, fresh)
        assert (await store.community("telegram", "-1")).settings.day_zone() == 0
    finally:
        await store.close()
