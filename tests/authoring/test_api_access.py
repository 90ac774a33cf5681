"""The JSON API on a course's problem: /api/v1/problems/<slug> and the submissions API give staff of
another course (a TA, and an instructor who is also a site instructor) and outsiders nothing, and give
the course's student the problem without its hidden tests, solution, wrong solutions or harness.py;
validation runs and rejudge copies (the staff's sources) stay with the course's staff."""
from __future__ import annotations

import json

import pytest

from authoring import actions
from grader import grading
from grader.core.results import JudgeResult
from grader.core.verdicts import Verdict
from grader.models import Purpose, Status, Submission

pytestmark = pytest.mark.django_db

# Words that appear only in the parts of the package a student must never read.
SECRETS = {
    "solution.cu": "SOLUTION_MARKER_7f3",
    "wrong/no_bounds_check.cu": "WRONG_MARKER_91c",
    "harness.py": "HARNESS_MARKER_2d8",
    "hidden test": "hidden-marker-tail",
}
OTHERS = ["tom", "bea", "nobody"]  # course B's TA, course B's instructor (a site instructor), no course


@pytest.fixture
def published(problem, people):
    """Course A's problem, published at version 2 whose secret parts carry SECRETS' markers, with one graded
    submission of its student, a passed validation run and a rejudge preview."""
    files = dict(problem.versions.get().files)
    files["solution.cu"] = f"// {SECRETS['solution.cu']}\n" + files["solution.cu"]
    files["wrong/no_bounds_check.cu"] += f"// {SECRETS['wrong/no_bounds_check.cu']}\n"
    files["harness.py"] = f"# {SECRETS['harness.py']}\n" + files["harness.py"]
    files["problem.yaml"] = files["problem.yaml"].replace("{name: tail,", f"{{name: {SECRETS['hidden test']},")
    version, created = actions.save_version(problem, people["prof"], files, "markers")
    assert created and SECRETS["hidden test"] in [t.name for t in version.package().tests]
    run = actions.start_validation(version, people["prof"])
    for item in run.items.all():
        grading.finish_grading(item.submission_id, JudgeResult(verdict=Verdict(item.expected)))
    actions.publish(version, people["prof"])
    problem.refresh_from_db()
    mine = Submission.objects.create(user=people["stu"], problem_version=version, source="// the student's own",
                                     status=Status.QUEUED)
    grading.finish_grading(mine.pk, JudgeResult(verdict=Verdict.WRONG_ANSWER))
    rejudge = actions.start_rejudge(problem, people["prof"], version, "all")
    return {"problem": problem, "run": run, "mine": mine, "rejudge": rejudge}


def _staff_sources(published) -> list[Submission]:
    """The validation submissions (solution and wrong solution) and the rejudge copy."""
    return [i.submission for i in published["run"].items.select_related("submission")] + \
        [i.copy for i in published["rejudge"].items.select_related("copy")]


@pytest.mark.parametrize("who", OTHERS)
def test_other_courses_staff_and_outsiders_get_nothing_of_a_courses_problem_from_the_api(client_for, published, who):
    problem = published["problem"]
    client = client_for(who)
    assert client.get(f"/api/v1/problems/{problem.slug}").status_code == 404
    assert problem.slug not in client.get("/api/v1/problems").content.decode()
    response = client.post(f"/api/v1/problems/{problem.slug}/submissions",
                           {"source": "__global__ void scale(const float* x, float* y, float a, int n) {}"},
                           content_type="application/json")
    assert response.status_code == 404
    assert not Submission.objects.filter(user__username=who).exists()
    for submission in [published["mine"], *_staff_sources(published)]:
        assert client.get(f"/api/v1/submissions/{submission.pk}").status_code == 404, (who, submission.purpose)
    listed = client.get("/api/v1/submissions").json()["submissions"]
    assert listed == []


def test_the_courses_student_reads_the_problem_without_its_hidden_tests_solutions_or_harness(client_for, published):
    problem = published["problem"]
    client = client_for("stu")
    response = client.get(f"/api/v1/problems/{problem.slug}")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"slug", "title", "topic", "difficulty", "version", "kernel", "student_chooses_launch",
                         "html_url", "submissions_url", "language", "statement", "starter", "launch", "time_limit_s",
                         "sample_tests"}
    assert [t["name"] for t in body["sample_tests"]] == ["small"]
    text = response.content.decode()
    leaked = [part for part, marker in SECRETS.items() if marker in text]
    assert not leaked and "no_bounds_check" not in text and "MEMORY_ERROR" not in text
    # Their own submission, in full JSON, says nothing of the package either.
    own = client.get(f"/api/v1/submissions/{published['mine'].pk}")
    assert own.status_code == 200 and own.json()["problem"] == problem.slug
    assert not [part for part, marker in SECRETS.items() if marker in own.content.decode()]
    # The staff's sources (the reference solution, the wrong one, the rejudge copy of their own work) are not theirs.
    for submission in _staff_sources(published):
        assert client.get(f"/api/v1/submissions/{submission.pk}").status_code == 404, submission.purpose
    listed = client.get("/api/v1/submissions").json()["submissions"]
    assert [s["id"] for s in listed] == [published["mine"].pk]


def test_the_courses_ta_reads_its_validation_runs_through_the_api_as_on_the_page(client_for, published):
    """A TA of the course who is not a site instructor read validation submissions on their pages but got
    404 from the API (it let only site instructors past their own submissions); one rule now decides both."""
    from django.urls import reverse

    client = client_for("tara")
    solution = published["run"].items.get(name="solution.cu").submission
    assert client.get(reverse("grader:submission", args=[solution.pk])).status_code == 200
    response = client.get(f"/api/v1/submissions/{solution.pk}")
    assert response.status_code == 200 and response.json()["verdict"] == "ACCEPTED"
    assert client.get(f"/api/v1/submissions/{published['mine'].pk}").status_code == 200
    assert json.loads(client.get(f"/api/v1/problems/{published['problem'].slug}").content)["version"] == 2
    assert Submission.objects.filter(purpose=Purpose.VALIDATION, user__username="tara").count() == 0
