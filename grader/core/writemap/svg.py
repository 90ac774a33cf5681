"""The write map drawn as a server-side SVG grid.

`render_svg` draws a WriteMap (model.py): a 1-D output as rows of ROW_WIDTH cells, a 2-D
output as its matrix, each cell filled by the colour of the writing block; never-written cells are
hatched, cells written by two or more threads carry a dot, wrong values a cross (so the picture
reads in print and without colour); text and marks are drawn in the page's text colour (either theme). Each cell has a <title> (hover, or a tap, without JavaScript)
with the index, the writing thread and, when given, the expected and obtained values. Past
MAX_SIDE cells per side the grid is downsampled: one cell stands for a tile of elements, its colour
is the block of the tile's first written element and its marks say whether any element of the
tile is never written, collided or wrong (the legend says how many elements a cell covers).

Plain Python (no Django): text goes through `translate` (Django's gettext at the edge); every
sentence is a template marked with messages.gettext_noop.
"""
from __future__ import annotations

import html
from typing import Callable

import numpy as np

from ..messages import gettext_noop as _
from .model import NEVER, WriteMap, wrong_mask

ROW_WIDTH = 32  # cells per row of a 1-D output shown one element per cell
MAX_SIDE = 64  # cells per side at most; beyond, a cell covers a tile of elements
CELL = 12  # pixels per cell

# Twelve block colours that keep their contrast on a white or a near-black page (mid lightness).
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
           "#b07aa1", "#ff9da7", "#9c755f", "#8cd17d", "#bab0ac", "#d37295")

T_TITLE = _("Write map of %(name)s")
T_ELEMENT = _("%(name)s%(index)s")
T_WRITER = _("written by block %(block)s, thread %(thread)s")
T_NEVER = _("never written")
T_TIMES = _("%(count)s threads wrote it, the last shown")
T_EXPECTED = _("expected %(expected)s, got %(got)s")
T_TILE = _("%(name)s%(first)s to %(last)s (%(count)s elements)")
T_TILE_MARKS = _("%(never)s never written, %(collided)s written by 2+ threads, %(wrong)s wrong")
T_LEGEND_NEVER = _("never written")
T_LEGEND_COLLIDED = _("written by 2+ threads")
T_LEGEND_WRONG = _("wrong value")
T_LEGEND_COLOUR = _("colour: the writing block")
T_LEGEND_ASKED = _("the element asked about")
T_LEGEND_SCALE = _("one cell = %(count)s elements (%(rows)s x %(cols)s); marks: any element of the cell")
T_SUMMARY = _("%(written)s elements written once, %(collided)s by 2+ threads, %(never)s never written, %(wrong)s wrong")


def _identity(text: str) -> str:
    return text


def format_value(value) -> str:
    """A value as a cell's title prints it: floats to 6 significant digits, anything else by str()."""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _ids_of(linear: np.ndarray, dims: tuple[int, int, int]) -> list[str]:
    """'(x, y, z)' of each linear id (x fastest) within `dims`, vectorised."""
    x, y, z = linear % dims[0], linear // dims[0] % dims[1], linear // (dims[0] * dims[1])
    return [f"({a}, {b}, {c})" for a, b, c in zip(x.tolist(), y.tolist(), z.tolist())]


def _indices(shape: tuple[int, ...], flat: np.ndarray) -> list[str]:
    """'[i, j]' of each flat index of a C-order array of `shape`, vectorised."""
    coords = [a.tolist() for a in np.unravel_index(flat, shape)]
    return ["[" + ", ".join(map(str, c)) + "]" for c in zip(*coords)]


