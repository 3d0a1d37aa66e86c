"""``/stats год`` answered "Здесь нет такого игрока: год.": a period word /stats has not
(a year, a day) is answered with the periods it has; "неделю" (as in "за неделю") is a week."""

from __future__ import annotations

import re

from tests.bot.conftest import service_env
from tests.bot.test_fixux import OLGA
from tests.bot.test_service_classic import ALICE, BOB, GROUP, play_hand, start


async def test_a_period_stats_has_not_is_answered_with_the_periods_it_has() -> None:
    service, presenter, _, _ = service_env(next_hand_delay=5)
    await start(service, [ALICE, BOB], "ofc")
    await play_hand(service, presenter, [ALICE, BOB])
    reply = await service.stats(GROUP, OLGA, ["год"])
    assert reply.alert and reply.text == (
        "У /stats нет периода «год»: неделя (week), месяц (month) или всё (all)."
    )
    reply = await service.stats(GROUP, ALICE, ["Year"])
    assert reply.alert and reply.text == (
        "/stats has no period “Year”: week (last 7 days), month (last 30 days) or all."
    )
    reply = await service.stats(GROUP, OLGA, ["неделю"])
    assert not reply.alert and reply.text.startswith("📊 Classic · за 7 дней\n"), reply.text


async def test_the_group_line_names_the_unit_of_each_amount() -> None:
    """ "Members in all hands: won 0, lost 34 kush": "won 0" of what, and "in all hands"
    read oddly. Each amount has its unit now, in English and Russian."""
    service, presenter, _, _ = service_env(next_hand_delay=5)
    await start(service, [ALICE, BOB], "ofc")
    await play_hand(service, presenter, [ALICE, BOB])
    lines = (await service.stats(GROUP, ALICE, [])).text.splitlines()
    moved = [x for x in lines if x.startswith("Members ")]
    assert len(moved) == 1 and re.fullmatch(r"Members won (\d+) kush, lost \1 kush", moved[0]), (
        lines
    )
    lines = (await service.stats(GROUP, OLGA, [])).text.splitlines()
    moved = [x for x in lines if x.startswith("Участники ")]
    assert len(moved) == 1, lines
    assert re.fullmatch(r"Участники выиграли (\d+) куш\w*, проиграли \1 куш\w*", moved[0]), moved
