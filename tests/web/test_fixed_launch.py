"""A launch chosen for a problem whose launch is fixed is refused, in the API and on the page alike.

It used to be stored and then ignored by the grader, so the submission showed a launch it was
never run with. Every request goes through the test client: the real view, form or serializer and
grader.actions.
"""
import html as html_lib

import pytest
from django.urls import reverse

from grader.models import Submission

from .conftest import SOURCE

pytestmark = pytest.mark.django_db

SUBMIT = "/api/v1/problems/{slug}/submissions"


def post(client, slug, body):
    return client.post(SUBMIT.format(slug=slug), body, format="json")


def test_api_refuses_a_launch_for_a_fixed_launch_problem(problem, alice_api):
    """{"launch": {"block": "128"}} on tiny-add (fixed <<<ceil_div(n, 256), 256>>>) is a 400 that
    names launch.block and says the launch is fixed; `fields` carries it; nothing is saved."""
    response = post(alice_api, "tiny-add", {"source": SOURCE, "launch": {"block": "128"}})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"].startswith("launch.block: ")
    assert "launch is fixed (<<<ceil_div(n, 256), 256>>>)" in body["error"]
    assert body["fields"] == {"launch": {"block": [body["error"]]}}
    assert not Submission.objects.exists()


def test_api_names_every_chosen_field(problem, alice_api):
    """Several chosen fields are all named, in the order block, grid, shared_bytes (numbers count too)."""
    response = post(alice_api, "tiny-add", {"source": SOURCE, "launch": {"shared_bytes": 0, "grid": "4"}})
    assert response.status_code == 400
    body = response.json()
    assert body["error"].startswith("launch.grid, launch.shared_bytes: ")
    assert "so they cannot be chosen" in body["error"]
    assert set(body["fields"]["launch"]) == {"grid", "shared_bytes"}


@pytest.mark.parametrize("launch", [{}, {"block": "", "grid": "  ", "shared_bytes": ""}])
def test_api_accepts_an_empty_launch_for_a_fixed_launch_problem(problem, alice_api, launch,
                                                               django_capture_on_commit_callbacks):
    """An empty launch object, or blank fields, choose nothing: the submission is taken with no launch stored."""
    with django_capture_on_commit_callbacks(execute=False):
        response = post(alice_api, "tiny-add", {"source": SOURCE, "launch": launch})
    assert response.status_code == 201, response.content
    submission = Submission.objects.get()
    assert (submission.launch_block, submission.launch_grid, submission.launch_shared_bytes) == ("", "", "")


def test_api_still_accepts_a_launch_where_the_student_chooses(choose_problem, alice_api,
                                                             django_capture_on_commit_callbacks):
    """tiny-choose takes the same launch object."""
    with django_capture_on_commit_callbacks(execute=False):
        response = post(alice_api, "tiny-choose", {"source": SOURCE, "launch": {"block": "128"}})
    assert response.status_code == 201, response.content
    assert Submission.objects.get().launch_block == "128"


