"""The write-map renderer: layout, marks, titles, downsampling (grader/core/writemap/svg.py)."""
import re
import xml.etree.ElementTree as ET

import numpy as np

from grader.core.writemap.model import NEVER, WriteMap, wrong_mask
from grader.core.writemap.svg import MAX_SIDE, ROW_WIDTH, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def _map(writer, hits=None, shape=None, grid=(1, 1, 1), block=(1, 1, 1)):
    writer = np.asarray(writer, dtype=np.int64)
    if hits is None:
        hits = (writer >= 0).astype(np.uint8)
    return WriteMap("out", shape or writer.shape, writer.ravel(), np.asarray(hits, np.uint8).ravel(), grid, block)


def _cells(svg: str) -> list[tuple[str, ET.Element]]:
    root = ET.fromstring(svg)
    return [(g.find(SVG + "title").text, g) for g in root.iter(SVG + "g")]


def test_thread_of_inverts_the_linear_id():
    wm = _map([0], grid=(3, 2, 2), block=(4, 2, 2))
    tpb = 16
    linear = (1 + 3 * (1 + 2 * 1)) * tpb + (3 + 4 * (1 + 2 * 1))
    assert wm.thread_of(linear) == ((1, 1, 1), (3, 1, 1))


def test_2d_matrix_titles_name_row_column_thread_and_values():
    # A 2x3 output written transposed: element (i, j) by thread j * 2 + i of one block.
    writer = np.array([[j * 2 + i for j in range(3)] for i in range(2)])
    wm = _map(writer, grid=(1, 1, 1), block=(2, 3, 1))
    expected = np.arange(6.0).reshape(2, 3)
    got = expected.copy()
    got[1, 2] = 8.0
    cells = _cells(render_svg(wm, expected, got))
    assert len(cells) == 6
    titles = [t for t, _ in cells]
    assert titles[5] == "out[1, 2]: written by block (0, 0, 0), thread (1, 2, 0); expected 5, got 8"
    assert titles[1].startswith("out[0, 1]: written by block (0, 0, 0), thread (0, 1, 0)")
    # the wrong element alone carries a cross (a path); the others do not
    assert [g.find(SVG + "path") is not None for _, g in cells] == [False] * 5 + [True]


def test_never_written_and_collided_elements_are_marked():
    writer = [0, 1, NEVER, 3]
    hits = [1, 2, 0, 1]
    cells = _cells(render_svg(_map(writer, hits, block=(4, 1, 1))))
    assert "never written" in cells[2][0]
    assert cells[2][1].find(SVG + "rect[@class='wm-h']") is not None
    assert "2 threads wrote it" in cells[1][0]
    assert cells[1][1].find(SVG + "circle") is not None
    assert cells[0][1].find(SVG + "circle") is None and cells[0][1].find(SVG + "rect[@class='wm-h']") is None


def test_colour_follows_the_writing_block():
    # 8 elements, blocks of 4 threads: elements 0-3 by block 0, 4-7 by block 1
    cells = _cells(render_svg(_map(range(8), grid=(2, 1, 1), block=(4, 1, 1))))
    fills = [g.find(SVG + "rect").get("fill") for _, g in cells]
    assert len(set(fills[:4])) == 1 and len(set(fills[4:])) == 1 and fills[0] != fills[4]


def test_1d_rows_have_the_fixed_width():
    n = ROW_WIDTH * 3 + 5
    root = ET.fromstring(render_svg(_map(range(n), block=(n, 1, 1))))
    rects = [g.find(SVG + "rect") for g in root.iter(SVG + "g")]
    xs = sorted({float(r.get("x")) for r in rects})
    ys = sorted({float(r.get("y")) for r in rects})
    assert len(rects) == n and len(xs) == ROW_WIDTH and len(ys) == 4


def test_a_million_elements_are_downsampled_with_a_legend():
    n = 1 << 20
    writer = np.arange(n, dtype=np.int64)
    writer[-10:] = NEVER
    hits = (writer >= 0).astype(np.uint8)
    wm = _map(writer, hits, shape=(1024, 1024), grid=(64, 64, 1), block=(16, 16, 1))
    svg = render_svg(wm, np.zeros(n), np.zeros(n))
    cells = _cells(svg)
    assert len(cells) == MAX_SIDE * MAX_SIDE
    assert "one cell = 256 elements (16 x 16)" in svg
    last_title, last = cells[-1]
    assert "10 never written" in last_title and last.find(SVG + "rect[@class='wm-h']") is not None
    assert "out[1008, 1008] to [1023, 1023] (256 elements)" in last_title


def test_hidden_values_stay_out_of_the_titles():
    wm = _map([0, 1], block=(2, 1, 1))
    svg = render_svg(wm, np.array([1234.5, 2.0]), np.array([1234.5, 3.0]), show_values=False)
    assert "1234.5" not in svg and "expected" not in svg
    assert _cells(svg)[1][1].find(SVG + "path") is not None  # still marked wrong


