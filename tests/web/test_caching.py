"""Caching on the read paths: parsed packages per problem version, and the live partial's ETag."""
from unittest import mock

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from grader import actions
from grader import grading
from problems import services
from problems.core.package import parse_package
from tests.packages import tiny_package_files

from .conftest import graded_result, import_files

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_caches():
    """Each test starts with empty caches, so its parse counts do not depend on earlier tests."""
    for alias in ("default", services.PACKAGE_CACHE):
        caches[alias].clear()
    yield


@pytest.fixture
def count_parses():
    """parse_package as problems.services calls it, wrapped to count calls."""
    with mock.patch.object(services, "parse_package", wraps=parse_package) as spy:
        yield spy


def detail_url(problem):
    return reverse("problems:detail", args=[problem.slug])


def live_url(submission):
    return reverse("grader:submission-live", args=[submission.pk])


# ---- parsed packages ------------------------------------------------------------------------------

def test_problem_page_parses_a_version_once(problem, alice_client, count_parses):
    """Two visits to the same problem version parse its package once: the second reads the cache."""
    for _ in range(2):
        response = alice_client.get(detail_url(problem))
        assert response.status_code == 200
        assert "Add two vectors" in response.content.decode()
    assert count_parses.call_count == 1


def test_korean_statement_uses_the_same_parsed_package(problem, alice_client, count_parses):
    """The page in English and then in Korean parses the version once (the statement renders per language)."""
    alice_client.get(detail_url(problem))
    html = alice_client.get(detail_url(problem), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "두 벡터를 더하세요" in html
    assert count_parses.call_count == 1


def test_new_version_is_parsed_and_shown(problem, alice_client, count_parses):
    """Importing a changed package makes a new version: the page shows the new statement at once."""
    assert "Add two vectors" in alice_client.get(detail_url(problem)).content.decode()
    import_files(tiny_package_files(**{"statement.md": "Add two vectors, now with a twist.\n"}))
    problem.refresh_from_db()
    assert problem.current_version.number == 2
    html = alice_client.get(detail_url(problem)).content.decode()
    assert "now with a twist" in html
    assert count_parses.call_count == 2
    alice_client.get(detail_url(problem))
    assert count_parses.call_count == 2


def test_same_content_under_another_version_id_is_parsed_again(problem, count_parses):
    """The key holds the version id and its content hash: a row with another id is not taken for a cached one."""
    version = problem.current_version
    services.version_package(version)
    other = type(version)(pk=version.pk + 1000, content_hash=version.content_hash, files=version.files)
    services.version_package(other)
    assert count_parses.call_count == 2


def test_each_caller_gets_its_own_copy(problem, count_parses):
    """A caller that changes its package changes nobody else's: the cache hands out copies."""
    first = services.version_package(problem.current_version)
    first.statement["en"] = "scribbled over"
    second = services.version_package(problem.current_version)
    assert second.statement["en"].startswith("Add two vectors")
    assert count_parses.call_count == 1


def test_resolve_package_by_database_slug_uses_the_cache(problem, count_parses):
    """resolve_package() of a slug only in the database reads the parsed version from the cache."""
    assert services.resolve_package("tiny-add").slug == "tiny-add"
    assert services.resolve_package("tiny-add").slug == "tiny-add"
    assert count_parses.call_count == 1


# ---- the live partial's conditional GET ------------------------------------------------------------

def test_live_partial_answers_304_while_nothing_changed(problem, alice, alice_client, make_submission,
                                                        django_assert_num_queries):
    """A poll with the ETag of the last answer gets 304 with no body, no rendering and no SQL at
    all (no session, no user: the state comes from the live cache, grader.live)."""
    submission = make_submission(alice, problem)
    first = alice_client.get(live_url(submission))
    assert first.status_code == 200
    assert first["ETag"]
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    with django_assert_num_queries(0):
        again = alice_client.get(live_url(submission), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]
    assert not [t.name for t in again.templates]


def test_live_partial_etag_is_bound_to_the_session(problem, alice, alice_client, make_submission):
    """The same user in another session (another cookie) cannot revalidate with the first session's
    ETag: the full view runs (and answers 200 with its own ETag)."""
    from django.test import Client

    submission = make_submission(alice, problem)
    etag = alice_client.get(live_url(submission))["ETag"]
    other = Client()
    other.force_login(alice)
    response = other.get(live_url(submission), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response["ETag"] != etag
    anonymous = Client().get(live_url(submission), HTTP_IF_NONE_MATCH=etag)
    assert anonymous.status_code == 302  # to the login page, as without a validator


def test_live_partial_changes_with_progress_and_verdict(problem, alice, alice_client, make_submission):
    """Progress and the verdict change the ETag: the next poll gets the new partial, not 304."""
    submission = make_submission(alice, problem)
    queued = alice_client.get(live_url(submission))
    grading.start_grading(submission.pk, "dummy")
    grading.record_progress(submission.pk, "running", 1, 2)
    running = alice_client.get(live_url(submission), HTTP_IF_NONE_MATCH=queued["ETag"])
    assert running.status_code == 200
    assert "Running test 2 of 2" in running.content.decode()
    assert running["ETag"] != queued["ETag"]
    grading.finish_grading(submission.pk, graded_result())
    graded = alice_client.get(live_url(submission), HTTP_IF_NONE_MATCH=running["ETag"])
    assert graded.status_code == 200
    html = graded.content.decode()
    assert 'data-status="GRADED"' in html and "hx-get" not in html  # the final partial stops polling
    assert alice_client.get(live_url(submission), HTTP_IF_NONE_MATCH=graded["ETag"]).status_code == 304


def test_live_partial_etag_differs_by_language(problem, alice, alice_client, make_submission):
    """The partial is translated: a Korean page never revalidates an English copy."""
    submission = make_submission(alice, problem)
    english = alice_client.get(live_url(submission))
    korean = alice_client.get(live_url(submission), HTTP_ACCEPT_LANGUAGE="ko", HTTP_IF_NONE_MATCH=english["ETag"])
    assert korean.status_code == 200
    assert korean["ETag"] != english["ETag"]


def test_live_partial_etag_confirms_nothing_to_another_student(problem, alice, alice_client, bob_client,
                                                               make_submission):
    """Another student sending the owner's ETag gets 404, never a 304 that would confirm the submission."""
    submission = make_submission(alice, problem)
    etag = alice_client.get(live_url(submission))["ETag"]
    assert bob_client.get(live_url(submission), HTTP_IF_NONE_MATCH=etag).status_code == 404
    assert bob_client.get(live_url(submission), HTTP_IF_NONE_MATCH="*").status_code == 404


def test_instructor_gets_own_etag(problem, alice, alice_client, instructor, make_submission):
    """An instructor sees hidden details in the partial, so a student's ETag does not validate the instructor's copy."""
    from django.test import Client

    submission = make_submission(alice, problem, graded_result())
    etag = alice_client.get(live_url(submission))["ETag"]
    ivy = Client()
    ivy.force_login(instructor)
    response = ivy.get(live_url(submission), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag


def test_submitting_reads_the_cached_package(problem, alice, count_parses):
    """ProblemVersion.package() on rows loaded afresh (as the submit path and the worker load them)
    reads the package cache: one parse for any number of submissions of the same version."""
    from problems.models import Problem

    for _ in range(3):
        fresh = Problem.objects.select_related("current_version").get(pk=problem.pk)
        actions.create_submission(alice, fresh, "__global__ void k() {}\n")
    assert count_parses.call_count == 1


def test_a_late_publisher_of_an_older_state_leaves_no_stale_token(problem, alice, alice_client, make_submission):
    """Two publishers interleave: one read the RUNNING row, the verdict committed and was published,
    then the slow one sets RUNNING's token. A poller holding the RUNNING answer must get the verdict
    on its next poll, not 304s for LIVE_TTL_S (seen under load with a real gunicorn and worker)."""
    from grader import live

    submission = make_submission(alice, problem)
    grading.start_grading(submission.pk, "dummy")
    grading.record_progress(submission.pk, "running", 1, 2)
    running = alice_client.get(live_url(submission))
    assert "Running test 2 of 2" in running.content.decode()
    stale_row = live._read(submission.pk)
    grading.finish_grading(submission.pk, graded_result())
    real_read = live._read
    reads = iter([stale_row])
    with mock.patch.object(live, "_read", side_effect=lambda pk: next(reads, None) or real_read(pk)):
        live.publish(submission.pk)  # the slow publisher: read RUNNING before the verdict, sets it now
    graded = alice_client.get(live_url(submission), HTTP_IF_NONE_MATCH=running["ETag"])
    assert graded.status_code == 200
    assert 'data-status="GRADED"' in graded.content.decode()
