"""A launch chosen for a problem whose launch is fixed is refused, in the API and on the page alike.

It used to be stored and then ignored by the grader, so the submission showed a launch it was
never run with. Every request goes through the test client: the real view, form or serializer and
grader.actions.
"""
import pytest
from django.core.cache import cache
from django.urls import reverse

from grader.models import Submission

from .conftest import SOURCE

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def forget_rendered_statements():
    """These tests render problem pages, whose statements are cached in the process-wide LocMemCache;
    clear it afterwards so that tests counting cache entries (test_markdown) do not see them."""
    yield
    cache.clear()


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
