"""Hidden test data, reference and wrong solutions, harnesses and answer keys never reach a student.

Every page and API endpoint a student can open is fetched and searched for the canaries of
conftest.py. The first test proves the canaries are really in the stored results (an instructor
sees them), so that finding none on a student's page means something.
"""
from __future__ import annotations

import re

import pytest

from practice import actions as practice

from .conftest import HIDDEN_N, HIDDEN_NAME, NEVER_FOR_ANYONE, NEVER_FOR_STUDENTS, PRINTF_CANARY, body, leaks

pytestmark = pytest.mark.django_db


def student_views(page, api, graded, who: str = "alice") -> dict[str, str]:
    """Every page and JSON a student can fetch about the canary problem and their submissions."""
    html, js = page(who), api(who)
    out = {"problem list": body(html.get("/")), "problem page": body(html.get("/problems/canary-add/")),
           "my submissions": body(html.get("/submissions/")),
           "my submissions ?all=1": body(html.get("/submissions/?all=1")),
           "api problems": body(js.get("/api/v1/problems")), "api my submissions": body(js.get("/api/v1/submissions"))}
    for name, sub in graded.items():
        out[f"page {name}"] = body(html.get(f"/submissions/{sub.pk}/"))
        out[f"live {name}"] = body(html.get(f"/submissions/{sub.pk}/live/"))
        out[f"api {name}"] = body(js.get(f"/api/v1/submissions/{sub.pk}"))
    return out


def test_the_canaries_are_in_the_stored_results(graded, api):
    """Control: the real emulator put the hidden size, an out-of-bounds finding on the hidden test and
    the hidden test's printf output into the results, and an instructor reads all of it."""
    assert {name: s.verdict for name, s in graded.items()} == {
        "wrong_on_hidden": "WRONG_ANSWER", "out_of_bounds_on_hidden": "MEMORY_ERROR", "printf_on_hidden": "ACCEPTED"}
    full = {name: api("ivy").get(f"/api/v1/submissions/{s.pk}").json() for name, s in graded.items()}
    big = {name: next(t for t in data["tests"] if t["name"] == HIDDEN_NAME) for name, data in full.items()}
    assert all(t["params"] == {"n": HIDDEN_N} for t in big.values())
    assert big["wrong_on_hidden"]["mismatch"]["index"] == [1000]
    oob = [d for d in full["out_of_bounds_on_hidden"]["diagnostics"] if d["test"] == HIDDEN_NAME]
    assert oob and str(HIDDEN_N) in oob[0]["message"], oob
    assert PRINTF_CANARY in big["printf_on_hidden"]["output_log"]


def test_no_student_page_or_json_shows_hidden_data_or_solutions(graded, page, api):
    """The submitter's own pages and JSON show hidden tests by name and verdict only."""
    views = student_views(page, api, graded)
    found = {name: leaks(text, NEVER_FOR_STUDENTS) for name, text in views.items()}
    assert {k: v for k, v in found.items() if v} == {}


def test_student_sees_the_hidden_finding_by_kind_only(graded, api):
    """The out-of-bounds write on the hidden test is reported by its kind, without line, index or size, and
    the hidden test's time is not shown: the student's code chooses its line and its time, so either could
    carry the hidden inputs out (issue 13)."""
    data = api("alice").get(f"/api/v1/submissions/{graded['out_of_bounds_on_hidden'].pk}").json()
    hidden = [d for d in data["diagnostics"] if d["test"] == "#2"]  # its place in the list, not its name
    assert hidden and hidden[0]["line"] is None
    assert hidden[0]["block"] is None and hidden[0]["thread"] is None and hidden[0]["detail"] == {}
    big = next(t for t in data["tests"] if t["name"] == "#2")
    assert set(big) == {"name", "sample", "verdict", "time_s"} and big["time_s"] is None
    instructor = api("ivy").get(f"/api/v1/submissions/{graded['out_of_bounds_on_hidden'].pk}").json()
    assert [d["line"] for d in instructor["diagnostics"] if d["test"] == HIDDEN_NAME] == [4]
    assert next(t for t in instructor["tests"] if t["name"] == HIDDEN_NAME)["time_s"] is not None


