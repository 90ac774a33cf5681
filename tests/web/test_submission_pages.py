"""The submission page (live through htmx), its partial, access rules and the list of mine."""
import pytest
from django.test import Client, override_settings
from django.urls import include, path, reverse

from grader import grading as grader_grading
from grader.models import Submission

from .conftest import HIDDEN_MARKER, compile_error_result, graded_result

pytestmark = pytest.mark.django_db


def live_url(submission):
    return reverse("grader:submission-live", args=[submission.pk])


def test_a_new_submission_polls_every_quarter_second_then_by_its_state(problem, alice, alice_client, make_submission):
    """For its first WARPDRILL_POLL_FAST_START_S seconds a submission's live region asks htmx for its
    partial every quarter second, queued or not (a poll that finds nothing new is a 304 with no SQL,
    grader.live); then every second while queued, every half second while graded, until it is old."""
    from datetime import timedelta

    from grader.views import FAST_POLL_FOR_S, live_poll_interval

    submission = make_submission(alice, problem)
    html = alice_client.get(submission.get_absolute_url()).content.decode()
    assert f'hx-get="{live_url(submission)}"' in html
    assert 'hx-trigger="every 0.25s"' in html
    assert "Queued" in html and "build/htmx.min.js" in html
    queued = Submission.objects.get(pk=submission.pk)
    after = queued.created_at + timedelta(seconds=5.1)
    assert live_poll_interval(queued, now=queued.created_at + timedelta(seconds=4.9)) == "0.25s"
    assert live_poll_interval(queued, now=after) == "1s"
    grader_grading.start_grading(submission.pk, "dummy")
    grading = Submission.objects.get(pk=submission.pk)
    assert live_poll_interval(grading, now=after) == "0.5s"
    assert live_poll_interval(grading, now=grading.created_at + timedelta(seconds=FAST_POLL_FOR_S + 1)) == "1s"


def test_a_quarter_second_etag_stops_earning_304_when_the_interval_slows(problem, alice, alice_client,
                                                                         make_submission, monkeypatch):
    """A young submission's partial is polled every quarter second; while it waits in the queue its
    state does not change, so every poll would be a 304 and htmx would keep the quarter second for
    good. The ETag carries the time the interval changes: past it the poll gets the full partial,
    with the slower interval, and its new ETag earns 304s again."""
    import time as time_module

    submission = make_submission(alice, problem)
    first = alice_client.get(live_url(submission))
    assert first.status_code == 200 and 'hx-trigger="every 0.25s"' in first.content.decode()
    etag = first["ETag"]
    assert alice_client.get(live_url(submission), HTTP_IF_NONE_MATCH=etag).status_code == 304
    created = Submission.objects.get(pk=submission.pk).created_at.timestamp()
    real_time = time_module.time
    monkeypatch.setattr(time_module, "time", lambda: max(real_time(), created + 5.5))
    from datetime import datetime, timezone as tz

    from django.utils import timezone
    monkeypatch.setattr(timezone, "now", lambda: datetime.fromtimestamp(time_module.time(), tz.utc))
    later = alice_client.get(live_url(submission), HTTP_IF_NONE_MATCH=etag)
    assert later.status_code == 200 and 'hx-trigger="every 1s"' in later.content.decode()
    assert later["ETag"] != etag
    assert alice_client.get(live_url(submission), HTTP_IF_NONE_MATCH=later["ETag"]).status_code == 304


def test_a_forged_until_in_the_etag_earns_no_304(problem, alice, alice_client, make_submission):
    """The time in the ETag is covered by its MAC: a caller cannot push it forward."""
    submission = make_submission(alice, problem)
    etag = alice_client.get(live_url(submission))["ETag"].strip('"')
    head, until, mac = etag.rsplit(".", 2)
    forged = f'"{head}.{int(until) + 3600}.{mac}"'
    assert alice_client.get(live_url(submission), HTTP_IF_NONE_MATCH=forged).status_code == 200


def test_queued_submission_polls_every_second_without_the_fast_start(problem, alice, alice_client, make_submission,
                                                                     settings):
    settings.WARPDRILL_POLL_FAST_START_S = 0
    submission = make_submission(alice, problem)
    assert 'hx-trigger="every 1s"' in alice_client.get(submission.get_absolute_url()).content.decode()


