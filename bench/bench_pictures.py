"""Showdown pictures (issue 12). Run: ``python bench/bench_pictures.py`` (``--n N`` pictures per
layout, default 200).

Draws showdown pictures (:func:`bot.pictures.draw`: the drawing and the PNG encoding, what the
sender runs in a worker thread after each showdown) of random boards for each layout: two
boards, three, four (two rows; classic OFC with the dummy board or double boxes). Prints per
layout the time per picture (p50, p99, max), its size (mean, max) and dimensions, and the
first picture of a fresh process (fonts loaded and card faces drawn once, then cached).

Comparisons, on the same images:

* the encoding alone, as shipped (PNG, zlib level 3) against PNG at Pillow's default level 6,
  PNG ``optimize``, a 64-colour palette PNG, lossless WebP and JPEG quality 85;
* a text-only baseline: Pillow drawing the same showdown as plain lines of text (what the text
  message says) on an image of the same size, without card faces, and its PNG.

Then the kush chart of ``/stats`` (:func:`bot.charts.draw_kush`) of random series of 2, 50
and 200 points (200: the most :meth:`Store.kush_series` returns), against the same chart of
a 5,000-entry series drawn without thinning (what the thinning in SQL saves). Goals: ≤ 30 ms
(CPU p99) and ≤ 100 KB.

Times are wall and CPU (the drawing thread's own): on a shared machine the wall time also
counts waiting for a core. Goals: ≤ 30 ms (CPU p99) and ≤ 150 KB per picture.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from _machine import describe
from PIL import Image, ImageDraw

from bot import pictures
from bot.charts import KushChart, draw_kush
from bot.pictures import BoardPicture, Picture, draw, draw_image, layout
from game.cards import cards_str, shuffled_deck

T = TypeVar("T")
R = TypeVar("R")
GOAL_MS, GOAL_KB = 30.0, 150.0
CHART_GOAL_KB = 100.0
HANDS = ("pair of queens", "two pair, kings and eights", "full house, aces over fives", "flush")


def random_picture(rng: random.Random, boards: int, dummy: bool = False) -> Picture:
    """A showdown of ``boards`` random boards (and a dummy board)."""
    deck = shuffled_deck(rng=rng)
    out = []
    for n in range(boards):
        top, middle, bottom = deck[:3], deck[3:8], deck[8:13]
        deck = deck[13:]
        fouled = rng.random() < 0.15
        points = rng.randint(-18, 18)
        out.append(
            BoardPicture(
                name=f"Player {n + 1} with a longish name"[: rng.randint(5, 30)],
                boxes=(cards_str(top), cards_str(middle), cards_str(bottom)),
                hands=(rng.choice(HANDS), rng.choice(HANDS), rng.choice(HANDS)),
                scores=(rng.choice((0, 0, 7, 9)), rng.choice((0, 2, 4)), rng.choice((0, 6, 10))),
                fouled=fouled,
                points=points,
                kush=points * 10,
                fl_next=rng.choice((0, 0, 0, 14)),
                timed_out=rng.random() < 0.1,
            )
        )
    extra = None
    if dummy:
        extra = (cards_str(deck[:3]), cards_str(deck[3:8]), cards_str(deck[8:13]))
    return Picture(f"Pineapple OFC · table #12 · hand {rng.randint(1, 99)}", "en", tuple(out),
                   dummy=extra)  # fmt: skip


def random_chart(rng: random.Random, points: int) -> KushChart:
    """A player's running kush over ``points`` entries minutes to hours apart."""
    at, total, series = 1_800_000_000.0, 0, []
    for _ in range(points):
        at += rng.uniform(60, 20_000)
        total += rng.randint(-60, 64)
        series.append((at, total))
    return KushChart("Player with a longish name", "en", "kush", "all time", tuple(series))


