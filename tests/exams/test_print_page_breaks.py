"""Where printed forms break their pages (exams/core/printing/sheet.py): a question's prompt stays with
its answer box, a key's solution with its question's heading, and a page that begins inside a
question names it ("Question 4 (continued)") at its top. Real PDFs, read page by page as a reader
reads them (pdftotext), and the laid-out pages themselves (WeasyPrint's boxes) for the box that has
no text. Needs WeasyPrint, node + KaTeX and poppler-utils."""
import re

import pytest

from exams.core.catalogue import KernelInfo, StaticCatalogue
from exams.core.printing import ExamHeader, KatexRenderer, Part, PrintForm, forms_html, lettered_forms, print_forms
from exams.core.printing.labels import label
from exams.core.printing.markup import MathSlots
from exams.core.printing.pdf import render
from exams.core.printing.sheet import form_html
from exams.core.template import parse_template
from tests.pdfcheck import pages_text

pytestmark = pytest.mark.slow

CATALOGUE = StaticCatalogue([KernelInfo("saxpy-clamp", 7, 2, "indexing")])
# The tester's midterm: three 5-point questions, then a 10-point kernel.
SPEC = parse_template({"zones": [
    {"choose": 3, "points": 5, "pool": ["indexing.global_index", "indexing.warp_lane", "occupancy.blocks_per_sm",
                                        "synchronization.place_barrier"]},
    {"choose": 1, "points": 10, "pool": [{"kernel": "saxpy-clamp"}]},
]}, CATALOGUE)
HEADER = ExamHeader(title={"en": "Midterm 1", "ko": "중간고사 1"}, course="GPU-T4-2026F")
HEADING = {"en": re.compile(r"^Question (\d+)\s+\d+(?:\.\d+)? points?$"), "ko": re.compile(r"^문제 (\d+)\s+\d+(?:\.\d+)?점$")}
CONTINUED = {"en": "Question {n} (continued)", "ko": "문제 {n} (계속)"}


def kernel_text(paragraphs: int = 0, solution_lines: int = 3):
    """The saxpy-clamp item's text, its statement lengthened by `paragraphs` paragraphs and its
    reference solution by `solution_lines` lines, so the item meets the page's end at another place."""
    filler = {"en": "Every element is updated independently of the others. " * 12,
              "ko": "모든 원소는 다른 원소와 상관없이 갱신됩니다. " * 14}
    statement = {la: (f"{intro}\n\n$$y_i \\leftarrow \\mathrm{{clamp}}(a x_i + y_i, -c, c)$$\n\n"
                      + "\n\n".join([filler[la]] * paragraphs))
                 for la, intro in (("en", "Write the `saxpy_clamp` kernel."), ("ko", "`saxpy_clamp` 커널을 작성하십시오."))}
    solution = ("__global__ void saxpy_clamp(const float* x, float* y, float a, float c, int n) {\n"
                + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" * solution_lines + "}")
    return lambda item: {"title": {"en": "SAXPY with clamping", "ko": "클램핑이 있는 SAXPY"},
                         "statement": statement, "solution": solution}


@pytest.fixture(scope="module")
def forms():
    return lettered_forms(SPEC, "t4-midterm", 2, CATALOGUE)


def assert_every_page_names_its_question(pages: list[str], lang: str):
    """Each page of one form either begins with a question's heading (or the form's title), or begins
    inside the question before it and says "Question N (continued)" in its header; an empty page (an
    answer box alone) is a page that begins inside a question."""
    current = None  # the number of the last question heading on the pages before
    for number, page in enumerate(pages, start=1):
        lines = [line.strip() for line in page.splitlines() if line.strip()]
        header, body = lines[0], lines[1:-1]  # the header line, the page, the footer line
        starts_a_question = bool(body) and HEADING[lang].match(body[0])
        if current is not None and not starts_a_question:
            assert CONTINUED[lang].format(n=current) in header, (
                f"page {number} begins inside question {current} without naming it: {header!r} / {body[:2]}")
        else:
            assert "(continued)" not in header and "(계속)" not in header, (number, header)
        for line in body:
            if m := HEADING[lang].match(line):
                current = m.group(1)


