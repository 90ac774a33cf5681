"""exams.core.lockdown, the exam-mode policy, with no database: which routes stay open while a student's
attempt closes the rest of the site, and which attempt locks."""
from datetime import datetime, timedelta, timezone

import pytest

from exams.core.lockdown import ROUTES, InProgress, Kind, Lock, allowed, route_of

NOW = datetime(2026, 12, 6, 10, 0, tzinfo=timezone.utc)
LOCKED = Lock((InProgress(7, NOW + timedelta(minutes=30), True),))


@pytest.mark.parametrize("name", ["problems:list", "problems:detail", "practice:home", "practice:start",
                                  "practice:calculator", "playground:home", "playground:run", "courses:home",
                                  "courses:course", "homework:set", "grader:list", "exams:course", "exams:monitor",
                                  "authoring:index", "api_tokens", "signup", "admin:index", "lti:links"])
def test_the_rest_of_the_site_is_closed(name):
    """Problems, practice, the calculator, the playground, courses and homework, My submissions, staff pages
    (of another course), the token page and sign-up: closed, as is any route nobody listed."""
    assert route_of(name).kind is Kind.CLOSED
    assert not allowed(route_of(name), LOCKED, {"pk": 7})


@pytest.mark.parametrize("name", ["login", "logout", "account", "password_change", "set_language", "lti:launch"])
def test_signing_in_and_out_the_language_and_the_account_stay_open(name):
    assert allowed(route_of(name), LOCKED, {})


@pytest.mark.parametrize("name", ["exams:exam", "exams:attempt", "exams:submit", "exams:kernel",
                                  "exams:kernel_state", "exams:kernel_live", "exams:result", "exams:start"])
def test_the_exams_own_pages_are_open_and_another_exams_are_not(name):
    assert allowed(route_of(name), LOCKED, {"pk": 7, "number": 3})
    assert not allowed(route_of(name), LOCKED, {"pk": 8, "number": 3})


def test_the_attempts_autosave_and_clock_are_never_checked():
    """They answer for the requester's own attempt only, with no SQL (exams.fastsave, exams.clock)."""
    for name in ("exams:save", "exams:state"):
        assert route_of(name).kind is Kind.MACHINERY and allowed(route_of(name), LOCKED, {"pk": 8})


def test_a_submission_page_is_open_only_for_a_submission_of_the_attempt():
    own = Lock((InProgress(7, NOW, True, owns_submission=True),))
    for name in ("grader:submission", "grader:submission-live", "grader:submission-writemap"):
        assert allowed(route_of(name), own, {"pk": 41}) and not allowed(route_of(name), LOCKED, {"pk": 41})


def test_polled_live_rows_are_checked_after_their_view():
    """The 304s of grader.live come before the user is read: those routes are marked to be checked after."""
    assert {n for n, r in ROUTES.items() if r.poll} == {"exams:kernel_live", "grader:submission-live",
                                                         "playground:run-live"}


def test_the_api_is_left_to_the_api_view():
    assert route_of("api:problems").kind is Kind.API and route_of("api:grader.api.not_found").kind is Kind.API
    assert route_of("apiary:x").kind is Kind.CLOSED and route_of("").kind is Kind.CLOSED


def test_an_exam_that_leaves_the_site_open_locks_nothing_but_keeps_its_pages():
    """With exam 7 open (its lockdown off) and exam 9 locking, both exams' pages stay open and 9 locks;
    with only exam 7, nothing is closed."""
    open_only = Lock((InProgress(7, NOW, False),))
    assert open_only.locking is None and allowed(route_of("problems:list"), open_only, {})
    both = Lock((InProgress(7, NOW, False), InProgress(9, NOW + timedelta(minutes=5), True)))
    assert both.locking.exam_id == 9 and both.exam_ids == {7, 9}
    assert allowed(route_of("exams:attempt"), both, {"pk": 7}) and not allowed(route_of("practice:home"), both, {})


def test_no_attempt_in_progress_closes_nothing():
    assert Lock().locking is None and allowed(route_of("playground:home"), Lock(), {})


def test_an_exam_errors_status_is_the_one_shared_handlers_read():
    """grader.core.errors.http_status_for (the API's and the middleware's handler) reads `http_status`: an
    ExamError's own status, not 400 for every one."""
    from exams.errors import ExamError
    from grader.core.errors import http_status_for

    assert http_status_for(ExamError("closed", code="closed", status=409)) == 409
    assert http_status_for(ExamError("bad")) == 400
