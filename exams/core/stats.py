"""Results statistics: per question slot (mean, share correct, discrimination) and a score histogram.

Inputs are plain rows: per attempt its total and, per item key, (points, max points, correct).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Mapping, Sequence

# Kelley's classic split: the discrimination index compares the top and bottom 27 % by total score.
GROUP_SHARE = 0.27


@dataclass(frozen=True)
class ItemRow:
    points: float
    max_points: float
    correct: bool


@dataclass(frozen=True)
class AttemptRow:
    attempt_id: int
    total: float
    items: Mapping[str, ItemRow]  # item key -> its score in this attempt


@dataclass
class ItemStats:
    key: str
    n: int  # attempts that drew this item
    mean: float  # mean points
    max_points: float
    share_correct: float  # 0..1
    discrimination: float | None  # -1..1: share correct in the top group - in the bottom group; None under 4 attempts


def item_stats(rows: Sequence[AttemptRow]) -> list[ItemStats]:
    """Statistics per item key (sorted by key). The discrimination index uses the top and bottom
    27 % (at least one attempt each) of the attempts that drew the item, ranked by total."""
    keys = sorted({k for r in rows for k in r.items})
    out = []
    for key in keys:
        drew = sorted((r for r in rows if key in r.items), key=lambda r: r.total)
        n = len(drew)
        scores = [r.items[key] for r in drew]
        mean = sum(s.points for s in scores) / n
        share = sum(1 for s in scores if s.correct) / n
        disc = None
        if n >= 4:
            g = max(1, round(n * GROUP_SHARE))
            low = sum(1 for r in drew[:g] if r.items[key].correct) / g
            high = sum(1 for r in drew[-g:] if r.items[key].correct) / g
            disc = round(high - low, 3)
        out.append(ItemStats(key, n, round(mean, 3), max(s.max_points for s in scores), round(share, 3), disc))
    return out


@dataclass
class Histogram:
    edges: list[float]  # len(counts) + 1 bin edges, in points
    counts: list[int]

    @property
    def peak(self) -> int:
        return max(self.counts, default=0)


def histogram(totals: Sequence[float], max_total: float, bins: int = 10) -> Histogram:
    """Counts of totals in `bins` equal bins over [0, max_total]; the last bin includes max_total."""
    max_total = max_total or 1.0
    width = max_total / bins
    counts = [0] * bins
    for t in totals:
        i = min(bins - 1, max(0, int(math.floor(t / width + 1e-9))))
        counts[i] += 1
    return Histogram([round(i * width, 3) for i in range(bins + 1)], counts)


FONT = 11  # px, every text of the chart


def histogram_svg(h: Histogram, width: int = 520, height: int = 220, label: str = "", x_label: str = "",
                  y_label: str = "") -> str:
    """A bar chart of `h` as an SVG string (server-rendered; no script). `label` is its accessible
    title, `x_label`/`y_label` the axis captions (translated by the caller; escaped here).

    Every text lies inside the view box: the count above the tallest bar has room under the top,
    the edge numbers are centred on their ticks (the first starts, the last ends at the border) and
    printed only where they do not run into the previous one.
    """
    pad_l, pad_r = 34 if y_label else 12, 12
    pad_t = FONT + 8  # the count above the tallest bar
    pad_b = FONT + 10 + (FONT + 8 if x_label else 0)  # the edge numbers, then the caption
    n = len(h.counts)
    plot_w = width - pad_l - pad_r
    bar_w = plot_w / n
    peak = h.peak or 1
    plot_h = height - pad_b - pad_t
    base = pad_t + plot_h
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
             f'class="histogram" width="{width}" height="{height}" font-size="{FONT}"><title>{escape(label)}</title>']
    for i, c in enumerate(h.counts):
        bh = plot_h * c / peak
        x = pad_l + i * bar_w
        y = base - bh
        parts.append(f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bar_w - 2:.1f}" height="{bh:.1f}" fill="#4a7bd0">'
                     f'<title>{h.edges[i]:g}–{h.edges[i + 1]:g}: {c}</title></rect>')
        if c:
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle">{c}</text>')
    # Edge numbers: about 6 px per character; one that would touch the previous is left out (the
    # last one, the maximum, always stays: the one before it gives way).
    edge_y = base + FONT + 4
    chars = [len(f"{e:g}") for e in h.edges]
    shown: list[int] = []
    for i in range(len(h.edges)):
        x = pad_l + i * bar_w
        if shown:
            j = shown[-1]
            gap = (x - (pad_l + j * bar_w)) - 3.5 * (chars[i] + chars[j])
            if gap < 4:
                if i < len(h.edges) - 1:
                    continue
                shown.pop()
        shown.append(i)
    for i in shown:
        x = pad_l + i * bar_w
        anchor = "start" if i == 0 else "end" if i == len(h.edges) - 1 else "middle"
        parts.append(f'<text x="{x:.1f}" y="{edge_y}" text-anchor="{anchor}">{h.edges[i]:g}</text>')
    if x_label:
        parts.append(f'<text x="{pad_l + plot_w / 2:.1f}" y="{height - 5}" text-anchor="middle" '
                     f'class="axis-label">{escape(x_label)}</text>')
    if y_label:
        parts.append(f'<text x="{FONT + 2}" y="{pad_t + plot_h / 2:.1f}" text-anchor="middle" class="axis-label" '
                     f'transform="rotate(-90 {FONT + 2} {pad_t + plot_h / 2:.1f})">{escape(y_label)}</text>')
    parts.append(f'<line x1="{pad_l}" y1="{base}" x2="{width - pad_r}" y2="{base}" stroke="#888"/></svg>')
    return "".join(parts)
