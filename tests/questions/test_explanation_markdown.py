"""A family's prompt and worked solution are inline Markdown, rendered wherever they are shown: the
practice page, the exam pages (attempt, review, preview) and the printed key. synchronization.classify's
worked solution showed "*inside*" with its asterisks: the renderer knew only `code` and **bold**."""
import re
from html import unescape

import pytest

from exams.core.draw import question_variant
from exams.core.printing.markup import MathSlots
from exams.core.printing.markup import blocks_html as paper_blocks
from exams.core.printing.sheet import ExamHeader, Part, PrintForm, form_html
from exams.core.printing.katex import KatexRenderer
from practice.core.questions import FAMILIES
from practice.rendering import blocks_html as screen_blocks

# A literal emphasis (*word*, *a few words*) or code (`x`) left in the text a reader sees.
LITERAL = re.compile(r"\*[^\s*](?:[^*]*[^\s*])?\*|`[^`]+`")
SEEDS = (3, 4, 11)  # a few variants per difficulty (synchronization.classify's seed 4 at level 1: "*inside*")


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def screen_html(blocks: list[dict]) -> str:
    out = []
    for b in screen_blocks(blocks):
        out.append(str(b.get("html", "")))
        out.extend(str(i) for i in b.get("items_html", []))
    return "\n".join(out)


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_no_family_shows_its_markdown_as_text(family_id):
    """Every family's prompt and worked solution, at every level, a few seeds, EN and KO, on screen and
    on paper: no *word* or `code` is left as typed."""
    for difficulty in (1, 2, 3):
        for seed in SEEDS:
            q = FAMILIES[family_id].generate(seed, difficulty)
            for lang in ("en", "ko"):
                for part in (q.prompt, q.solution):
                    blocks = [b.render(lang) for b in part if b.kind in ("p", "list")]
                    for html in (screen_html(blocks), paper_blocks(blocks)):
                        left = LITERAL.findall(text_of(html))
                        assert not left, (family_id, difficulty, seed, lang, left)


@pytest.mark.parametrize("lang, emphasis", [("en", "<em>inside</em>"), ("ko", "<em>안에</em>")])
def test_the_classify_solution_says_inside_in_italics_on_screen_and_on_paper(lang, emphasis):
    question = question_variant("synchronization.classify", 1, 4)
    solution = question["solution"][lang]
    assert any(("*inside*" if lang == "en" else "*안에*") in b.get("text", "") for b in solution)
    assert emphasis in screen_html(solution) and emphasis in paper_blocks(solution)
    item = {"key": "z0.p0", "number": 1, "zone": 0, "kind": "question", "points": 5, "question": question}
    key = form_html(ExamHeader(title={"en": "Quiz", "ko": "퀴즈"}), PrintForm("A", [item]), lang, Part.KEY,
                    MathSlots(KatexRenderer()))
    assert emphasis in key and "*inside*" not in key and "*안에*" not in key


@pytest.mark.django_db
def test_the_practice_page_shows_the_worked_solution_rendered(client, django_user_model):
    from django.urls import reverse

    from practice import actions as practice

    alice = django_user_model.objects.create(username="alice")
    client.force_login(alice)
    v = practice.get_or_create_variant(alice, "synchronization.classify", "page", 1, seed=4)
    practice.submit_answer(v, {k: str(x) for k, x in v.answer["values"].items()})
    url = reverse("practice:question", args=[v.pk])
    en = client.get(url).content.decode()
    ko = client.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "<em>inside</em>" in en and "*inside*" not in en
    assert "<em>안에</em>" in ko and "*안에*" not in ko
