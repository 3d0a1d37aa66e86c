"""An English group on ``language auto`` kept Moscow's day (``utc_offset`` never set followed
the language only when it was set to English): its /daily turned at 21:00 UTC and its chart
dates read 3 h off. A time zone never set now follows, under ``auto``, the language most of
the group's players read (UTC when more read English than Russian; Moscow's on a tie or
with none known, as before), shown as "auto — 0"; a zone set, or a group stored with one,
keeps it; the zone moving with the players gives nobody a second bonus on one day (R8.1)."""

from __future__ import annotations

import random

from bot.model import Actor
from bot.presses import SettingStep, decode
from bot.service import TableService
from bot.service.settings import day_zone, readers_language
from bot.texts import tr
from storage.api import CommunitySettings, LedgerKind
from storage.check import check_store
from storage.memory import MemoryStore
from tests.bot.fakes import FakePresenter
from tests.bot.test_settings import ALICE, BORIS, GROUP, say, stored

DAY = 86400.0
CAROL = Actor("telegram", "3", "Carol", "en")
DMITRY = Actor("telegram", "4", "Дмитрий", "uk")  # (reads the Russian texts)


def _service(store: MemoryStore, now: list[float]) -> TableService:
    service = TableService(
        store, clock=lambda: now[0], rng=random.Random(5), next_hand_delay=0, timers=False
    )
    service.register(FakePresenter())
    return service


def test_the_settings_alone_keep_moscow_under_auto() -> None:
    assert CommunitySettings().day_zone() == 3
    assert CommunitySettings().day_zone("en") == 0
    assert CommunitySettings().day_zone("ru") == 3
    assert CommunitySettings(language="ru").day_zone("en") == 3  # (set: the readers aside)
    assert CommunitySettings(language="en").day_zone("ru") == 0
    assert CommunitySettings(utc_offset=5.0).day_zone("en") == 5


async def test_an_auto_group_of_english_readers_counts_its_days_in_utc() -> None:
    store = MemoryStore()
    midnight = 1_700_000_000.0 - 1_700_000_000.0 % DAY
    now = [midnight - 1800]  # 23:30 UTC; 02:30 the next day in Moscow
    service = _service(store, now)
    assert (await stored(store)).language is None  # auto
    assert not (await service.daily(GROUP, ALICE)).alert  # today's (UTC), taken at 23:30
    community = await store.community("telegram", "-100")
    assert await readers_language(service.rt, community) == "en"
    assert await day_zone(service.rt, community) == 0
    taken = await service.daily(GROUP, ALICE)
    assert taken.text == tr("en", "reply.daily_taken", hours=0, minutes=30), taken.text
    now[0] += 3600  # 00:30 UTC: a new day in UTC (Moscow's day had turned at 21:00)
    assert not (await service.daily(GROUP, ALICE)).alert
    help_ = await say(service, "utc_offset")
    assert help_.text.endswith("Now: auto — 0 (default)."), help_.text
    listed = await say(service, "all")
    assert listed.screen is not None
    assert "Time zone (utc_offset): auto — 0" in listed.screen.text.splitlines()
    short = await say(service)  # (at its default: not among the settings listed)
    assert short.screen is not None and "utc_offset" not in short.screen.text


async def test_a_russian_or_evenly_mixed_auto_group_keeps_moscow() -> None:
    store = MemoryStore()
    now = [1_700_000_000.0 - 1_700_000_000.0 % DAY + 21.5 * 3600]  # 21:30 UTC, 00:30 Moscow
    service = _service(store, now)
    assert not (await service.daily(GROUP, BORIS)).alert
    community = await store.community("telegram", "-100")
    assert await day_zone(service.rt, community) == 3
    taken = await service.daily(GROUP, BORIS)  # Moscow's next midnight: 23 h 30 min away
    assert taken.text == tr("ru", "reply.daily_taken", hours=23, minutes=30), taken.text
    assert not (await service.daily(GROUP, ALICE)).alert  # one of each: Moscow's still
    assert await day_zone(service.rt, community) == 3
    assert (await service.daily(GROUP, ALICE)).alert
    reply = await say(service, "utc_offset", actor=BORIS)
    assert reply.text.endswith("Сейчас: авто — 3 (по умолчанию)."), reply.text
    # a Ukrainian reader reads the Russian texts: counted with Boris
    assert not (await service.daily(GROUP, CAROL)).alert
    assert not (await service.daily(GROUP, DMITRY)).alert
    assert await readers_language(service.rt, community) == "ru"  # (2 to 2: the tie's)
    assert await readers_language(service.rt, community, tie="en") == "en"


async def test_a_zone_moving_with_the_players_pays_no_second_bonus_in_a_day() -> None:
    """Boris takes his bonus at 00:30 Moscow (21:30 UTC); English readers join, the group's
    day becomes UTC's, where it is still the day before: Boris is refused (the day taken is
    later), and paid again only once UTC's next day begins after it."""
    store = MemoryStore()
    now = [1_700_000_000.0 - 1_700_000_000.0 % DAY + 21.5 * 3600]
    service = _service(store, now)
    assert not (await service.daily(GROUP, BORIS)).alert  # Moscow's day D+1
    assert not (await service.daily(GROUP, ALICE)).alert  # a tie: Moscow's, Alice's D+1
    assert not (await service.daily(GROUP, CAROL)).alert  # now 2 to 1: UTC's day D
    community = await store.community("telegram", "-100")
    assert await day_zone(service.rt, community) == 0
    again = await service.daily(GROUP, BORIS)  # day D in UTC: D+1 taken, none paid
    assert again.alert
    assert again.text == tr("ru", "reply.daily_taken", hours=26, minutes=30), again.text
    now[0] += 2.5 * 3600  # 00:00 UTC, day D+1: the one Boris took
    assert (await service.daily(GROUP, BORIS)).alert
    now[0] += DAY  # D+2
    assert not (await service.daily(GROUP, BORIS)).alert
    rows = [r for r in await store.ledger(community.id) if r.kind is LedgerKind.DAILY_BONUS]
    assert len(rows) == 4  # Boris twice, a day apart in his days; Alice and Carol once
    assert not await check_store(store)


async def test_a_zone_set_or_a_language_set_wins_over_the_readers() -> None:
    store = MemoryStore()
    now = [1_700_000_000.0]
    service = _service(store, now)
    assert not (await service.daily(GROUP, ALICE)).alert
    community = await store.community("telegram", "-100")
    assert await day_zone(service.rt, community) == 0
    assert not (await say(service, "language", "ru")).alert
    community = await store.community("telegram", "-100")
    assert await day_zone(service.rt, community) == 3
    assert not (await say(service, "language", "auto")).alert
    assert not (await say(service, "utc_offset", "5")).alert
    community = await store.community("telegram", "-100")
    assert await day_zone(service.rt, community) == 5
    # a "+" on the settings list moves the zone shown (0 under auto here), not Moscow's
    assert not (await say(service, "utc_offset", "auto")).alert
    listed = (await say(service, "all")).screen
    assert listed is not None
    plus = next(
        b.data
        for row in listed.buttons
        for b in row
        if isinstance(p := decode(b.data), SettingStep) and p.code == "tz" and p.op == "+"
    )
    pressed = await service.press(ALICE, plus, GROUP, _yes)
    assert not pressed.alert, pressed.text
    assert (await stored(store)).utc_offset == 1


async def _yes() -> bool:
    return True
