"""The kush chart of /stats (issue 12): the drawing (pure: data in, PNG out, its size and
dimensions) and the service attaching it to a player's /stats when they played at least two
hands in the period, drawn in the drawing process from :meth:`Store.kush_series`, with a caption
in the asker's language; on an in-memory store seeded with settlements at known times."""

from __future__ import annotations

import io
import logging
import os
import random
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
from PIL import Image

from bot import charts
from bot.charts import HEIGHT, WIDTH, KushChart, date_labels, draw_kush, kush_ticks
from bot.drawing import Drawer
from bot.model import Actor, ChatRef, Reply
from bot.service import TableService
from bot.workers import StartGivenUp, TaskHung
from storage.api import BuyIn, Settlement
from storage.memory import MemoryStore
from tests.bot.fakes import record_drawings

#: the issue's limit on the chart's size
MAX_BYTES = 100 * 1024
T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC
DAY = 86400.0

GROUP = ChatRef("telegram", "-100", "-100", "Friends")
ALICE = Actor("telegram", "1", "Alice", "en")
BOB = Actor("telegram", "2", "Bob", "ru")
CAROL = Actor("telegram", "3", "Carol", "en")
DAVE = Actor("telegram", "4", "Dave", "en")

#: (finished at, winner, loser, kush): Alice +10 −4 +7; Bob −10 +4 −7 −5; Carol +5
ENTRIES = [
    (T0, ALICE, BOB, 10),
    (T0 + 60, BOB, ALICE, 4),
    (T0 + 120, ALICE, BOB, 7),
    (T0 + 10 * DAY, CAROL, BOB, 5),
]
NOW = T0 + 10 * DAY + 3600


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img


def _random_chart(points: int, seed: int = 3) -> KushChart:
    rng = random.Random(seed)
    at, total, series = T0, 0, []
    for _ in range(points):
        at += rng.uniform(60, 30000)
        total += rng.randint(-300, 320)
        series.append((at, total))
    return KushChart("Анна Каренина 🤖 with a very long name indeed", "ru", "kush", "за всё время",
                     tuple(series))  # fmt: skip


def test_the_chart_is_a_small_png_of_the_fixed_size() -> None:
    for n in (2, 200):
        png = draw_kush(_random_chart(n))
        assert len(png) <= MAX_BYTES
        assert _png(png).size == (WIDTH, HEIGHT) == (640, 360)
    gain = KushChart("Alice", "en", "kush", "all time", ((T0, 10), (T0 + 60, 6), (T0 + 120, 13)))
    loss = KushChart("Alice", "en", "kush", "all time", ((T0, -10), (T0 + 60, -6), (T0 + 120, -13)))
    assert draw_kush(gain) == draw_kush(gain)  # pure
    assert draw_kush(gain) != draw_kush(loss)

    # the line (and the net) in green for a gain, in red for a loss
    def colours(chart: KushChart) -> dict[tuple[int, int, int], int]:
        img = _png(draw_kush(chart)).convert("RGB")
        return {c: n for n, c in img.getcolors(WIDTH * HEIGHT) or []}

    assert gain.net == 13 and loss.net == -13
    up, down = colours(gain), colours(loss)
    assert up.get(charts.GREEN, 0) > 500 and up.get(charts.RED, 0) == 0
    assert down.get(charts.RED, 0) > 500 and down.get(charts.GREEN, 0) == 0


def test_axis_values_are_round_and_cover_the_series() -> None:
    assert kush_ticks(-7, 13) == [-10, -5, 0, 5, 10, 15]
    assert kush_ticks(0, 38) == [0, 10, 20, 30, 40]
    assert kush_ticks(-38, 0) == [-40, -30, -20, -10, 0]
    assert kush_ticks(0, 0) == [0, 1]
    assert kush_ticks(-2, 1234) == [-500, 0, 500, 1000, 1500]
    assert date_labels(T0, T0 + 120) == [(T0, "08:00"), (T0 + 80, "08:01"), (T0 + 120, "08:02")]
    assert [t for _, t in date_labels(T0, T0 + 9 * DAY)] == ["15.01", "18.01", "21.01", "24.01"]
    assert [t for _, t in date_labels(T0, T0 + 400 * DAY)][::3] == ["15.01.27", "19.02.28"]
    assert date_labels(T0, T0) == [(T0, "08:00")]
    # the group's time zone (utc_offset): Moscow is three hours ahead, New York five behind
    assert date_labels(T0, T0, utc_offset=3) == [(T0, "11:00")]
    assert [t for _, t in date_labels(T0, T0 + 9 * DAY, utc_offset=-9)] == [
        "14.01", "17.01", "20.01", "23.01"
    ]  # fmt: skip