def test_page_refuses_launch_fields_posted_to_a_fixed_launch_problem(problem, alice_client):
    """The page offers no launch fields for tiny-add; a POST carrying one anyway is refused like in
    the API (400, the same message), with the source kept and nothing saved."""
    kept = SOURCE.replace("i <= n", "i < n /* kept */")
    response = alice_client.post(reverse("problems:detail", args=[problem.slug]), {"source": kept, "block": "128"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "launch.block: this problem&#x27;s launch is fixed" in html
    assert "/* kept */" in html
    assert not Submission.objects.exists()


def test_page_without_launch_fields_still_submits(problem, alice_client, django_capture_on_commit_callbacks):
    """The page's own form (source only, or the launch fields left blank) still submits."""
    with django_capture_on_commit_callbacks(execute=False):
        response = alice_client.post(reverse("problems:detail", args=[problem.slug]),
                                     {"source": SOURCE, "block": "", "grid": ""})
    assert response.status_code == 302
    assert Submission.objects.count() == 1


LAUNCH_LINE_SOURCE = "// my kernel\n\n// launch: block=128 grid=ceil_div(n, 128)\n" + SOURCE
LINE_REFUSAL = ("line 3: this problem's launch is fixed (<<<ceil_div(n, 256), 256>>>), so a // launch: line "
                "cannot choose it; remove the line.")


def test_api_refuses_a_launch_line_for_a_fixed_launch_problem(problem, alice_api):
    """A `// launch:` line on line 3 of a source for tiny-add (fixed) is a 400 that names the line,
    like a launch in the fields; `fields` names the source; nothing is saved. It used to be graded
    with the fixed launch, without a word."""
    response = post(alice_api, "tiny-add", {"source": LAUNCH_LINE_SOURCE})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == LINE_REFUSAL
    assert body["fields"] == {"source": [LINE_REFUSAL]}
    assert not Submission.objects.exists()


def test_launch_fields_are_named_before_a_launch_line(problem, alice_api):
    """Fields and a launch line together: the fields are named (they are what the form shows)."""
    response = post(alice_api, "tiny-add", {"source": LAUNCH_LINE_SOURCE, "launch": {"block": "128"}})
    assert response.status_code == 400
    assert response.json()["error"].startswith("launch.block: ")


def test_page_refuses_a_launch_line_for_a_fixed_launch_problem(problem, alice_client):
    """The page refuses the same source with the same message, keeping the source."""
    response = alice_client.post(reverse("problems:detail", args=[problem.slug]), {"source": LAUNCH_LINE_SOURCE})
    html = response.content.decode()
    assert response.status_code == 400
    assert html_lib.escape(LINE_REFUSAL) in html
    assert "// launch: block=128 grid=ceil_div(n, 128)" in html  # kept in the textarea
    assert not Submission.objects.exists()


def test_manage_submit_refuses_a_launch_line_for_a_fixed_launch_problem(problem, alice, tmp_path):
    """`manage.py submit` goes through the same check: a CommandError with the same message."""
    from django.core.management import CommandError, call_command

    kernel = tmp_path / "kernel.cu"
    kernel.write_text(LAUNCH_LINE_SOURCE, encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("submit", str(kernel), "--user", alice.username, "--problem", "tiny-add")
    assert str(refused.value) == LINE_REFUSAL
    assert not Submission.objects.exists()


@pytest.mark.parametrize("line", ["// launch: see the statement", "// launch: block=", "// launched twice"])
def test_a_comment_that_chooses_nothing_is_not_refused(problem, alice_api, line, django_capture_on_commit_callbacks):
    """A comment that the launch parser reads no launch from (no `field=value`) chooses nothing,
    like blank fields: the submission is taken."""
    with django_capture_on_commit_callbacks(execute=False):
        response = post(alice_api, "tiny-add", {"source": f"{line}\n{SOURCE}"})
    assert response.status_code == 201, response.content


def test_a_launch_line_still_chooses_where_the_student_chooses(choose_problem, alice_api,
                                                              django_capture_on_commit_callbacks):
    """tiny-choose takes the same source; the line's launch is the one graded."""
    from grader.core.judge import LaunchChoice, launch_expressions

    with django_capture_on_commit_callbacks(execute=False):
        response = post(alice_api, "tiny-choose", {"source": LAUNCH_LINE_SOURCE})
    assert response.status_code == 201, response.content
    submission = Submission.objects.get()
    package = choose_problem.current_version.package()
    assert launch_expressions(package, submission.source, LaunchChoice())[:2] == ("128", "ceil_div(n, 128)")


def test_page_refuses_a_launch_line_in_korean(problem, alice_client):
    """A Korean reader gets the refusal of a // launch: line in Korean."""
    response = alice_client.post(reverse("problems:detail", args=[problem.slug]), {"source": LAUNCH_LINE_SOURCE},
                                 HTTP_ACCEPT_LANGUAGE="ko")
    html = html_lib.unescape(response.content.decode())
    assert response.status_code == 400
    assert "번 줄: 이 문제의 실행 구성은 고정되어 있어" in html and "cannot choose it" not in html
