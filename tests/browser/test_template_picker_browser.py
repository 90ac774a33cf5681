"""The exam template editor's picker in a real browser, in English and Korean: the tester opened a new
template, never clicked into the YAML, picked a family and pressed "Add to the template"; the item
landed under `title:` and Check and save failed with "expected <block end>" (shot 12). Now the item
goes into a zone's pool wherever the caret is, a misspelt id is refused before anything is inserted,
and the template saves."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser]

ADDED = {"en": "Added synchronization.classify to the pool of zone 1", "ko": "의 풀에 추가했습니다: synchronization.classify"}
REFUSED = {"en": "Did you mean “memory.bank_conflicts”?", "ko": "혹시 “memory.bank_conflicts”인가요?"}
TWICE = {"en": "The question family “indexing.limits” is already in zone 2 of the template at this difficulty",
         "ko": "템플릿의 2번 구역에 같은 난이도로 이미 있는 문제 유형입니다: “indexing.limits”"}
MARKED = {"en": "· in the template: zone 2, difficulty 1", "ko": "· 템플릿에 있음: 2번 구역, 난이도 1"}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_picker_adds_to_a_pool_and_the_template_saves(editor, lang):
    from exams.models import ExamTemplate

    page = editor(lang)
    before = page.input_value("#id_text")

    # A misspelt id: refused with the closest one, the text untouched.
    page.fill("#pick-family", "memory.bank_conflict")
    page.click("#add-family")
    page.wait_for_selector("#pick-status.pick-refused")
    assert REFUSED[lang] in page.inner_text("#pick-status")
    assert page.input_value("#id_text") == before and page.get_attribute("#pick-family", "aria-invalid") == "true"

    # The tester's steps: the caret never placed in the YAML (it sits at line 1), the family picked.
    page.evaluate("() => document.getElementById('id_text').setSelectionRange(0, 0)")
    page.fill("#pick-family", "synchronization.classify")
    page.press("#pick-family", "Enter")
    page.wait_for_selector("#pick-status.pick-added")
    assert ADDED[lang] in page.inner_text("#pick-status")
    text = page.input_value("#id_text")
    assert text.splitlines()[0] == before.splitlines()[0]  # nothing under title:
    assert "      - {family: indexing.warp_lane}\n      - {family: synchronization.classify}\n" in text
    selected = page.evaluate("() => { const t = document.getElementById('id_text');"
                             " return t.value.slice(t.selectionStart, t.selectionEnd); }")
    assert selected == "      - {family: synchronization.classify}"  # the new line is shown selected
    assert page.input_value("#pick-family") == ""

    # A second family into the chosen zone 2 (the select lists the zones by title).
    labels = page.eval_on_selector_all("#pick-zone option", "os => os.map(o => o.textContent)")
    assert labels[1:] == (["1. Occupancy and indexing", "2. Kernel"] if lang == "en"
                          else ["1. 점유율과 인덱스 계산", "2. 커널"])
    page.select_option("#pick-zone", "1")
    page.fill("#pick-family", "indexing.limits")
    page.click("#add-family")
    page.wait_for_function("() => document.getElementById('id_text').value.includes('indexing.limits')")
    assert page.input_value("#id_text").rstrip().endswith("- {family: indexing.limits}")

    # indexing.limits again: refused (a student could get it twice), the text untouched; the lists mark it.
    text = page.input_value("#id_text")
    page.fill("#pick-family", "indexing.limits")
    page.click("#add-family")
    page.wait_for_selector("#pick-status.pick-refused")
    assert TWICE[lang] in page.inner_text("#pick-status") and page.input_value("#id_text") == text
    label = page.get_attribute("#family-ids option[value='indexing.limits']", "label")
    assert label.endswith(MARKED[lang]), label
    assert page.get_attribute("tr[data-family='indexing.limits']", "class") == "pick-used"

    # The example's kernel slug is not in this course: put a family there instead, then save.
    page.fill("#id_text", page.input_value("#id_text").replace(
        "{kernel: vector-add-tail, attempt_points: [10, 7, 5], partial_credit: true}", "{family: indexing.inverse}"))
    page.click("#save-template")
    page.wait_for_url(re.compile(r".*/exams/course/\d+/$"))
    spec = ExamTemplate.objects.get(course=editor.course).data
    assert [p["family"] for p in spec["zones"][0]["pool"]][-1] == "synchronization.classify"
    assert [p["family"] for p in spec["zones"][1]["pool"]] == ["indexing.inverse", "indexing.limits"]
    assert not page.errors, page.errors


BANK_WARNING = {"en": "students can practise them with full feedback before and during the exam",
                "ko": "시험 전에도 시험 중에도 전체 피드백을 받으며 연습할 수 있습니다"}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_picking_a_bank_problem_warns_that_it_is_public(editor, lang):
    """A shipped-bank problem can be practised by every student before and during the exam: the picker
    says so in its status and the page shows the warning, without a reload."""
    from problems.services import import_package
    from tests.packages import tiny_package

    import_package(tiny_package())  # the bank's tiny-add
    page = editor(lang)
    assert page.is_visible("#bank-note") and not page.is_visible("#bank-warning")
    page.fill("#pick-kernel", "tiny-add")
    page.click("#add-kernel")
    page.wait_for_selector("#pick-status.pick-added")
    page.wait_for_selector("#bank-warning", state="visible")
    assert "tiny-add" in page.inner_text("#bank-warning") and BANK_WARNING[lang] in page.inner_text("#bank-warning")
    assert not page.is_visible("#bank-note")  # one paragraph says the bank is public, not two
    assert "tiny-add" in page.inner_text("#pick-status")
    assert not page.errors, page.errors