def test_translate_renders_every_sentence():
    svg = render_svg(_map([0, NEVER], [1, 0], block=(2, 1, 1)), translate=lambda s: "<@" + s)
    root = ET.fromstring(svg)  # still well-formed after escaping
    texts = [t.text for t in root.iter(SVG + "text")] + [t.text for t in root.iter(SVG + "title")]
    worded = [t for t in texts if re.search("[a-z]", t)]
    assert len(worded) >= 6 and all(t.startswith("<@") for t in worded)


def test_wrong_mask_compares_floats_with_tolerance_and_nan_as_wrong():
    m = wrong_mask(np.array([1.0, 2.0, 3.0]), np.array([1.0 + 1e-9, np.nan, 4.0]))
    assert m.tolist() == [False, True, True]
    assert wrong_mask(np.array([1, 2]), np.array([1, 3])).tolist() == [False, True]


def test_every_sentence_has_a_korean_translation_with_its_parameters():
    import gettext
    from pathlib import Path

    from grader.core.writemap import svg as writemap

    mo = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as f:
        korean = gettext.GNUTranslations(f)._catalog
    templates = [v for k, v in vars(writemap).items() if k.startswith("T_")]
    assert len(templates) >= 13
    for t in templates:
        assert t in korean and re.search("[가-힣]", korean[t]) or t == "%(name)s%(index)s", t
        assert sorted(re.findall(r"%\((\w+)\)s", korean.get(t, t))) == sorted(re.findall(r"%\((\w+)\)s", t))
    svg = render_svg(_map([0, NEVER], [1, 0], block=(2, 1, 1)), translate=lambda s: korean.get(s, s))
    assert "아무도 쓰지 않음" in svg


def test_launch_map_and_a_highlighted_window():
    from grader.core.writemap.model import launch_map

    # a 4 x 6 window at row 16, column 30 of an image under 16 x 16 blocks, a grid 4 blocks wide
    wm = launch_map((4, 3, 1), (16, 16, 1), (4, 6), origin=(16, 30))
    b, t = wm.thread_of(int(wm.writer[0]))
    assert (b, t) == ((1, 1, 0), (14, 0, 0))  # x = 30: block 1, thread 14; y = 16: block 1, thread 0
    svg = render_svg(wm, highlight=1 * 6 + 3, origin=(16, 30))
    cells = _cells(svg)
    assert cells[0][0].startswith("out[16, 30]: written by block (1, 1, 0), thread (14, 0, 0)")
    outlined = [i for i, (_, g) in enumerate(cells) if g.find(SVG + "rect[@stroke-width='2.5']") is not None]
    assert outlined == [9] and "the element asked about" in svg


def test_the_inverse_index_solution_draws_the_asked_pixel():
    """indexing.inverse (2-D): the worked solution ends with a write map whose outlined cell is the
    asked pixel, written by the block and thread of the answer."""
    import json

    from practice.core.questions.base import BlockKind
    from practice.core.questions.indexing import InverseIndex

    family = InverseIndex()
    params = {"dims": 2, "block": [16, 16], "size": [640, 480], "idx": 100 * 640 + 333, "linear": False}
    _prompt, _fields, answer, solution = family.compose(params)
    picture = solution[-1]
    assert picture.kind is BlockKind.WRITEMAP
    spec = json.loads(picture.text["en"])
    from grader.core.writemap.model import launch_map

    wm = launch_map(tuple(spec["grid"]), tuple(spec["block"]), tuple(spec["shape"]), tuple(spec["origin"]))
    block, thread = wm.thread_of(int(wm.writer[spec["highlight"]]))
    assert block[:2] == (answer["block_x"], answer["block_y"]) and thread[:2] == (answer["thread_x"], answer["thread_y"])
    svg = render_svg(wm, highlight=spec["highlight"], origin=tuple(spec["origin"]))
    outlined = [t for t, g in _cells(svg) if g.find(SVG + "rect[@stroke-width='2.5']") is not None]
    assert len(outlined) == 1 and outlined[0].startswith("out[100, 333]: written by block (20, 6, 0), thread (13, 4, 0)")


def test_printed_solutions_leave_the_picture_out():
    """A printed key has no write-map JSON in it: the picture is for the screen."""
    from exams.core.printing.markup import blocks_html
    from practice.core.questions.indexing import InverseIndex

    _prompt, _fields, _answer, solution = InverseIndex().compose({"dims": 1, "block": [256], "idx": 1000})
    rendered = blocks_html([b.render("en") for b in solution])
    assert "highlight" not in rendered and "blockIdx.x = ⌊1000 / 256⌋ = 3" in rendered
