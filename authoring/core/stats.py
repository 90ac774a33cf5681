"""Plain computations of the instructor dashboard: medians, chart geometry, grouping error messages."""
from __future__ import annotations

import re
from dataclasses import dataclass
from statistics import median

_NUMBERS = re.compile(r"\b\d+\b")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’")


def median_or_none(values: list[float]) -> float | None:
    """The median of `values` (seconds, counts...), None for an empty list."""
    return median(values) if values else None


def error_key(message: str) -> str:
    """A compiler message with its identifiers and numbers blanked, so that the same mistake in
    different code groups together ("'x' was not declared in this scope" and "'idx' was not ...")."""
    text = _QUOTED.sub("'…'", message.strip().splitlines()[0] if message.strip() else "")
    return _NUMBERS.sub("N", text)[:200]


@dataclass(frozen=True)
class Bar:
    """One bar of a server-rendered SVG bar chart: geometry in SVG user units."""

    label: str
    value: int
    x: float
    y: float
    width: float
    height: float
    css: str = ""  # a class for the bar's colour (e.g. the verdict's)


def bars(rows: list[tuple[str, int, str]], width: float = 600, height: float = 180, gap: float = 4) -> list[Bar]:
    """Bars for (label, value, css class) rows, scaled so the largest fills `height`; bottom at `height`."""
    if not rows:
        return []
    top = max(v for _, v, _ in rows) or 1
    step = width / len(rows)
    out = []
    for i, (label, value, css) in enumerate(rows):
        h = height * value / top
        out.append(Bar(label, value, i * step + gap / 2, height - h, max(step - gap, 1), h, css))
    return out


@dataclass(frozen=True)
class Tick:
    """One label under a bar chart: where it is anchored (SVG user units) and on which side."""

    label: str
    x: float
    anchor: str  # SVG text-anchor: "start" (the first bar's left edge), "middle" (a bar's centre), "end"


def axis_ticks(bars: list[Bar], every: int = 7, room: float = 50) -> list[Tick]:
    """Labels under the first bar, every `every`-th bar and the last bar, kept inside the chart: the
    first starts at its bar's left edge, the last ends at its bar's right edge (it was drawn from its
    left edge and cut off at the chart's border: "12-0"), the others are centred on their bars; one
    whose centre is closer than `room` units to the last label's end is left out (a label is about 30 units
    wide at the charts' 10 px: half of one, the whole last one and a gap)."""
    if not bars:
        return []
    first, last = bars[0], bars[-1]
    ticks = [Tick(first.label, first.x, "start")]
    end = last.x + last.width
    for i, b in enumerate(bars[1:-1], start=2):
        centre = b.x + b.width / 2
        if i % every == 0 and end - centre >= room:
            ticks.append(Tick(b.label, centre, "middle"))
    if len(bars) > 1:
        ticks.append(Tick(last.label, end, "end"))
    return ticks


@dataclass(frozen=True)
class Segment:
    """One part of a stacked bar: geometry in SVG user units, along the bar."""

    name: str  # what it counts (e.g. "solved"), for its tooltip and the legend
    value: int
    x: float
    width: float
    css: str = ""


@dataclass(frozen=True)
class StackedBar:
    """One horizontal bar of a stacked bar chart: its label and its segments, left to right."""

    label: str
    y: float  # top of the bar
    height: float
    segments: tuple[Segment, ...]

    @property
    def text_y(self) -> float:
        """The baseline of the label, centred on the bar."""
        return self.y + self.height / 2 + 4


def stacked_bars(rows: list[tuple[str, list[tuple[str, int, str]]]], scale: int, x0: float = 200,
                 width: float = 600, bar_height: float = 18, gap: float = 6) -> tuple[list[StackedBar], float]:
    """Horizontal stacked bars, one per (label, [(name, value, css class), ...]) row, the segments laid
    left to right from x0, a total of `scale` (e.g. the number of students) filling the width up to
    `width`; segments of 0 are left out. Returns (bars, the chart's height)."""
    span = width - x0
    out = []
    for i, (label, parts) in enumerate(rows):
        x, segments = x0, []
        for name, value, css in parts:
            if value <= 0:
                continue
            w = span * value / scale if scale else 0
            segments.append(Segment(name, value, x, w, css))
            x += w
        out.append(StackedBar(label, i * (bar_height + gap), bar_height, tuple(segments)))
    return out, max(len(rows) * (bar_height + gap) - gap, 0)