def _layout(n: int, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(rows, cols, tile rows, tile cols) of the element grid: a 2-D shape's matrix, else rows of
    ROW_WIDTH; a long 1-D output gets MAX_SIDE cells per row, each a contiguous run of elements."""
    if len(shape) == 2:
        rows, cols = int(shape[0]), int(shape[1])
        return rows, cols, -(-rows // MAX_SIDE), -(-cols // MAX_SIDE)
    if n <= ROW_WIDTH * MAX_SIDE:
        return -(-n // ROW_WIDTH), min(n, ROW_WIDTH) or 1, 1, 1
    per = -(-n // (MAX_SIDE * MAX_SIDE))
    return -(-n // (MAX_SIDE * per)), MAX_SIDE * per, 1, per


def _tiles(a: np.ndarray, rows: int, cols: int, ry: int, rx: int, fill) -> np.ndarray:
    """`a` (flat, C order over rows x cols) as a (tile rows, ry, tile cols, rx) view, padded with `fill`
    only when the tiles do not divide the grid (no copy otherwise)."""
    ty, tx = -(-rows // ry), -(-cols // rx)
    if a.size == rows * cols and rows == ty * ry and cols == tx * rx:
        grid = a.reshape(rows, cols)
    else:
        grid = np.full((ty * ry, tx * rx), fill, dtype=a.dtype)
        flat = np.full(rows * cols, fill, dtype=a.dtype)
        flat[: a.size] = a
        grid[:rows, :cols] = flat.reshape(rows, cols)
    return grid.reshape(ty, ry, tx, rx)


def _dot(x: float, y: float) -> str:
    return f'<circle class="wm-m" cx="{x + 6}" cy="{y + 6}" r="2.5" fill="none" stroke-width="1.5"/>'


def _cross(x: float, y: float) -> str:
    return f'<path class="wm-m" d="M{x + 2},{y + 2}L{x + 10},{y + 10}M{x + 10},{y + 2}L{x + 2},{y + 10}" stroke-width="1.5"/>'


def _hatch(x: float, y: float) -> str:
    return f'<rect class="wm-h" x="{x + .5}" y="{y + .5}" width="{CELL - 1}" height="{CELL - 1}" fill="url(#wm-hatch)" stroke-width=".5"/>'


def _block_edges(rep: np.ndarray, present: np.ndarray, tpb: int, label_w: int) -> str:
    """One <path> along the edges between cells written by different blocks (never-written cells
    count as a block of their own), so a block's extent reads without telling colours apart."""
    block = np.where(present, np.where(rep >= 0, rep // tpb, -1), -2)
    d = []
    rows, cols = np.nonzero(block[:, 1:] != block[:, :-1])  # vertical edges, right of column c
    d += [f"M{label_w + (c + 1) * CELL},{r * CELL}v{CELL}" for r, c in zip(rows.tolist(), cols.tolist())]
    rows, cols = np.nonzero(block[1:, :] != block[:-1, :])  # horizontal edges, below row r
    d += [f"M{label_w + c * CELL},{(r + 1) * CELL}h{CELL}" for r, c in zip(rows.tolist(), cols.tolist())]
    if not d:
        return ""
    return f'<path class="wm-m" d="{"".join(d)}" fill="none" stroke-width="1.5" stroke-opacity=".8"/>'


# Text and marks take the page's text colour (currentColor), so the picture follows the site's theme,
# light or dark, without guessing it; the grid's ground is a faint tint of it. Print is black on white.
_STYLE = ("<style>.wm-c{stroke:#fff;stroke-opacity:.35;stroke-width:.5}.wm-t{fill:currentColor}"
          ".wm-m{stroke:currentColor}.wm-b{fill:currentColor;fill-opacity:.06}.wm-h{stroke:currentColor;stroke-opacity:.55}"
          "@media print{.wm-t{fill:#000}.wm-m{stroke:#000}.wm-b{fill:#fff}.wm-h{stroke:#555}}</style>")


def render_svg(writemap: WriteMap, expected=None, got=None, shape: tuple[int, ...] | None = None,
               translate: Callable[[str], str] | None = None, *, wrong=None, show_values: bool = True,
               highlight: int | None = None, origin: tuple[int, ...] | None = None) -> str:
    """The write map as an inline SVG document (a string, no XML declaration; all text escaped).

    `expected`/`got`: arrays of the buffer's size (any shape) or None; with both, wrong elements
    are marked (or pass `wrong`, a flat bool mask, e.g. the grader's own comparison).
    `show_values=False` keeps the values out of the titles (a hidden test's data) while still
    marking wrong elements. `shape` overrides writemap.shape for the layout (2-D: the matrix; any
    other: rows of ROW_WIDTH). `translate`: gettext, identity by default (English).
    `highlight`: a flat index drawn with a thick outline (the element a question asks about);
    `origin`: for a window of a larger array, the index of its first element, added to the indices
    the titles and row labels show (one int per dimension of the layout).
    Cost: O(n) numpy work plus O(cells) text, at most MAX_SIDE**2 cells (bench/writemap_bench.py).
    """
    tr = translate or _identity
    n = writemap.size
    shape = tuple(int(s) for s in (shape or writemap.shape or (n,)))
    if int(np.prod(shape, dtype=np.int64)) != n or len(shape) not in (1, 2):
        shape = (n,)
    if wrong is None:
        wrong = wrong_mask(expected, got)
    wrong = np.zeros(n, dtype=bool) if wrong is None else np.asarray(wrong, dtype=bool).ravel()[:n]
    rows, cols, ry, rx = _layout(n, shape)
    tiled = ry * rx > 1
    tpb = max(writemap.threads_per_block, 1)
    writer = writemap.writer.astype(np.int64, copy=False)
    w4 = _tiles(writer, rows, cols, ry, rx, NEVER)
    h4 = _tiles(writemap.hits.astype(np.uint8, copy=False), rows, cols, ry, rx, 1)
    x4 = _tiles(wrong, rows, cols, ry, rx, False)
    ty, tx = w4.shape[0], w4.shape[2]
    # One representative writer per cell: the top-left element's, else the highest id in the cell.
    rep = w4[:, 0, :, 0]
    if tiled:
        rep = np.where(rep >= 0, rep, w4.max(axis=(1, 3)))
    never_n = (h4 == 0).sum(axis=(1, 3))  # padding has hits 1: never counted
    coll_n = (h4 >= 2).sum(axis=(1, 3))
    wrong_n = x4.sum(axis=(1, 3))
    r_idx, c_idx = np.meshgrid(np.arange(ty), np.arange(tx), indexing="ij")
    lo = r_idx * ry * cols + c_idx * rx  # the first element of each cell
    present = (lo < n) & (c_idx * rx < cols)
    hi = np.minimum((np.minimum(r_idx * ry + ry, rows) - 1) * cols + np.minimum(c_idx * rx + rx, cols) - 1, n - 1)
    cells = np.flatnonzero(present.ravel())
    rep_f, lo_f = rep.ravel()[cells], lo.ravel()[cells]
    written = rep_f >= 0
    safe = np.where(written, rep_f, 0)
    blocks = _ids_of(safe // tpb, writemap.grid)
    threads = _ids_of(safe % tpb, writemap.block)
    colours = [PALETTE[b % len(PALETTE)] for b in (safe // tpb).tolist()]
    offset = tuple(int(o) for o in origin) if origin is not None and len(origin) == len(shape) else None

    def labels(flat: np.ndarray) -> list[str]:
        if offset is None:
            return _indices(shape, flat)
        coords = [(a + o).tolist() for a, o in zip(np.unravel_index(flat, shape), offset)]
        return ["[" + ", ".join(map(str, c)) + "]" for c in zip(*coords)]

    first = labels(lo_f)
    never_l, coll_l, wrong_l = never_n.ravel()[cells].tolist(), coll_n.ravel()[cells].tolist(), wrong_n.ravel()[cells].tolist()
    written_l = written.tolist()
    name = writemap.name
    t_writer, t_never, t_times, t_expected = tr(T_WRITER), tr(T_NEVER), tr(T_TIMES), tr(T_EXPECTED)
    if tiled:
        hi_f = hi.ravel()[cells]
        last = labels(hi_f)
        counts_l = ((np.minimum(r_idx * ry + ry, rows) - r_idx * ry) * (np.minimum(c_idx * rx + rx, cols) - c_idx * rx)
                    ).ravel()[cells]
        counts_l = np.minimum(counts_l, hi_f - lo_f + 1).tolist() if len(shape) == 1 else counts_l.tolist()
        t_tile, t_marks = tr(T_TILE), tr(T_TILE_MARKS)
    else:
        values = None
        if show_values and expected is not None and got is not None:
            e_flat, g_flat = np.asarray(expected).ravel(), np.asarray(got).ravel()
            values = (e_flat[lo_f].tolist(), g_flat[lo_f].tolist())
        t_element = tr(T_ELEMENT)
    label_w = 40
    width, grid_h = label_w + tx * CELL, ty * CELL
    if highlight is not None:  # room for the fourth legend item
        width = max(width, label_w + 4 * 130 + 40)
    legend_y = grid_h + 18
    height = legend_y + 52
    highlight_cell = None
    if highlight is not None and 0 <= highlight < n:
        hr, hc = divmod(int(highlight), cols)
        highlight_cell = (hr // ry) * tx + hc // rx
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="writemap" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">',
        f"<title>{html.escape(tr(T_TITLE) % {'name': name})}</title>", _STYLE,
        '<defs><pattern id="wm-hatch" width="4" height="4" patternUnits="userSpaceOnUse">'
        '<path class="wm-h" d="M0,4 L4,0" stroke-width="1"/></pattern></defs>',
        f'<rect class="wm-b" x="{label_w}" y="0" width="{tx * CELL}" height="{grid_h}"/>',
    ]
    # Row labels: every 8th row, by its first element's index (1-D) or its row number (2-D).
    for r in range(0, ty, 8):
        label = r * ry * cols if len(shape) == 1 else r * ry
        label += offset[0] if offset else 0
        out.append(f'<text class="wm-t" x="{label_w - 4}" y="{r * CELL + 9}" text-anchor="end">{label}</text>')
    for k, cell in enumerate(cells.tolist()):
        r, c = divmod(cell, tx)
        x, y = label_w + c * CELL, r * CELL
        if tiled:
            tip = t_tile % {"name": name, "first": first[k], "last": last[k], "count": counts_l[k]}
            tip += "; " + t_marks % {"never": never_l[k], "collided": coll_l[k], "wrong": wrong_l[k]}
            if written_l[k]:
                tip += "; " + t_writer % {"block": blocks[k], "thread": threads[k]}
        else:
            tip = t_element % {"name": name, "index": first[k]} + ": "
            if written_l[k]:
                tip += t_writer % {"block": blocks[k], "thread": threads[k]}
                if coll_l[k]:
                    tip += "; " + t_times % {"count": int(h4[r, 0, c, 0])}
            else:
                tip += t_never
            if values is not None:
                tip += "; " + t_expected % {"expected": format_value(values[0][k]), "got": format_value(values[1][k])}
        marks = ""
        if coll_l[k]:
            marks += _dot(x, y)
        if wrong_l[k]:
            marks += _cross(x, y)
        if never_l[k]:
            marks += _hatch(x, y)
        if highlight is not None and highlight_cell == cell:
            marks += (f'<rect class="wm-m" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="none" '
                      'stroke-width="2.5"/>')
        fill = colours[k] if written_l[k] else "url(#wm-hatch)"
        out.append(f'<g><title>{html.escape(tip, quote=False)}</title><rect x="{x}" y="{y}" width="{CELL}" '
                   f'height="{CELL}" fill="{fill}" class="wm-c"/>{marks}</g>')
    out.append(_block_edges(rep, present, tpb, label_w))
    # Legend: the three marks, the colour rule, the scale when downsampled, a summary line.
    lx, ly = label_w, legend_y
    step = 130
    for i, (mark, text) in enumerate(((_hatch, T_LEGEND_NEVER), (_dot, T_LEGEND_COLLIDED), (_cross, T_LEGEND_WRONG))):
        out.append(mark(lx + i * step, ly - 10))
        out.append(f'<text class="wm-t" x="{lx + i * step + 16}" y="{ly}">{html.escape(tr(text))}</text>')
    if highlight is not None:
        out.append(f'<rect class="wm-m" x="{lx + 3 * step + 1}" y="{ly - 9}" width="10" height="10" fill="none" '
                   'stroke-width="2.5"/>')
        out.append(f'<text class="wm-t" x="{lx + 3 * step + 16}" y="{ly}">{html.escape(tr(T_LEGEND_ASKED))}</text>')
    scale = tr(T_LEGEND_COLOUR)
    if tiled:
        scale += "; " + tr(T_LEGEND_SCALE) % {"count": ry * rx, "rows": ry, "cols": rx}
    out.append(f'<text class="wm-t" x="{lx}" y="{ly + 16}">{html.escape(scale)}</text>')
    summary = tr(T_SUMMARY) % {**writemap.counts(), "wrong": int(wrong.sum())}
    out.append(f'<text class="wm-t" x="{lx}" y="{ly + 32}">{html.escape(summary)}</text>')
    out.append("</svg>")
    return "".join(out)
