"""Results statistics: per question slot (mean, share correct, discrimination) and a score histogram.

Inputs are plain rows: per attempt its total and, per item key, (points, max points, correct).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from typing import Mapping, Sequence

# Kelley's classic split: the discrimination index compares the top and bottom 27 % by total score.
GROUP_SHARE = 0.27


@dataclass(frozen=True)
class ItemRow:
    points: float
    max_points: float
    correct: bool
    answered: bool = True  # a question with a field filled in; a kernel with a submission
    submissions: int = 0  # a kernel item's submissions (platform faults included); 0 for a question
    kernel: bool = False


@dataclass(frozen=True)
class AttemptRow:
    attempt_id: int
    total: float
    items: Mapping[str, ItemRow]  # item key -> its score in this attempt


@dataclass
class ItemStats:
    key: str
    drawn: int  # ended attempts that drew this item
    answered: int  # of those, the ones that answered it (a field filled in; a kernel submitted at least once)
    submissions: int | None  # kernel submissions of those attempts in all; None for a question
    mean: float  # mean points over the attempts that drew it (unanswered ones count 0)
    max_points: float
    share_correct: float  # 0..1, of the attempts that drew it
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
        kernel = any(s.kernel for s in scores)
        out.append(ItemStats(key, n, sum(1 for s in scores if s.answered),
                             sum(s.submissions for s in scores) if kernel else None, round(mean, 3),
                             max(s.max_points for s in scores), round(share, 3), disc))
    return out


@dataclass
class Histogram:
    edges: list[float]  # len(counts) + 1 bin edges, in points
    counts: list[int]
    # Whole-number scores: each bin is a run of whole scores, labelled under its bar ("0–4", "24");
    # empty for a continuous axis, labelled at its edges.
    labels: list[str] = field(default_factory=list)

    @property
    def peak(self) -> int:
        return max(self.counts, default=0)


MAX_BINS = 12
# Bin widths a reader counts in: whole scores in runs of these; fractional ones in these times 10^k.
WHOLE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
STEPS = (1.0, 2.0, 2.5, 5.0)


def _whole(x: float) -> bool:
    return abs(x - round(x)) < 1e-9


def histogram(totals: Sequence[float], max_total: float, bins: int | None = None) -> Histogram:
    """Counts of totals (points) over [0, max_total], in bins that fit the scores.

    Whole-number totals of a whole-number maximum M (every score so far, and the maximum): bins of
    `w` whole scores, w the first of WHOLE_WIDTHS giving at most MAX_BINS bins over the M + 1
    possible scores (0..M), aligned at 0 and labelled by the scores they hold ("0–4", ..., "20–24";
    a last bin of one score reads "100"). Otherwise equal bins of a round width (1, 2, 2.5 or 5
    times a power of ten) from 0 past max_total, the last including it. `bins` forces that many
    equal bins (the old layout; tests)."""
    max_total = float(max_total or 0) or 1.0
    if bins is None and _whole(max_total) and all(_whole(t) for t in totals):
        top = int(round(max_total))
        width = next((w for w in WHOLE_WIDTHS if math.ceil((top + 1) / w) <= MAX_BINS), WHOLE_WIDTHS[-1])
        n = math.ceil((top + 1) / width)
        counts = [0] * n
        for t in totals:
            counts[min(n - 1, max(0, int(round(t)) // width))] += 1
        labels = []
        for i in range(n):
            low, high = i * width, min(top, i * width + width - 1)
            labels.append(f"{low}" if low == high else f"{low}–{high}")
        return Histogram([float(i * width) for i in range(n)] + [float(top)], counts, labels)
    if bins is None:
        magnitude = 10 ** math.floor(math.log10(max_total / MAX_BINS)) if max_total > 0 else 1
        width = next((m * magnitude for m in (*STEPS, 10.0) if math.ceil(max_total / (m * magnitude) - 1e-9) <= MAX_BINS))
        bins = max(1, math.ceil(max_total / width - 1e-9))
    else:
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
                     f'<title>{escape(_bin_name(h, i))}: {c}</title></rect>')
        if c:
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle">{c}</text>')
    edge_y = base + FONT + 4
    if h.labels:
        # Whole scores: each bin's scores centred under its bar, thinned like the edge numbers below.
        shown = _spaced([pad_l + (i + 0.5) * bar_w for i in range(n)], [len(t) for t in h.labels])
        for i in shown:
            parts.append(f'<text x="{pad_l + (i + 0.5) * bar_w:.1f}" y="{edge_y}" text-anchor="middle">'
                         f'{escape(h.labels[i])}</text>')
        return _finish(parts, width, height, pad_l, pad_r, pad_t, plot_w, plot_h, base, x_label, y_label)
    # Edge numbers: about 6 px per character; one that would touch the previous is left out (the
    # last one, the maximum, always stays: the one before it gives way).
    shown = _spaced([pad_l + i * bar_w for i in range(len(h.edges))], [len(f"{e:g}") for e in h.edges])
    for i in shown:
        x = pad_l + i * bar_w
        anchor = "start" if i == 0 else "end" if i == len(h.edges) - 1 else "middle"
        parts.append(f'<text x="{x:.1f}" y="{edge_y}" text-anchor="{anchor}">{h.edges[i]:g}</text>')
    return _finish(parts, width, height, pad_l, pad_r, pad_t, plot_w, plot_h, base, x_label, y_label)


def _bin_name(h: Histogram, i: int) -> str:
    return h.labels[i] if h.labels else f"{h.edges[i]:g}–{h.edges[i + 1]:g}"


def _spaced(xs: Sequence[float], chars: Sequence[int]) -> list[int]:
    """Which of the texts centred at `xs` (`chars` characters each, about 7 px a character) to print so
    that none runs into the previous one; the last always stays (the one before it gives way)."""
    shown: list[int] = []
    for i, x in enumerate(xs):
        if shown:
            j = shown[-1]
            if (x - xs[j]) - 3.5 * (chars[i] + chars[j]) < 4:
                if i < len(xs) - 1:
                    continue
                shown.pop()
        shown.append(i)
    return shown


def _finish(parts, width, height, pad_l, pad_r, pad_t, plot_w, plot_h, base, x_label, y_label) -> str:
    """The axis captions and the base line, and the SVG closed."""
    if x_label:
        parts.append(f'<text x="{pad_l + plot_w / 2:.1f}" y="{height - 5}" text-anchor="middle" '
                     f'class="axis-label">{escape(x_label)}</text>')
    if y_label:
        parts.append(f'<text x="{FONT + 2}" y="{pad_t + plot_h / 2:.1f}" text-anchor="middle" class="axis-label" '
                     f'transform="rotate(-90 {FONT + 2} {pad_t + plot_h / 2:.1f})">{escape(y_label)}</text>')
    parts.append(f'<line x1="{pad_l}" y1="{base}" x2="{width - pad_r}" y2="{base}" stroke="#888"/></svg>')
    return "".join(parts)
