"""Break-it of the session's merges (brk34): the daily bonus under the time zone that now
follows the group's language (utc_offset never set)."""

from __future__ import annotations

import random

import pytest

from bot.service import TableService
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_settings import ALICE, GROUP, say, stored


@pytest.mark.xfail(
    strict=True,
    reason="brk34: the daily bonus is keyed by the day's date in the group's zone now; a "
    "zone moved forward (the language switched en -> ru while utc_offset is unset, or "
    "utc_offset raised) starts a new day at once. A fix needs the claim's time in storage "
    "(claim_daily refusing a claim made since the local day's start), in all three stores.",
)
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
    assert (await stored(store)).zone_hours == 0
    assert not (await service.daily(GROUP, ALICE)).alert
    assert (await service.daily(GROUP, ALICE)).alert  # (taken today)
    assert not (await say(service, "language", "ru")).alert
    assert (await stored(store)).zone_hours == 3
    now[0] += 120
    again = await service.daily(GROUP, ALICE)
    assert again.alert, again.text
    community = await store.community("telegram", GROUP.chat_id)
    player = await store.find_player(community.id, ALICE.user_id)
    assert player is not None and player.balance == 1100
    assert await check_store(store) == []


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
    assert reply.text.endswith("Now: English (default auto)."), reply.text
    assert (await say(service, "utc_offset")).text.endswith("Now: 0 (default).")
    assert not (await say(service, "language", "ru")).alert
    reply = await say(service, "language")
    assert reply.text.endswith("Сейчас: русский (по умолчанию авто)."), reply.text
    assert (await say(service, "utc_offset")).text.endswith("Сейчас: 3 (по умолчанию).")
    assert (await stored(store)).utc_offset is None
