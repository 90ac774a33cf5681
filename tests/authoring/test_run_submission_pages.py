"""A submission made by a validation run or a rejudge preview is nobody's attempt, and its page says so
(grader.runs): the tester's validation run opened as "My submissions / #1" with "Edit and resubmit".
Its breadcrumbs lead back to the run through the course and the problem, a banner names the run, the
version and the file, and there is no "Edit and resubmit"; a student's own submission is unchanged."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from authoring import actions
from grader import grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Status, Submission
from grader.runs import RunKind, run_origin

pytestmark = pytest.mark.django_db
WRONG = "// verdict: WRONG_ANSWER\n__global__ void scale(const float* x, float* y, float a, int n) { }\n"


def crumbs(html: str) -> list[tuple[str, str]]:
    nav = re.search(r'<nav class="breadcrumbs"[^>]*>(.*?)</nav>', html, re.S).group(1)
    return [(href, text.strip()) for href, text in re.findall(r'<a href="([^"]*)">([^<]*)</a>', nav)]


@pytest.fixture
def run(problem, people):
    """A validation run of scale-a version 2, which has one wrong solution."""
    version = problem.versions.get()
    files = {**version.files, "wrong/skips_everything.cu": WRONG}
    new, _created = actions.save_version(problem, people["prof"], files, "a wrong solution")
    return actions.start_validation(new, people["prof"])


@pytest.mark.parametrize("lang, words", [
    ("en", {"banner": "Validation run of version 2: the solution", "back": "Back to the validation run",
            "crumb": "Validation of scale-a v2", "resubmit": "Edit and resubmit", "mine": "My submissions"}),
    ("ko", {"banner": "버전 2 검증 실행: 정답 풀이", "back": "검증 실행으로 돌아가기", "crumb": "scale-a v2 검증",
            "resubmit": "고쳐서 다시 제출", "mine": "내 제출"}),
])
def test_a_validation_runs_solution_page_leads_back_to_its_run(client_for, problem, run, lang, words):
    submission = Submission.objects.get(validation_item__run=run, validation_item__name="solution.cu")
    html = client_for("prof").get(submission.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    run_url = reverse("authoring:run", args=["PP-A", "scale-a", run.pk])
    assert crumbs(html) == [(reverse("courses:home"), crumbs(html)[0][1]),
                            (reverse("courses:course", args=["PP-A"]), "Parallel Programming"),
                            (reverse("authoring:index", args=["PP-A"]), crumbs(html)[2][1]),
                            (reverse("authoring:edit", args=["PP-A", "scale-a"]), "scale-a"),
                            (run_url, words["crumb"])]
    banner = html[html.index('id="run-origin"'):]
    banner = banner[:banner.index("</div>")]
    assert words["banner"] in banner and "<code>solution.cu</code>" in banner and f'href="{run_url}"' in banner
    assert words["back"] in banner
    assert words["resubmit"] not in html and words["mine"] + "</a>" not in html.split("</nav>", 2)[1]


def test_a_wrong_solutions_page_names_it_and_the_verdict_it_must_get(client_for, run):
    submission = Submission.objects.get(validation_item__run=run, validation_item__name="wrong/skips_everything.cu")
    html = client_for("tara").get(submission.get_absolute_url()).content.decode()
    assert "Validation run of version 2: wrong solution skips_everything" in html
    assert "<code>wrong/skips_everything.cu</code> must get Wrong answer" in html
    origin = run_origin(submission)
    assert (origin.kind, origin.version, origin.wrong_name, origin.declared) == (
        RunKind.VALIDATION, 2, "skips_everything", "WRONG_ANSWER")


def _graded(user, version, verdict):
    s = Submission.objects.create(user=user, problem_version=version, source="// mine", status=Status.QUEUED)
    grading.finish_grading(s.pk, JudgeResult(verdict=verdict))
    return Submission.objects.get(pk=s.pk)


@pytest.mark.parametrize("lang, words", [
    ("en", {"banner": "Rejudge preview against version 1", "crumb": "Rejudge scale-a against v1",
            "copy": "submission #{id}</a> by stu", "resubmit": "Edit and resubmit"}),
    ("ko", {"banner": "버전 1 기준 재채점 미리 보기", "crumb": "scale-a 문제를 v1 기준으로 재채점",
            "copy": "stu의 <a href=\"/submissions/{id}/\">제출 #{id}</a>", "resubmit": "고쳐서 다시 제출"}),
])
def test_a_rejudge_copys_page_leads_back_to_the_rejudge_and_its_original(client_for, problem, people, lang, words):
    original = _graded(people["stu"], problem.versions.get(), Verdict.WRONG_ANSWER)
    rejudge = actions.start_rejudge(problem, people["prof"], problem.versions.get(), "all")
    copy = rejudge.items.get().copy
    html = client_for("prof").get(copy.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    run_url = reverse("authoring:rejudge-run", args=["PP-A", "scale-a", rejudge.pk])
    assert crumbs(html)[-1] == (run_url, words["crumb"]) and len(crumbs(html)) == 5
    banner = html[html.index('id="run-origin"'):]
    banner = banner[:banner.index("</div>")]
    assert words["banner"] in banner and words["copy"].format(id=original.pk) in banner
    assert f'href="{original.get_absolute_url()}"' in banner and f'href="{run_url}"' in banner
    assert words["resubmit"] not in html


def test_a_students_own_submission_page_is_as_it_was(client_for, problem, people):
    """No banner, "My submissions" first in the breadcrumbs, and "Edit and resubmit"."""
    mine = _graded(people["stu"], problem.versions.get(), Verdict.ACCEPTED)
    assert run_origin(mine) is None
    problem.is_published = True
    problem.save()
    html = client_for("stu").get(mine.get_absolute_url()).content.decode()
    assert 'id="run-origin"' not in html and "Edit and resubmit" in html
    assert crumbs(html) == [(reverse("grader:list"), "My submissions")]