def bench_charts(rng: random.Random, n: int) -> None:
    """The ``/stats`` kush chart: time and size per series length, and the goal."""
    print(f"\nkush chart of /stats (draw_kush = drawing + PNG), {n} charts per length:")
    worst_ms, worst_kb = 0.0, 0.0
    for points in (2, 50, 200):
        charts = [random_chart(rng, points) for _ in range(n)]
        ms, pngs = timed(charts, draw_kush)
        sizes = [len(p) for p in pngs]
        worst_ms, worst_kb = max(worst_ms, p99(CPU)), max(worst_kb, max(sizes) / 1024)
        mean, most = statistics.mean(sizes) / 1024, max(sizes) / 1024
        print(f"  {points:4} points: {stats(ms)}  size mean {mean:5.1f} KB, max {most:5.1f} KB")
    ok = worst_ms <= GOAL_MS and worst_kb <= CHART_GOAL_KB
    print(f"goal ≤ {GOAL_MS:.0f} ms and ≤ {CHART_GOAL_KB:.0f} KB: worst CPU p99 {worst_ms:.2f} "
          f"ms, largest {worst_kb:.1f} KB: {'met' if ok else 'NOT met'}")  # fmt: skip
    full = [random_chart(rng, 5000) for _ in range(max(1, n // 10))]
    ms, pngs = timed(full, draw_kush)
    print(f"  comparison, 5000 points unthinned: {stats(ms)}  size mean "
          f"{statistics.mean(len(p) for p in pngs) / 1024:5.1f} KB")  # fmt: skip


def text_only(pic: Picture) -> Image.Image:
    """The baseline: the showdown's text lines drawn with Pillow, no card faces."""
    _, width, height = layout(pic)
    img = Image.new("RGB", (width, height), pictures.FELT)
    d = ImageDraw.Draw(img)
    font = pictures._font(14)
    y = 8
    lines = [pic.title]
    for b in pic.boards:
        lines.append(f"{b.name}: {b.points:+d} pts · {b.kush:+d} kush")
        for box, hand in zip(b.boxes, b.hands, strict=True):
            lines.append(f"   {box} — {hand}")
    for line in lines:
        d.text((8, y), line, font=font, fill=pictures.WHITE)
        y += 18
    return img


#: CPU milliseconds of the calls :func:`timed` made last (the wall time includes waiting for
#: a core, which on a shared machine is not the picture's)
CPU: list[float] = []


def timed(items: Sequence[T], fn: Callable[[T], R]) -> tuple[list[float], list[R]]:
    """``fn`` of each item: wall milliseconds each took, and the results (CPU milliseconds
    in :data:`CPU`)."""
    ms, results = [], []
    CPU.clear()
    for item in items:
        start, cpu = time.perf_counter(), time.thread_time()
        results.append(fn(item))
        ms.append((time.perf_counter() - start) * 1000)
        CPU.append((time.thread_time() - cpu) * 1000)
    return ms, results


def p99(ms: list[float]) -> float:
    return sorted(ms)[min(len(ms) - 1, int(len(ms) * 0.99))]


def stats(ms: list[float]) -> str:
    """Wall p50 / p99 / max, and CPU p50 / p99 of the same calls."""
    wall = f"wall p50 {statistics.median(ms):6.2f} p99 {p99(ms):6.2f} max {max(ms):6.2f} ms"
    return wall + f" | CPU p50 {statistics.median(CPU):6.2f} p99 {p99(CPU):6.2f} ms"


def encode(img: Image.Image, how: str) -> bytes:
    buf = io.BytesIO()
    if how == "png3 (shipped)":
        img.save(buf, "PNG", compress_level=3)
    elif how == "png6 (default)":
        img.save(buf, "PNG")
    elif how == "png optimize":
        img.save(buf, "PNG", optimize=True)
    elif how == "png 64 colours":
        img.quantize(64).save(buf, "PNG", compress_level=3)
    elif how == "webp lossless":
        img.save(buf, "WEBP", lossless=True, method=0)
    elif how == "jpeg q85":
        img.save(buf, "JPEG", quality=85)
    return buf.getvalue()


ENCODINGS = (
    "png3 (shipped)",
    "png6 (default)",
    "png optimize",
    "png 64 colours",
    "webp lossless",
    "jpeg q85",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="pictures per layout")
    args = parser.parse_args()
    print(f"machine: {describe()}")
    rng = random.Random(12)
    start = time.perf_counter()
    first = draw(random_picture(rng, 2))
    cold = (time.perf_counter() - start) * 1000
    print(f"first picture of the process (fonts loaded, card faces drawn): {cold:.1f} ms, "
          f"{len(first) / 1024:.1f} KB")  # fmt: skip
    print(f"\n{args.n} pictures per layout, draw() = drawing + PNG (what the sender runs), "
          "milliseconds:")  # fmt: skip
    worst_ms, worst_kb, worst_wall = 0.0, 0.0, 0.0
    samples: dict[str, list[Picture]] = {}
    for label, boards, dummy in (
        ("2 boards", 2, False),
        ("3 boards", 3, False),
        ("4 boards", 4, False),
        ("3 + dummy", 3, True),
    ):
        pics = [random_picture(rng, boards, dummy) for _ in range(args.n)]
        samples[label] = pics
        ms, pngs = timed(pics, draw)
        sizes = [len(png) for png in pngs]
        _, width, height = layout(pics[0])
        worst_ms = max(worst_ms, p99(CPU))
        worst_wall = max(worst_wall, statistics.median(ms))
        worst_kb = max(worst_kb, max(sizes) / 1024)
        mean, most = statistics.mean(sizes) / 1024, max(sizes) / 1024
        print(f"  {label:10} {width}×{height}: {stats(ms)}  size mean {mean:5.1f} KB, "
              f"max {most:5.1f} KB")  # fmt: skip
    ok = worst_ms <= GOAL_MS and worst_kb <= GOAL_KB
    print(f"goal ≤ {GOAL_MS:.0f} ms and ≤ {GOAL_KB:.0f} KB: worst CPU p99 {worst_ms:.2f} ms "
          f"(worst wall p50 {worst_wall:.2f} ms), largest {worst_kb:.1f} KB: "
          f"{'met' if ok else 'NOT met'}")  # fmt: skip

    pics = samples["3 boards"]
    images = [draw_image(p) for p in pics]
    drawing, _ = timed(pics, draw_image)
    print("\nwhere the time goes (3 boards):")
    print(f"  drawing only (no encoding)    {stats(drawing)}")
    print("\nencodings of the same 3-board images (time to encode, size):")
    for how in ENCODINGS:
        ms, encoded = timed(images, lambda img, how=how: encode(img, how))  # type: ignore[misc]
        sizes = [len(e) for e in encoded]
        print(f"  {how:16} {stats(ms)}  size mean {statistics.mean(sizes) / 1024:5.1f} KB, "
              f"max {max(sizes) / 1024:5.1f} KB")  # fmt: skip
    base, encoded = timed(pics, lambda p: encode(text_only(p), "png3 (shipped)"))
    base_sizes = [len(e) for e in encoded]
    print("\nbaseline, Pillow text-only draw of the same showdowns + PNG (no card faces):")
    print(f"  text only        {stats(base)}  size mean "
          f"{statistics.mean(base_sizes) / 1024:5.1f} KB")  # fmt: skip
    bench_charts(rng, args.n)


if __name__ == "__main__":
    main()