def test_running_shows_test_k_of_n_with_progress_bar(problem, alice, alice_client, make_submission, settings):
    """RUNNING shows which test runs and a progress bar of finished tests."""
    settings.WARPDRILL_POLL_FAST_START_S = 0  # the intervals by state
    submission = make_submission(alice, problem)
    grader_grading.start_grading(submission.pk, "dummy")
    grader_grading.record_progress(submission.pk, "running", 1, 2)
    html = alice_client.get(live_url(submission)).content.decode()
    assert "Running test 2 of 2" in html
    assert 'role="progressbar"' in html and 'style="width: 50%"' in html
    assert 'hx-trigger="every 0.5s"' in html  # just submitted: polled fast
    from datetime import timedelta

    from grader.views import FAST_POLL_FOR_S, live_poll_interval

    running = Submission.objects.get(pk=submission.pk)
    later = running.created_at + timedelta(seconds=FAST_POLL_FOR_S + 1)
    assert live_poll_interval(running, now=later) == "1s"  # a long grading: every second


def test_compiling_and_retrying_states(problem, alice, alice_client, make_submission, settings):
    """COMPILING says so; RETRYING says 'not graded, retrying' and keeps polling."""
    settings.WARPDRILL_POLL_FAST_START_S = 0  # the intervals by state
    submission = make_submission(alice, problem)
    grader_grading.start_grading(submission.pk, "dummy")
    assert "Compiling your kernel" in alice_client.get(live_url(submission)).content.decode()
    grader_grading.mark_retrying(submission.pk, "sandbox missing")
    html = alice_client.get(live_url(submission)).content.decode()
    assert "Not graded, retrying" in html and 'hx-trigger="every 1s"' in html
    assert "sandbox missing" not in html  # the platform's reason is for the logs, not the student


def test_graded_partial_stops_polling_and_shows_verdict(problem, alice, alice_client, make_submission):
    """Once GRADED, the partial has the verdict badge and no polling attributes (htmx stops)."""
    submission = make_submission(alice, problem, graded_result())
    html = alice_client.get(live_url(submission)).content.decode()
    assert "hx-trigger" not in html and "hx-get" not in html
    assert 'id="submission-verdict"' in html and "Wrong answer" in html
    assert "verdict-wrong-answer" in html
    assert "1/2 test cases passed." in html


def test_graded_page_shows_tests_mismatch_diagnostics_printf_resources(problem, alice, alice_client,
                                                                          make_submission):
    """The page lists tests, the sample's printf output, diagnostics with the quoted source line and resources."""
    submission = make_submission(alice, problem, graded_result())
    html = alice_client.get(submission.get_absolute_url()).content.decode()
    assert "<code>small</code>" in html and "<code>#2</code>" in html  # a hidden test's name is staff-only
    assert "<code>tail</code>" not in html
    assert "sample" in html and "hidden" in html
    assert "hello from thread 0" in html  # printf of the sample test
    assert "Data race" in html and "Two threads write c[i] without a barrier." in html
    assert "if (i &lt;= n) c[i] = a[i] + b[i];" in html  # line 3 quoted
    assert 'id="L3" class="marked"' in html  # and highlighted in the listing
    assert "Registers per thread" in html and "<dd>32</dd>" in html
    assert "100 %" in html  # occupancy
    assert reverse("problems:detail", args=[problem.slug]) in html  # edit and resubmit


def test_hidden_test_details_never_in_page(problem, alice, alice_client, make_submission):
    """A hidden test shows only its verdict: no expected values, messages, printf or diagnostic details."""
    submission = make_submission(alice, problem, graded_result())
    for url in (submission.get_absolute_url(), live_url(submission)):
        html = alice_client.get(url).content.decode()
        assert HIDDEN_MARKER not in html
        assert "n = 1025" not in html  # the hidden test's size


def test_instructor_sees_hidden_details(problem, alice, instructor, make_submission):
    """Instructors see every submission, hidden cases included."""
    submission = make_submission(alice, problem, graded_result())
    client = Client()
    client.force_login(instructor)
    response = client.get(submission.get_absolute_url())
    assert response.status_code == 200
    assert HIDDEN_MARKER in response.content.decode()
    assert "<code>tail</code>" in response.content.decode()  # and hidden tests' names


