"""Printed exams (exams/core/printing): forms drawn as real variants, rendered to PDF in English and
Korean, checked as a reader would: the text on every page (pdftotext), the ink where math is
(pdftoppm), the fonts embedded (pdffonts). Needs WeasyPrint, node + KaTeX and poppler-utils."""
import re

import pytest

from exams.core.printing import (ExamHeader, KatexRenderer, MathRenderError, Part, PrintForm, Student, form_letters,
                                 lettered_forms, print_forms, student_forms)
from exams.core.catalogue import KernelInfo, StaticCatalogue
from exams.core.template import parse_template
from tests.pdfcheck import fonts, ink, page_images, pages_text

CATALOGUE = StaticCatalogue([KernelInfo("segment-sum", 7, 1, "reduction")])
SPEC = parse_template({"zones": [
    {"choose": 2, "points": 5, "pool": ["indexing.global_index", "indexing.grid_stride", "occupancy.blocks_per_sm"]},
    {"choose": 1, "points": 20, "pool": [{"kernel": "segment-sum"}]},
]}, CATALOGUE)
HEADER = ExamHeader(title={"en": "Midterm 1", "ko": "중간고사 1"}, course="CS 431")
STATEMENT = {"en": "Sum the segment:\n\n$$\\text{out}[s] = \\sum_{t=0}^{255} x_{s,t}$$\n\n```cuda\n__global__ void f();\n```\n",
             "ko": "구간의 합을 구하십시오.\n\n$$\\text{out}[s] = \\sum_{t=0}^{255} x_{s,t}$$\n"}


def kernel_text(item):
    return {"title": {"en": "Segment sums", "ko": "구간 합"}, "statement": STATEMENT,
            "solution": "__global__ void segment_sum(const float* x, float* out, int m) { /* reference */ }"}


@pytest.fixture(scope="module")
def forms():
    return lettered_forms(SPEC, "print-secret", 2, CATALOGUE)


def test_form_letters_run_a_to_z_then_aa():
    """Forms are lettered A..Z, then AA, AB; a run has at least one form."""
    assert form_letters(3) == ["A", "B", "C"]
    assert form_letters(28)[-2:] == ["AA", "AB"]
    with pytest.raises(ValueError):
        form_letters(0)


def test_lettered_forms_are_real_distinct_variants(forms):
    """Forms A and B are drawn like two students: different params; drawing again gives the same forms."""
    a, b = forms
    assert (a.form_id, b.form_id) == ("A", "B")
    params = lambda f: [i.get("question", {}).get("params") for i in f.items]  # noqa: E731
    assert params(a) != params(b)
    assert params(lettered_forms(SPEC, "print-secret", 1, CATALOGUE)[0]) == params(a)


@pytest.mark.slow
def test_english_sheets_and_keys(forms, tmp_path):
    """Every page names its form and page; the sheet has no answers, the key has them and the solutions;
    code is set in a monospaced font and math in KaTeX's fonts."""
    sheet = print_forms(HEADER, forms, "en", Part.QUESTIONS, kernel_text=kernel_text)
    pages = pages_text(sheet, tmp_path)
    per_form = {"A": [p for p in pages if "Form A" in p], "B": [p for p in pages if "Form B" in p]}
    assert len(per_form["A"]) + len(per_form["B"]) == len(pages) >= 2  # every page carries its form id
    for form_pages in per_form.values():
        assert "Page 1 of" in form_pages[0] and f"Page {len(form_pages)} of {len(form_pages)}" in form_pages[-1]
    assert "Worked solution" not in "".join(pages) and "reference" not in "".join(pages)
    assert "Name" in pages[0] and "Student ID" in pages[0]
    used = fonts(sheet, tmp_path)
    assert "DejaVu-Sans-Mono" in used and "KaTeX_Main" in used and "KaTeX_Size" in used

    key = pages_text(print_forms(HEADER, forms, "en", Part.KEY, kernel_text=kernel_text), tmp_path)
    assert all("Answer key · Form" in p for p in key)
    assert "Worked solution" in "".join(key) and "/* reference */" in "".join(key)
    answer = forms[0].items[0]["question"]["answer"]
    first_form = "".join(p for p in key if "Form A" in p)
    assert all(str(v) in first_form for v in answer.values() if isinstance(v, int)), answer