def _page_of(document, css_class: str) -> list[int]:
    """The pages (0-based) on which an element of `css_class` has a box, in order."""
    found = []
    for number, page in enumerate(document.pages):
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is not None and css_class in (element.get("class") or "").split() and number not in found:
                found.append(number)
    return found


def test_the_testers_form_b_keeps_the_kernel_box_with_its_question(forms, tmp_path):
    """Form B of the tester's Korean sheet ended page 2 with "아래 빈칸에 …을 작성하십시오" and put the
    answer box alone on page 3 with no heading: question 4 now starts the page its box is on."""
    pages = pages_text(print_forms(HEADER, forms[1:], "ko", Part.QUESTIONS, kernel_text=kernel_text()), tmp_path)
    assert_every_page_names_its_question(pages, "ko")
    [page] = [p for p in pages if label("kernel_task", "ko") in p]
    assert re.search(r"^\s*문제 4\s+10점", page, re.M), page


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("paragraphs", [0, 1, 4, 7])
def test_no_sheet_page_begins_with_an_answer_box_or_text_of_an_unnamed_question(forms, lang, paragraphs, tmp_path):
    """Whatever the statement's length, no page of a sheet begins with a box or a statement's rest
    without its question's number: the item moves whole to the next page when it fits there, and a
    kernel item longer than a page says "Question 4 (continued)" on the page its box is on."""
    for form in forms:
        pdf = print_forms(HEADER, [form], lang, Part.QUESTIONS, kernel_text=kernel_text(paragraphs))
        assert_every_page_names_its_question(pages_text(pdf, tmp_path), lang)


@pytest.mark.parametrize("paragraphs", [0, 2, 5])
def test_the_write_the_kernel_line_and_its_box_share_a_page(forms, paragraphs):
    """The line that says where to write the kernel is never left at a page's end: the box it points
    at is laid out on its page (the box has no text, so this reads WeasyPrint's pages)."""
    renderer = KatexRenderer()
    for form in forms:
        [document] = render(forms_html(HEADER, [form], "ko", Part.QUESTIONS, renderer, kernel_text(paragraphs)),
                            renderer.stylesheet())
        hint_pages = _page_of(document, "answer-area")
        assert len(hint_pages) == 1 and _page_of(document, "kernel-box") == hint_pages, (paragraphs, hint_pages)


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("solution_lines", [3, 25, 140])
def test_no_key_page_begins_with_a_solution_of_an_unnamed_question(forms, lang, solution_lines, tmp_path):
    """The tester's per-student key put question 4's reference solution alone on page 4: a solution
    stays on its question's page when the two fit on one, and otherwise its page says which
    question it continues."""
    for form in forms:
        pdf = print_forms(HEADER, [form], lang, Part.KEY, kernel_text=kernel_text(solution_lines=solution_lines))
        pages = pages_text(pdf, tmp_path)
        assert_every_page_names_its_question(pages, lang)
        if solution_lines < 60:  # the item fits on a page: the solution's first line is under its heading
            [page] = [p for p in pages if "__global__ void saxpy_clamp" in p]
            assert re.search(r"^\s*(Question|문제) 4\s", page, re.M), page


def test_the_continued_label_names_the_question_where_the_page_begins():
    """The header's "Question N (continued)" comes from each item's heading and is cleared where the
    item ends, so a page that begins with a new question names none."""
    item = {"kind": "kernel", "number": 4, "points": 10, "kernel": {"slug": "saxpy-clamp"}}
    html = form_html(HEADER, PrintForm(form_id="B", items=[item]), "ko", Part.QUESTIONS, MathSlots(KatexRenderer()),
                     kernel_text())
    assert 'data-continued="문제 4 (계속) · "' in html
    assert html.index("data-continued") < html.index('class="item-end"')
    assert "string(qcont, start)" in html
