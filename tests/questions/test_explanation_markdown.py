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


def without_code(html: str) -> str:
    """The HTML with its code boxes left out (CUDA such as `*ready = 0` is code, not Markdown)."""
    return re.sub(r"<pre[^>]*>.*?</pre>|<code>.*?</code>", "", html, flags=re.S)


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_every_family_prints_its_sheet_and_key_with_its_markdown_rendered(family_id):
    """A printed sheet and key of each family, EN and KO: its choices too (synchronization.ballot's
    "the lanes where `lane % 4 == 0`" kept its backticks; indexing.wrong_formula's code choices made the
    printer fail: it escaped the flag True as the code)."""
    for difficulty in (1, 2, 3):
        question = question_variant(family_id, difficulty, 4)
        item = {"key": "z0.p0", "number": 1, "zone": 0, "kind": "question", "points": 5, "question": question}
        for lang in ("en", "ko"):
            for part in (Part.QUESTIONS, Part.KEY):
                html = form_html(ExamHeader(title={"en": "Quiz"}), PrintForm("A", [item]), lang, part,
                                 MathSlots(KatexRenderer()))
                body = html[html.index("<section"):]
                assert not LITERAL.findall(text_of(without_code(body))), (family_id, lang, part)


def test_choices_render_their_markdown_on_paper_and_code_choices_print_as_code():
    ballot = question_variant("synchronization.ballot", 2, 4)  # its choices name lanes as `lane % 4 == 0`
    assert "`" in str(ballot["fields"])
    item = {"key": "z0.p0", "number": 1, "zone": 0, "kind": "question", "points": 5, "question": ballot}
    sheet = form_html(ExamHeader(title={"en": "Quiz"}), PrintForm("A", [item]), "en", Part.QUESTIONS,
                      MathSlots(KatexRenderer()))
    assert re.search(r"the lanes where <code>lane [^<]+</code>", sheet)
    wrong = question_variant("indexing.wrong_formula", 1, 3)
    item = {"key": "z0.p0", "number": 1, "zone": 0, "kind": "question", "points": 5, "question": wrong}
    for part in (Part.QUESTIONS, Part.KEY):
        html = form_html(ExamHeader(title={"en": "Quiz"}), PrintForm("A", [item]), "en", part,
                         MathSlots(KatexRenderer()))
        labels = [c["label"]["en"] for f in wrong["fields"] for c in f["choices"]]
        assert any(f'<pre class="code">{label}</pre>' in html for label in labels) and "True" not in html


@pytest.mark.django_db
def test_the_practice_page_renders_a_choices_markdown_in_the_options_and_the_key(client, django_user_model):
    from django.urls import reverse

    from practice import actions as practice

    alice = django_user_model.objects.create(username="alice")
    client.force_login(alice)
    v = practice.get_or_create_variant(alice, "synchronization.ballot", "page", 2, seed=4)
    assert "`" in str(v.answer["fields"])
    practice.reveal(v)
    for lang in ("en", "ko"):
        html = client.get(reverse("practice:question", args=[v.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert "`" not in without_code(html.split('<div class="solution">')[0].split("<article")[1])
        assert re.search(r'<label class="option">.*?<code>lane [^<]+</code>', html, re.S)
        assert re.search(r"<td><code>lane [^<]+</code>|<td>[^<]*<code>lane [^<]+</code>", html)