@pytest.mark.slow
def test_korean_sheet_shows_hangul_in_noto_sans_cjk(forms, tmp_path):
    """The Korean sheet's text is Hangul (labels, prompts, the statement) set in Noto Sans CJK KR, and
    every page says '문제지 A' or '문제지 B' with its page count."""
    pdf = print_forms(HEADER, forms[:1], "ko", Part.QUESTIONS, kernel_text=kernel_text)
    pages = pages_text(pdf, tmp_path)
    assert all("문제지 A" in p and "쪽" in p for p in pages)
    text = "".join(pages)
    assert "구간의 합을 구하십시오" in text and "이름" in text and "학번" in text
    assert sum("\uac00" <= ch <= "\ud7a3" for ch in text) > 50
    assert "Noto-Sans-CJK-KR" in fonts(pdf, tmp_path)


@pytest.mark.slow
def test_display_math_leaves_ink_where_it_is(tmp_path):
    """A page holding only a display formula has ink in its middle band; without the formula it is blank
    there. (KaTeX's HTML laid out by WeasyPrint, seen as an image.)"""
    def only(statement):
        item = {"kind": "kernel", "number": 1, "points": 1, "kernel": {"slug": "x"}}
        form = PrintForm(form_id="M", items=[item])
        text = lambda _: {"title": {"en": "T"}, "statement": {"en": statement}, "solution": ""}  # noqa: E731
        return page_images(print_forms(HEADER, [form], "en", Part.QUESTIONS, kernel_text=text), tmp_path / statement[:1])

    (tmp_path / "$").mkdir()
    (tmp_path / "n").mkdir()
    with_math = only("$$\\sum_{t=0}^{255} \\frac{x_t}{2} \\le \\lceil n / 256 \\rceil$$")[0]
    without = only("nothing")[0]
    w, h = with_math.size
    band = (int(w * 0.35), int(h * 0.15), int(w * 0.65), int(h * 0.35))  # the centre, under the heading
    assert ink(with_math, band) > ink(without, band) + 300, (ink(with_math, band), ink(without, band))


@pytest.mark.slow
def test_per_student_forms_carry_name_and_id_on_every_page(tmp_path):
    """One form per student: the name and student number are on every page, and a name that looks
    like markup or CSS is printed as text."""
    students = [Student(id="11", name="김민수", number="2026-0011"), Student(id="12", name='Eve "</style><b>', number="")]
    forms = student_forms(SPEC, "print-secret", students, CATALOGUE)
    assert forms[1].form_id == "12"
    pages = pages_text(print_forms(HEADER, forms, "ko", Part.QUESTIONS, kernel_text=kernel_text), tmp_path)
    first = [p for p in pages if "김민수 (2026-0011)" in p]
    second = [p for p in pages if 'Eve "</style><b>' in p]
    assert first and second and len(first) + len(second) == len(pages)
    assert all("2026-0011 · " not in p and "문제지 2026-0011" not in p for p in first)


def test_a_formula_katex_rejects_prints_as_its_tex():
    """A TeX error in one statement does not stop the print run: that formula is printed as its source."""
    from exams.core.printing.katex import Formula

    out = KatexRenderer().render([Formula("\\frac{1}{", False), Formula("x^2", False)])
    assert 'class="tex-error"' in out[Formula("\\frac{1}{", False)] and "\\frac{1}{" in out[Formula("\\frac{1}{", False)]
    assert 'class="katex"' in out[Formula("x^2", False)]


def test_katex_missing_is_a_platform_error(tmp_path):
    """Without the katex package the renderer raises MathRenderError naming where it looked."""
    with pytest.raises(MathRenderError, match="npm ci"):
        KatexRenderer(katex_dir=tmp_path).stylesheet()