def test_instructors_never_receive_solutions_or_seeds_through_the_site(graded, page, api):
    """Even staff and instructors' views carry no reference solution, wrong solution, harness or seed."""
    for who in ("ivy", "sam"):
        views = student_views(page, api, graded, who)
        views["all submissions"] = body(page(who).get("/submissions/?all=1"))
        found = {name: leaks(text, NEVER_FOR_ANYONE) for name, text in views.items()}
        assert {k: v for k, v in found.items() if v} == {}, who


def test_logged_out_visitors_see_no_solutions(canary, page, api):
    """The public problem pages hold the statement and the sample sizes only."""
    for url in ("/", "/problems/canary-add/"):
        assert leaks(body(page(None).get(url)), NEVER_FOR_STUDENTS) == []
    assert api(None).get("/api/v1/problems").status_code in (401, 403)


# ---- generated questions: the answer key -------------------------------------------------------

def section(html: str, css_class: str) -> str:
    m = re.search(rf'<div class="{css_class}">(.*?)</div>\s*<form', html, re.S)
    return m.group(1).strip() if m else ""


def test_practice_answer_key_and_worked_solution_only_after_an_answer(users, page):
    """Before the key is shown (a right answer, the allowed wrong tries, or "Show the answer") the page
    has neither the correct answers nor the worked solution; an unreadable answer (no attempt) or a
    wrong one does not reveal them either (tests/access/test_practice_key.py has the rest)."""
    variant = practice.next_variant(users["alice"], practice.MIXED, 2)
    url = f"/practice/q/{variant.pk}/"
    alice = page("alice")
    before = body(alice.get(url))
    fields = practice.answer_fields(variant)
    unreadable = body(alice.post(url, {f"answer-{f.name}": "¿?" for f in fields}))

    graded = {}
    for f in fields:
        graded[f"answer-{f.name}"] = f.choices[0].key if f.choices else "1"
    alice.post(url, graded)
    answered = body(alice.get(url))
    wrong = not variant.attempts.get().correct
    alice.post(f"/practice/q/{variant.pk}/reveal/")
    after = body(alice.get(url))
    solution = section(after, "solution")
    assert "Correct answer" in after and len(solution) > 20  # control: the page does show them, later
    for html in (before, unreadable) + ((answered,) if wrong else ()):
        assert "Correct answer" not in html and "Worked solution" not in html
        assert solution not in html


def test_another_student_cannot_open_or_answer_a_variant(users, page):
    """Bob gets 404 for Alice's question, GET or POST, and his POST stores no attempt."""
    variant = practice.next_variant(users["alice"], practice.MIXED, 2)
    url = f"/practice/q/{variant.pk}/"
    bob = page("bob")
    assert bob.get(url).status_code == 404
    assert bob.post(url, {"answer-x": "1"}).status_code == 404
    assert variant.attempts.count() == 0


def test_a_hidden_tests_time_is_not_on_the_students_page_to_a_tenth_of_a_millisecond(graded, page, api, judged):
    """Issue #13 (3): a plain timing channel decoded a hidden input to one of 16 levels from the time shown
    to 0.1 ms. A hidden test given a distinctive stored time (123.4567 ms) shows only its verdict on the
    owner's page and JSON; the sample test's time and the instructor's view still show theirs (the control)."""
    import copy
    import dataclasses

    from grader import grading as grader_grading
    from grader.models import Submission

    sub = graded["wrong_on_hidden"]
    result = copy.deepcopy(judged["wrong_on_hidden"])
    result.tests = [dataclasses.replace(t, time_s=0.0042 if t.sample else 0.1234567) for t in result.tests]
    assert any(not t.sample for t in result.tests) and any(t.sample for t in result.tests)
    Submission.objects.filter(pk=sub.pk).update(status="RUNNING", verdict="", result=None, finished_at=None)
    grader_grading.finish_grading(sub.pk, result)
    url = f"/submissions/{sub.pk}/"
    student_page = body(page("alice").get(url))
    student_json = api("alice").get(f"/api/v1/submissions/{sub.pk}").content.decode()
    assert "4.2 ms" in student_page  # the sample test's time is shown
    for text in (student_page, student_json):
        assert "123.5" not in text and "0.1234567" not in text and "123.4" not in text
    instructor = api("ivy").get(f"/api/v1/submissions/{sub.pk}").json()
    assert 0.1234567 in [t["time_s"] for t in instructor["tests"]]