@pytest.fixture
async def service(monkeypatch: pytest.MonkeyPatch) -> TableService:
    """A service at NOW on a store holding the ENTRIES at their times."""
    store = MemoryStore()
    clock = [T0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    community = await store.community("telegram", "-100", "Friends")
    ids = {
        a.user_id: (await store.player(community.id, a.user_id, a.name, a.language)).id
        for a in (ALICE, BOB, CAROL, DAVE)
    }
    table = await store.create_table(community.id, "-100", {"game": "pineapple"}, 200)
    await store.commit(table.id, [BuyIn(p, 200) for p in ids.values()], {}, key="k:0")
    for n, (at, win, lose, kush) in enumerate(ENTRIES, start=1):
        clock[0] = at
        w, lo = ids[win.user_id], ids[lose.user_id]
        settle = Settlement(n, {"x": n}, {"points": kush}, {0: w, 1: lo}, {w: kush, lo: -kush})
        await store.commit(table.id, [settle], {}, key=f"k:{n}")
    clock[0] = NOW
    return TableService(store, clock=lambda: NOW, timers=False)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[KushChart, int]]:
    """Every chart the service draws, with the pid of the process that drew it."""
    return record_drawings(monkeypatch, charts.draw_kush, lambda args, pid: (args[0], pid))


def _chart_of(reply: Reply) -> Image.Image:
    assert reply.picture is not None and reply.picture_name == "kush.png"
    assert len(reply.picture) <= MAX_BYTES
    img = _png(reply.picture)
    assert img.size == (WIDTH, HEIGHT)
    return img


async def test_a_player_with_two_hands_gets_the_chart_after_the_text(
    service: TableService, drawn: list[tuple[KushChart, int]]
) -> None:
    reply = await service.stats(GROUP, CAROL, ["@alice"])
    assert reply.text.splitlines()[0] == "📊 Alice · all time"
    assert reply.text.splitlines()[-1] == "Net: +13 kush"
    _chart_of(reply)
    assert reply.caption == "📈 Alice: kush over time (all time), net +13 kush"
    ((chart, pid),) = drawn
    assert chart.points == ((T0, 10), (T0 + 60, 6), (T0 + 120, 13))
    assert (chart.name, chart.lang, chart.label, chart.when) == ("Alice", "en", "kush", "all time")
    assert pid != os.getpid()  # drawn in the drawing process, off the event loop's GIL


async def test_me_in_russian_and_the_askers_own_part_of_the_group_stats(
    service: TableService, drawn: list[tuple[KushChart, int]]
) -> None:
    reply = await service.stats(GROUP, BOB, ["я"])
    _chart_of(reply)
    assert reply.caption == "📈 Bob: график за всё время, итог −18 кушей"
    assert drawn[-1][0].points == ((T0, -10), (T0 + 60, -6), (T0 + 120, -13), (T0 + 10 * DAY, -18))
    group = await service.stats(GROUP, ALICE, [])
    assert group.text.startswith("📊 Friends · all time") and "📊 Alice · all time" in group.text
    _chart_of(group)
    assert group.caption == "📈 Alice: kush over time (all time), net +13 kush"
    assert len(drawn) == 2


async def test_no_chart_with_fewer_than_two_hands(
    service: TableService, drawn: list[tuple[KushChart, int]]
) -> None:
    carol = await service.stats(GROUP, CAROL, ["me"])  # one hand
    assert "Net: +5 kush" in carol.text and carol.picture is None and carol.caption is None
    assert (await service.stats(GROUP, CAROL, [])).picture is None  # the group's and Carol's
    assert (await service.stats(GROUP, DAVE, [])).picture is None  # Dave never played
    week = await service.stats(GROUP, ALICE, ["@Bob", "week"])  # one of Bob's hands this week
    assert "Net: −5 kush" in week.text and week.picture is None
    month = await service.stats(GROUP, ALICE, ["@Bob", "month"])
    _chart_of(month)
    assert month.caption == "📈 Bob: kush over time (last 30 days), net −18 kush"
    assert len(drawn) == 1