@pytest.mark.slow
def test_korean_exam_pdf_renders_hangul_and_math(forms, tmp_path):
    """A Korean answer key of real generated forms, seen as a reader sees it: Hangul text in Noto Sans
    CJK KR, the formulas typeset by KaTeX (its fonts embedded, no TeX source left in the text), and a
    Korean statement's display formula leaves ink on the page image (pdftoppm) where a statement
    without it leaves none."""
    pdf = print_forms(HEADER, forms[:1], "ko", Part.KEY, kernel_text=kernel_text)
    text = "".join(pages_text(pdf, tmp_path))
    assert sum("\uac00" <= ch <= "\ud7a3" for ch in text) > 50 and "정답" in text
    assert "\\sum" not in text and "$$" not in text and "\\text" not in text
    embedded = fonts(pdf, tmp_path)
    assert "Noto-Sans-CJK-KR" in embedded and "KaTeX" in embedded

    def only(statement):
        item = {"kind": "kernel", "number": 1, "points": 1, "kernel": {"slug": "x"}}
        form = PrintForm(form_id="K", items=[item])
        text = lambda _: {"title": {"en": "T", "ko": "구간 합"}, "statement": {"en": "-", "ko": statement},  # noqa: E731
                          "solution": ""}
        folder = tmp_path / ("math" if "$$" in statement else "plain")
        folder.mkdir()
        return page_images(print_forms(HEADER, [form], "ko", Part.QUESTIONS, kernel_text=text), folder)[0]

    with_math = only("다음을 계산하십시오.\n\n$$\\sum_{t=0}^{255} \\frac{x_t}{2} \\le \\lceil n / 256 \\rceil$$")
    without = only("다음을 계산하십시오.")
    w, h = with_math.size
    band = (int(w * 0.3), int(h * 0.15), int(w * 0.7), int(h * 0.4))
    assert ink(with_math, band) > ink(without, band) + 300, (ink(with_math, band), ink(without, band))


@pytest.mark.parametrize("name, number, part, lang, header", [
    ("", "alice_t", Part.KEY, "ko", "정답 · alice_t"),  # the tester's "정답 · 문제지 alice_t · alice_t · alice_t"
    ("", "alice_t", Part.QUESTIONS, "en", "alice_t"),
    ("김민수", "alice_t", Part.KEY, "en", "Answer key · 김민수 (alice_t)"),
    ("alice_t", "alice_t", Part.QUESTIONS, "ko", "alice_t"),
    ("Eve", "", Part.QUESTIONS, "en", "Eve"),
])
def test_a_student_forms_page_header_names_the_student_once(name, number, part, lang, header):
    """Every page's header names a per-student form's student once: the name with the ID in brackets,
    or the ID alone when the site has no name for them."""
    from exams.core.printing.sheet import page_css

    [form] = student_forms(SPEC, "print-secret", [Student(id="7", name=name, number=number)], CATALOGUE)
    css = page_css(HEADER, form, lang, part)
    top_right = re.search(r"@top-right \{ content: string\(qcont, start\) \"([^\"]*)\"", css).group(1)
    assert top_right == header
    assert css.count(number or name) == 2  # the top right and the bottom left, nowhere twice


def test_a_lettered_forms_header_is_unchanged():
    from exams.core.printing.sheet import page_css

    form = PrintForm(form_id="B", items=[])
    assert '@top-right { content: string(qcont, start) "Answer key · Form B"; }' in page_css(HEADER, form, "en", Part.KEY)


@pytest.mark.django_db
def test_the_roster_leaves_the_name_empty_for_a_student_without_one():
    """A student with no first or last name prints an empty Name box beside their ID, not the username twice."""
    from django.contrib.auth.models import User

    from courses.models import Course, Membership
    from exams.printing import _roster

    course = Course.objects.create(name="GPU", code="GPU1")
    for username, first, last in (("alice_t", "", ""), ("kim", "Minsu", "Kim")):
        user = User.objects.create_user(username, first_name=first, last_name=last)
        Membership.objects.create(course=course, user=user, role="student")

    class _Exam:
        pass

    exam = _Exam()
    exam.course = course
    assert [(s.name, s.number) for s in _roster(exam)] == [("", "alice_t"), ("Minsu Kim", "kim")]
