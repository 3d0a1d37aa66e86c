"""The kush chart of ``/stats`` (issue 12): a player's net kush over time as a PNG.

:func:`draw_kush` is pure (a :class:`KushChart` in, PNG bytes out), drawn with Pillow and the
shipped DejaVu Sans of :mod:`bot.pictures` (no system fonts), in the colours of the showdown
pictures. The data comes from :meth:`storage.api.Store.kush_series` (at most 200 points,
thinned in SQL); the service draws it in its drawing process (:class:`bot.drawing.Drawer`),
never on the event loop.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.pictures import FELT, GREEN, MUTED, PANEL, RED, WHITE, _drawable, _fit, _font
from bot.texts import kush_word, signed, tr

__all__ = ["HEIGHT", "WIDTH", "KushChart", "date_labels", "draw_kush", "kush_ticks"]

WIDTH, HEIGHT = 640, 360
"""The chart's size in pixels (a phone's width; Telegram shows it without scaling down)."""

_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 20, 84, 40  # the plot area's margins
#: the unit over the amounts ("kush") ends this far above the plot: at 6 px it sat on the top
#: amount, under the period, and read as one column with them ("за всё время / куш / +40")
_UNIT_GAP = 12
_GRID = (40, 120, 86)


@dataclass(frozen=True, slots=True)
class KushChart:
    """What the chart shows.

    :ivar name: the player's name (the title).
    :ivar lang: ``"en"`` or ``"ru"`` (the net result's words).
    :ivar label: the community's name for kush (the vertical axis, the net).
    :ivar when: the period in words (``"all time"``, :func:`bot.texts.tr` ``period.*``).
    :ivar points: ``(finished_at, net kush so far)``, Unix seconds, oldest first (at least
        one; :meth:`storage.api.Store.kush_series`). The line starts at 0 just before the
        first entry; its last value is the net result of the period.
    :ivar utc_offset: the group's time zone, hours from UTC (the dates under the axis).
    """

    name: str
    lang: str
    label: str
    when: str
    points: tuple[tuple[float, int], ...]
    utc_offset: float = 0.0

    @property
    def net(self) -> int:
        """The net kush of the period (the last point's sum; 0 without points)."""
        return self.points[-1][1] if self.points else 0


def kush_ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Round values for the vertical axis covering ``low … high``: multiples of 1, 2 or
    5 × 10ᵏ, at least two and at most ``most`` of them, from at or below ``low`` to at or
    above ``high`` (``kush_ticks(-7, 13)`` → ``[-10, -5, 0, 5, 10, 15]``)."""
    for k in range(19):
        for m in (1, 2, 5):
            step = m * 10**k
            first, last = (low // step) * step, -(-high // step) * step
            if last == first:
                last += step
            if (last - first) // step + 1 <= most:
                return list(range(first, last + 1, step))
    return [low, high + 1]  # beyond 10¹⁹ kush: never


def date_labels(
    start: float, end: float, count: int = 4, *, utc_offset: float = 0.0
) -> list[tuple[float, str]]:
    """``count`` evenly spaced times from ``start`` to ``end`` (Unix seconds) with their
    labels in the time zone ``utc_offset`` hours from UTC: ``HH:MM`` within two days,
    ``DD.MM`` within half a year, ``DD.MM.YY`` beyond. A label equal to the one before it is
    left out (one label when ``start == end``)."""
    span = end - start
    fmt = "%H:%M" if span < 2 * 86400 else ("%d.%m" if span < 183 * 86400 else "%d.%m.%y")
    shift = utc_offset * 3600
    if span <= 0:
        return [(start, time.strftime(fmt, time.gmtime(start + shift)))]
    out: list[tuple[float, str]] = []
    for k in range(count):
        at = start + span * k / (count - 1)
        text = time.strftime(fmt, time.gmtime(at + shift))
        if not out or out[-1][1] != text:
            out.append((at, text))
    return out


def draw_kush_image(chart: KushChart) -> Image.Image:
    """The chart as a Pillow image (RGB, :data:`WIDTH` × :data:`HEIGHT`); see
    :func:`draw_kush`."""
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    d = ImageDraw.Draw(img)
    net = chart.net
    colour = GREEN if net > 0 else (RED if net < 0 else WHITE)
    # title: the name and the period on the left, the net result on the right
    net_text = tr(
        chart.lang,
        "chart.net",
        kush=signed(net, chart.lang, drawn=True),
        label=_drawable(chart.label),
    )
    net_font = _font(18, bold=True)
    net_w = int(d.textlength(net_text, font=net_font))
    d.text((WIDTH - _RIGHT, 12), net_text, font=net_font, fill=colour, anchor="ra")
    title_font = _font(18, bold=True)
    title = _fit(d, _drawable(chart.name), title_font, WIDTH - _RIGHT - net_w - 32)
    d.text((16, 12), title, font=title_font, fill=WHITE)
    d.text((16, 36), _drawable(chart.when), font=_font(13), fill=MUTED)
    # the plot area
    x0, y0, x1, y1 = _LEFT, _TOP, WIDTH - _RIGHT, HEIGHT - _BOTTOM
    d.rectangle((x0, y0, x1, y1), fill=PANEL)
    pts = list(chart.points)
    if not pts:
        return img
    values = [0, *(v for _, v in pts)]
    ticks = kush_ticks(min(values), max(values))
    lo, hi = ticks[0], ticks[-1]
    t_start, t_end = pts[0][0], pts[-1][0]

    def px(at: float) -> float:
        return x0 + (x1 - x0) * ((at - t_start) / (t_end - t_start) if t_end > t_start else 0.5)

    def py(v: int) -> float:
        return y1 - (y1 - y0) * (v - lo) / (hi - lo)

    small = _font(12)
    tick_texts = [signed(v, chart.lang, drawn=True) for v in ticks]  # (grouped: −100,000)
    tick_font = small
    for size in (11, 10, 9):  # a wide amount in a smaller font, never cut at the image's edge
        if max(d.textlength(t, font=tick_font) for t in tick_texts) <= x0 - 8:
            break
        tick_font = _font(size)
    for v, tick in zip(ticks, tick_texts, strict=True):  # horizontal grid and the kush labels
        y = py(v)
        d.line((x0, y, x1, y), fill=WHITE if v == 0 else _GRID, width=1)
        d.text((x0 - 6, y), tick, font=tick_font, fill=MUTED, anchor="rm")
    d.text((x0 - 6, y0 - _UNIT_GAP), _drawable(chart.label), font=small, fill=MUTED, anchor="rb")
    labels = date_labels(t_start, t_end, utc_offset=chart.utc_offset)
    for k, (at, text) in enumerate(labels):  # the dates under the axis
        x = px(at)
        d.line((x, y1, x, y1 + 4), fill=MUTED, width=1)
        anchor = "ma" if 0 < k < len(labels) - 1 or len(labels) == 1 else "la" if k == 0 else "ra"
        d.text((x, y1 + 7), text, font=small, fill=MUTED, anchor=anchor)
    line = [(px(t_start), py(0))] + [(px(at), py(v)) for at, v in pts]  # from 0
    d.line(line, fill=colour, width=3, joint="curve")
    ex, ey = line[-1]
    d.ellipse((ex - 4, ey - 4, ex + 4, ey + 4), fill=colour)
    return img


def draw_kush(chart: KushChart) -> bytes:
    """The chart as PNG bytes: the player's name, the period and the net result on top, then
    the net kush so far against time (the group's dates under the axis, round kush values beside it,
    the zero line in white), the line green for a net gain, red for a loss.

    Pure (no I/O but reading the shipped fonts once). 640 × 360 px, about 10–20 KB; a few
    milliseconds of CPU (``bench/bench_pictures.py``, goal ≤ 30 ms and ≤ 100 KB)."""
    buf = io.BytesIO()
    draw_kush_image(chart).save(buf, "PNG", compress_level=3)
    return buf.getvalue()


def chart_of(
    name: str,
    lang: str,
    label: str,
    when: str,
    series: Sequence[tuple[float, int]],
    utc_offset: float = 0.0,
) -> KushChart:
    """A :class:`KushChart` from a :meth:`~storage.api.Store.kush_series` result, its dates
    ``utc_offset`` hours from UTC (the community's ``utc_offset``)."""
    series_ = tuple((float(a), int(v)) for a, v in series)
    return KushChart(name, lang, kush_word(label, lang), when, series_, utc_offset)