def test_r8_1_a_russian_chart_names_the_default_label_kush_in_russian() -> None:
    """The chart's axis and net read "куш" for a Russian player when the label is the
    default, and an admin-chosen label as written (R8.1)."""
    assert charts.chart_of("Боря", "ru", "kush", "30 дней", [(0.0, 1)]).label == "куш"
    assert charts.chart_of("Bob", "en", "kush", "30 days", [(0.0, 1)]).label == "kush"
    assert charts.chart_of("Боря", "ru", "₽", "30 дней", [(0.0, 1)]).label == "₽"


def _ink_rows(img: Image.Image, other: Image.Image | None = None) -> set[int]:
    """The pixel rows left of the plot with ink: pixels not the background, or (``other``)
    pixels that differ from ``other``'s."""
    px, ref = img.load(), other.load() if other is not None else None
    assert px is not None
    rows = set()
    for y in range(HEIGHT):
        for x in range(charts._LEFT):
            ink = px[x, y] != (ref[x, y] if ref is not None else charts.FELT)
            if ink:
                rows.add(y)
                break
    return rows


def test_the_axis_unit_stands_clear_of_the_top_amount_and_the_period() -> None:
    """The unit over the amounts ("куш") sat on the top amount ("+40") with two empty pixel
    rows between them, close under the period ("за всё время"): a new user read the three as
    one column. Its rows of ink (the picture with the unit less the one without) keep 6 px
    from every other ink left of the plot (the title, the period and the amounts)."""
    points = ((T0, 15), (T0 + 60, 6), (T0 + 300, 40), (T0 + 400, 20))
    for lang, unit, when in (("ru", "куш", "за всё время"), ("en", "kush", "all time")):
        with_unit = charts.draw_kush_image(KushChart("Игрок", lang, unit, when, points))
        bare = charts.draw_kush_image(KushChart("Игрок", lang, "", when, points))
        unit_rows, others = _ink_rows(with_unit, bare), _ink_rows(bare)
        assert unit_rows, "the unit is drawn"
        gap = min(abs(u - o) for u in unit_rows for o in others)
        assert gap >= 6, (lang, gap, sorted(unit_rows), sorted(others))


@pytest.mark.parametrize(
    "failure",
    [
        TimeoutError(),  # no chart within DRAW_SECONDS (the process hung, or never started)
        TaskHung("killed as hung on draw_kush"),
        StartGivenUp("the worker's start was given up"),  # (the service stopping)
        BrokenProcessPool("died twice"),
        RuntimeError("cannot schedule new futures after shutdown"),
        OSError("no font"),
        KeyError("a drawing's own bug"),
    ],
    ids=lambda e: type(e).__name__,
)
async def test_a_chart_that_cannot_be_drawn_leaves_the_text_to_answer(
    service: TableService,
    failure: Exception,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """fixdraw37: /stats caught only ``(OSError, ValueError, BrokenExecutor)`` from the
    drawer: a chart given up after ``DRAW_SECONDS`` (``TimeoutError``), killed as hung
    (``TaskHung``) or whose process start was given up (``StartGivenUp``) raised up to the
    platform adapter, and /stats got no answer. Every failure of a drawing now leaves the
    chart out (logged), as the showdown picture and /hand's do."""

    async def no_picture(self: Drawer, *args: Any) -> bytes:
        raise failure

    drawn = await service.stats(GROUP, CAROL, ["@alice"])  # (the drawer as it is: a chart)
    assert drawn.picture is not None
    monkeypatch.setattr(Drawer, "draw", no_picture)
    with caplog.at_level(logging.ERROR):
        reply = await service.stats(GROUP, CAROL, ["@alice"])
    assert reply.text == drawn.text and reply.text.splitlines()[-1] == "Net: +13 kush"
    assert reply.picture is None and reply.caption is None
    (logged,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert logged.getMessage().startswith("the kush chart of player ")
    assert logged.exc_info is not None and logged.exc_info[1] is failure