def test_compile_error_lists_lines_and_highlights_source(problem, alice, alice_client, make_submission):
    """A compile error is listed with the student's line number, and that line is highlighted in the source."""
    submission = make_submission(alice, problem, compile_error_result())
    html = alice_client.get(submission.get_absolute_url()).content.decode()
    assert "Compile error" in html
    assert "line 2" in html and ":44" in html and "expected &#x27;;&#x27; before &#x27;if&#x27;" in html
    assert 'id="L2" class="marked"' in html
    assert 'id="L1" class=""' in html


def test_other_student_gets_404_page_and_partial(problem, alice, bob_client, make_submission):
    """Bob cannot see Alice's submission, its live partial, or it in his list."""
    submission = make_submission(alice, problem, graded_result())
    assert bob_client.get(submission.get_absolute_url()).status_code == 404
    assert bob_client.get(live_url(submission)).status_code == 404
    assert f"#{submission.pk}" not in bob_client.get(reverse("grader:list")).content.decode()


def test_anonymous_is_sent_to_login(problem, alice, make_submission):
    """Submission pages need a login."""
    submission = make_submission(alice, problem)
    response = Client().get(submission.get_absolute_url())
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_my_submissions_paginated_newest_first(problem, alice, alice_client, make_submission):
    """The list shows my submissions newest first, 25 per page, with verdict badges."""
    with override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=0):
        ids = [make_submission(alice, problem, graded_result()).pk for _ in range(27)]
    first = alice_client.get(reverse("grader:list")).content.decode()
    assert f"#{ids[-1]}</a>" in first and f"#{ids[0]}</a>" not in first
    assert "Page 1 of 2" in first and "Wrong answer" in first
    second = alice_client.get(reverse("grader:list") + "?page=2").content.decode()
    assert f"#{ids[0]}</a>" in second


def test_instructor_list_of_everyone(problem, alice, instructor, make_submission):
    """Instructors can list every user's submissions with ?all=1."""
    submission = make_submission(alice, problem)
    client = Client()
    client.force_login(instructor)
    html = client.get(reverse("grader:list") + "?all=1").content.decode()
    assert f"#{submission.pk}</a>" in html and "alice" in html


def _calculator(request):
    from django.http import HttpResponse

    return HttpResponse("calculator")


calculator_patterns = ([path("calculator/", _calculator, name="calculator")], "practice")
urlpatterns = [path("practice/", include(calculator_patterns)),
               *[p for p in __import__("config.urls", fromlist=["urlpatterns"]).urlpatterns
                 if getattr(p, "namespace", None) != "practice"]]


@override_settings(ROOT_URLCONF=__name__)
def test_resources_link_to_prefilled_calculator(problem, alice, alice_client, make_submission):
    """Known resources link to the occupancy calculator with cc, threads, registers and shared memory."""
    submission = make_submission(alice, problem, graded_result())
    html = alice_client.get(submission.get_absolute_url()).content.decode()
    assert "/practice/calculator/?cc=8.6&amp;threads=256&amp;regs=32&amp;smem=1024" in html


def test_submission_keeps_problem_version(problem, alice, alice_client, make_submission):
    """A submission records the version it was made against."""
    submission = make_submission(alice, problem)
    assert Submission.objects.get(pk=submission.pk).problem_version_id == problem.current_version_id



def test_check_pass_says_what_it_checks_and_on_which_test(alice, alice_client, make_submission):
    """During the check pass the card names the checks and the test, instead of 'Running test 2 of 2'
    beside '2 of 2 tests finished'."""
    from tests.packages import PROBLEM_YAML, tiny_package_files

    from .conftest import import_files

    yaml = PROBLEM_YAML.replace("slug: tiny-add", "slug: tiny-checked") + "checks: [racecheck, synccheck]\n"
    checked = import_files(tiny_package_files(**{"problem.yaml": yaml}))
    submission = make_submission(alice, checked)
    grader_grading.start_grading(submission.pk, "dummy")
    grader_grading.record_progress(submission.pk, "checking", 2, 2)
    assert Submission.objects.get(pk=submission.pk).status == "CHECKING"
    html = alice_client.get(live_url(submission)).content.decode()
    assert "Checking for races and divergent barriers on test small…" in html
    assert "All 2 tests finished; one more run checks the kernel." in html
    assert "Running test" not in html and "2 of 2 tests finished" not in html
    assert 'hx-trigger="every 0.25s"' in html  # just sent: the fast start
