"""The problem list and the problem page: statement, editor, submitting, errors that keep the source."""
import html as html_lib

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from grader.core.verdicts import Verdict
from grader.models import Status, Submission

from .conftest import SOLUTION_MARKER, SOURCE, graded_result

pytestmark = pytest.mark.django_db


def detail_url(problem):
    return reverse("problems:detail", args=[problem.slug])


def test_list_groups_by_topic_with_difficulty(problem, choose_problem):
    """The list shows every published problem under its topic heading with its difficulty."""
    html = Client().get("/").content.decode()
    assert "Thread indexing" in html
    assert "Tiny add" in html and "Tiny add with your launch" in html
    assert "Difficulty 1 of 5" in html and "Difficulty 2 of 5" in html
    assert detail_url(problem) in html
    korean = Client().get("/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "Thread indexing (인덱스 계산)" in korean


def test_list_shows_student_status_new_tried_solved(problem, choose_problem, alice, alice_client, make_submission):
    """A student sees 'solved' where a submission was ACCEPTED, 'tried' where graded otherwise, 'new' elsewhere."""
    make_submission(alice, problem, graded_result())  # WRONG_ANSWER
    html = alice_client.get("/").content.decode()
    assert "status-tried" in html and "status-new" in html and "status-solved" not in html
    accepted = graded_result()
    accepted.verdict = Verdict.ACCEPTED
    make_submission(alice, problem, accepted)
    html = alice_client.get("/").content.decode()
    assert "status-solved" in html and "status-tried" not in html


def test_unpublished_problem_is_hidden(problem):
    """An unpublished problem is neither listed nor reachable."""
    problem.is_published = False
    problem.save()
    assert "Tiny add" not in Client().get("/").content.decode()
    assert Client().get(detail_url(problem)).status_code == 404


def test_detail_renders_statement_signature_samples_and_starter(problem, alice_client):
    """The page has the statement with math marked for KaTeX, the kernel signature, sample sizes and the starter."""
    response = alice_client.get(detail_url(problem))
    html = response.content.decode()
    assert response.status_code == 200
    assert '<span class="math inline">\\(c_i = a_i + b_i\\)</span>' in html
    assert "__global__ void add(const float* a, const float* b, float* c, int n)" in html
    assert "n = 5" in html  # the sample test's size
    assert "n = 1025" not in html  # the hidden test's size is not shown
    assert "and 1 hidden test" in html
    assert 'name="source"' in html and "__global__ void add(const float* a, const float* b, float* c, int n) {\n}" in html
    assert "build/editor.js" in html


def test_detail_never_shows_solution_harness_or_wrong_solutions(problem, alice_client):
    """Reference solution, wrong solutions and the harness never reach the page."""
    html = alice_client.get(detail_url(problem)).content.decode()
    assert SOLUTION_MARKER not in html
    assert "a[i] - b[i]" not in html  # wrong/subtracts.cu
    assert "def generate" not in html and "standard_normal" not in html


def test_detail_in_korean_uses_korean_statement(problem, alice_client):
    """With the UI in Korean, the Korean statement is shown (and the Korean title)."""
    alice_client.cookies["django_language"] = "ko"
    html = alice_client.get(detail_url(problem), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "두 벡터를 더하세요" in html
    assert "작은 덧셈" in html


def test_logged_out_sees_statement_and_login_prompt(problem):
    """A visitor reads the statement and is invited to log in; there is no editor form."""
    html = Client().get(detail_url(problem)).content.decode()
    assert "Add two vectors" in html
    assert "Log in to submit" in html
    assert 'name="source"' not in html


def test_logged_out_post_redirects_to_login(problem):
    """Posting without a session goes to the login page and saves nothing."""
    response = Client().post(detail_url(problem), {"source": SOURCE})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not Submission.objects.exists()


def test_editor_starts_from_last_submission(problem, alice, alice_client, make_submission):
    """After a submission, the editor opens with that source instead of the starter."""
    make_submission(alice, problem, source=SOURCE.replace("i <= n", "i < n /* latest */"))
    html = alice_client.get(detail_url(problem)).content.decode()
    assert "/* latest */" in html


def test_submit_saves_enqueues_and_redirects(problem, alice, alice_client, sent_tasks):
    """A valid POST saves a QUEUED submission, enqueues grading once after commit and redirects to its page."""
    with sent_tasks.until_commit():
        response = alice_client.post(detail_url(problem), {"source": SOURCE})
    assert sent_tasks == []
    submission = Submission.objects.get()
    assert response.status_code == 302 and response["Location"] == submission.get_absolute_url()
    assert submission.user == alice and submission.status == Status.QUEUED and submission.source == SOURCE
    assert submission.problem_version == problem.current_version
    assert sent_tasks.commit() == [submission.pk]  # the commit: the live-status cache is renewed and the task is sent


def test_submit_grades_through_queue_eagerly(problem, alice_client, dummy_eager, django_capture_on_commit_callbacks):
    """With an eager queue and the dummy backend, the submission is graded by the time the page loads."""
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post(detail_url(problem), {"source": SOURCE})
    submission = Submission.objects.get()
    assert submission.status == Status.GRADED and submission.verdict
    assert submission.backend == "dummy"
    assert 'id="submission-verdict"' in alice_client.get(submission.get_absolute_url()).content.decode()


@override_settings(WARPDRILL_MAX_SOURCE_BYTES=200)
def test_too_large_source_is_refused_and_kept(problem, alice_client):
    """A source over the size limit is refused with a clear message; the text comes back in the form."""
    big = SOURCE + "// " + "x" * 300 + "\n"
    response = alice_client.post(detail_url(problem), {"source": big})
    html = response.content.decode()
    assert response.status_code == 400
    assert "larger than" in html and 'role="alert"' in html
    assert "x" * 300 in html
    assert not Submission.objects.exists()


def test_empty_source_is_refused(problem, alice_client):
    """An empty source is a clear error, not a submission."""
    response = alice_client.post(detail_url(problem), {"source": "   "})
    assert response.status_code == 400 and "empty" in response.content.decode()
    assert not Submission.objects.exists()


@override_settings(WARPDRILL_SUBMISSIONS_PER_MINUTE=1)
def test_rate_limit_message_keeps_source(problem, alice, alice_client, make_submission):
    """Past the per-minute limit the student gets a 429 page that says to wait, with the source kept."""
    make_submission(alice, problem)
    kept = SOURCE.replace("i <= n", "i < n /* kept */")
    response = alice_client.post(detail_url(problem), {"source": kept})
    html = response.content.decode()
    assert response.status_code == 429
    assert "a minute" in html
    assert "/* kept */" in html
    assert Submission.objects.count() == 1


def test_launch_inputs_show_the_package_launch_as_placeholders(choose_problem, alice_client):
    """When the student chooses the launch, block/grid/shared inputs are shown empty, with the
    package's launch as placeholders, so that a `// launch:` line in the source can apply."""
    html = alice_client.get(detail_url(choose_problem)).content.decode()
    assert 'name="block" value="" placeholder="128"' in html
    assert 'name="grid" value="" placeholder="ceil_div(n, 128)"' in html
    assert 'name="shared_bytes" value="" placeholder="0"' in html


def test_a_launch_comment_applies_when_the_fields_are_left_empty(choose_problem, alice, alice_client):
    """The page's form as first shown (empty fields) plus a `// launch:` line: the comment's launch
    is the one graded, the submission page shows it, and the next visit keeps the fields empty."""
    from grader.core.judge import LaunchChoice, launch_expressions
    from grader.models import Submission

    source = "// launch: block=64 grid=ceil_div(n, 64)\n__global__ void k() {}\n"
    response = alice_client.post(detail_url(choose_problem), {"source": source, "block": "", "grid": "",
                                                               "shared_bytes": ""})
    assert response.status_code in (200, 302)
    submission = Submission.objects.get(user=alice)
    choice = LaunchChoice(submission.launch_block, submission.launch_grid, submission.launch_shared_bytes)
    package = choose_problem.current_version.package()
    assert launch_expressions(package, submission.source, choice)[:2] == ("64", "ceil_div(n, 64)")
    page = alice_client.get(submission.get_absolute_url()).content.decode()
    assert "&lt;&lt;&lt;ceil_div(n, 64), 64&gt;&gt;&gt;" in page
    html = alice_client.get(detail_url(choose_problem)).content.decode()
    assert 'name="block" value="" placeholder="128"' in html


def test_fields_of_an_earlier_submission_are_not_carried_over(choose_problem, alice, alice_client):
    """After a submission through the fields, the next visit shows them empty again: carried-over
    fields would silently override a `// launch:` line written later. Its page shows the fields' launch."""
    from grader.models import Submission

    alice_client.post(detail_url(choose_problem), {"source": "__global__ void k() {}\n", "block": "32",
                                                    "grid": "ceil_div(n, 32)", "shared_bytes": ""})
    html = alice_client.get(detail_url(choose_problem)).content.decode()
    assert 'name="block" value="" placeholder="128"' in html and 'name="grid" value="" placeholder=' in html
    page = alice_client.get(Submission.objects.get(user=alice).get_absolute_url()).content.decode()
    assert "&lt;&lt;&lt;ceil_div(n, 32), 32&gt;&gt;&gt;" in page


def test_fixed_launch_has_no_inputs(problem, alice_client):
    """A fixed launch is shown as text, without inputs."""
    html = alice_client.get(detail_url(problem)).content.decode()
    assert 'name="block"' not in html
    assert "&lt;&lt;&lt;ceil_div(n, 256), 256&gt;&gt;&gt;" in html


def test_bad_launch_expression_is_refused_and_everything_kept(choose_problem, alice_client):
    """A launch expression that cannot be evaluated is a 400 naming the field; source and launch are kept."""
    response = alice_client.post(detail_url(choose_problem), {
        "source": SOURCE, "block": "256", "grid": "ceil_div(m, 256)", "shared_bytes": "0"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "Launch configuration" in html and "unknown name" in html
    assert 'name="grid" value="ceil_div(m, 256)"' in html
    assert "i &lt;= n" in html  # the source, escaped in the textarea
    assert not Submission.objects.exists()


def test_student_launch_is_stored(choose_problem, alice_client, django_capture_on_commit_callbacks):
    """The chosen launch expressions are saved with the submission."""
    with django_capture_on_commit_callbacks(execute=False):
        alice_client.post(detail_url(choose_problem), {"source": SOURCE, "block": "64", "grid": "ceil_div(n, 64)",
                                                       "shared_bytes": "256"})
    submission = Submission.objects.get()
    assert (submission.launch_block, submission.launch_grid, submission.launch_shared_bytes) == \
        ("64", "ceil_div(n, 64)", "256")


def test_bad_launch_expression_is_explained_in_korean(choose_problem, alice_client):
    """The refusal's reason is a message template: a Korean reader gets it in Korean, not English inside Korean."""
    alice_client.cookies["django_language"] = "ko"
    response = alice_client.post(detail_url(choose_problem), {
        "source": SOURCE, "block": "256", "grid": "ceil_div(m, 256)", "shared_bytes": "0"}, HTTP_ACCEPT_LANGUAGE="ko")
    html = html_lib.unescape(response.content.decode())
    assert response.status_code == 400
    assert "실행 구성:" in html and "알 수 없는 이름 'm'" in html
    assert "unknown name" not in html


def test_edit_and_resubmit_reopens_the_source_and_launch_it_was_graded_with(choose_problem, alice, alice_client):
    """'Edit and resubmit' links to the problem page with ?from=<id>: the editor holds that
    submission's source and the launch fields its stored launch, with a note that they beat a
    `// launch:` line; posting the page unchanged is graded with the same launch."""
    from grader.views import launch_used

    source = "__global__ void k(float* c, int n) { c[blockIdx.x * 128 + threadIdx.x] = 1; } // first\n"
    alice_client.post(detail_url(choose_problem), {"source": source, "block": "128", "grid": "ceil_div(n, 128)",
                                                    "shared_bytes": ""})
    first = Submission.objects.get(user=alice)
    alice_client.post(detail_url(choose_problem), {"source": "__global__ void k() {} // later\n"})
    page = alice_client.get(first.get_absolute_url()).content.decode()
    assert f'href="{detail_url(choose_problem)}?from={first.pk}#submit-form"' in page

    response = alice_client.get(detail_url(choose_problem), {"from": first.pk})
    html = response.content.decode()
    assert response.status_code == 200
    assert "// first" in html and "// later" not in html
    assert 'name="block" value="128" placeholder="128"' in html
    assert 'name="grid" value="ceil_div(n, 128)" placeholder=' in html
    assert 'name="shared_bytes" value="" placeholder="0"' in html
    assert 'id="launch-from-submission"' in html and f"submission #{first.pk}" in html

    # Submitting the reopened form unchanged: the same launch as the first time.
    alice_client.post(detail_url(choose_problem), {"source": source, "block": "128", "grid": "ceil_div(n, 128)",
                                                    "shared_bytes": ""})
    again = Submission.objects.filter(user=alice).first()
    assert again.pk != first.pk and launch_used(again) == launch_used(first)

    # A plain visit keeps today's behaviour: the latest source, empty fields, no note.
    html = alice_client.get(detail_url(choose_problem)).content.decode()
    assert 'name="block" value="" placeholder="128"' in html and 'id="launch-from-submission"' not in html


def test_reopening_a_submission_graded_by_its_launch_comment_leaves_the_fields_empty(choose_problem, alice,
                                                                                     alice_client):
    """A submission graded by its `// launch:` line (fields empty) reopens with empty fields and no
    note: the line in the source applies again, as it did."""
    source = "// launch: block=64 grid=ceil_div(n, 64)\n__global__ void k() {}\n"
    alice_client.post(detail_url(choose_problem), {"source": source, "block": "", "grid": "", "shared_bytes": ""})
    first = Submission.objects.get(user=alice)
    html = alice_client.get(detail_url(choose_problem), {"from": first.pk}).content.decode()
    assert "// launch: block=64" in html
    assert 'name="block" value="" placeholder="128"' in html and 'id="launch-from-submission"' not in html


@pytest.mark.parametrize("param", ["other-user", "other-problem", "not-a-number", "²", "9" * 40])
def test_from_anything_but_an_own_submission_of_this_problem_is_ignored(param, problem, choose_problem, alice,
                                                                        bob, alice_client, make_submission):
    """?from= naming bob's submission (or one of another problem, or nonsense) shows alice the page
    of a plain visit: her own latest source, empty fields, nothing of bob's."""
    bobs = make_submission(bob, choose_problem, source=SOURCE.replace("i <= n", "i < n /* bob-secret */"))
    Submission.objects.filter(pk=bobs.pk).update(launch_block="bob_block", launch_grid="bob_grid")
    other = make_submission(alice, problem, source=SOURCE.replace("i <= n", "i < n /* other-problem */"))
    make_submission(alice, choose_problem, source=SOURCE.replace("i <= n", "i < n /* alice-latest */"))
    value = {"other-user": str(bobs.pk), "other-problem": str(other.pk)}.get(param, param)

    response = alice_client.get(detail_url(choose_problem), {"from": value})
    html = response.content.decode()
    assert response.status_code == 200
    assert "/* alice-latest */" in html
    assert "bob-secret" not in html and "other-problem" not in html and "bob_block" not in html
    assert 'name="block" value="" placeholder="128"' in html and 'id="launch-from-submission"' not in html


def test_problem_form_carries_the_draft_key_and_a_hidden_notice(choose_problem, alice, alice_client):
    """The browser keeps an unsent draft under the user and the problem; the restore notice and its
    discard button are rendered by the server (in the reader's language) and hidden until a draft
    is restored; a refused submit marks the re-rendered text as unsent."""
    html = alice_client.get(detail_url(choose_problem)).content.decode()
    assert f'data-draft-key="{alice.pk}:{choose_problem.slug}"' in html
    assert 'id="draft-notice" role="status" hidden' in html and 'id="draft-discard"' in html
    assert "data-draft-unsent" not in html
    refused = alice_client.post(detail_url(choose_problem), {"source": "   "}).content.decode()
    assert "data-draft-unsent" in refused


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_recent_submissions_say_when_in_the_one_format(problem, alice, alice_client, make_submission, lang):
    """The problem page's recent list writes a submission's time as every page does, "2026-12-05 20:08 UTC"
    (it said "just now" and "5 minutes ago")."""
    from accounts.core.times import format_when, zone_named
    from tests.timestamps import stamps

    sub = make_submission(alice, problem)
    html = alice_client.get(detail_url(problem), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert format_when(sub.created_at, zone_named("UTC")) in stamps(html)
    assert "just now" not in html and "ago<" not in html


def test_a_plain_visit_says_which_launch_the_last_submission_chose(choose_problem, alice, alice_client):
    """The fields start empty even when the last submission filled them, so a resubmit from a plain
    visit would change the launch: the page says which launch that was, that the empty fields
    leave the problem's launch, and links to reopening it (?from=) with its launch."""
    url = detail_url(choose_problem)
    alice_client.post(url, {"source": "__global__ void k() {}\n", "block": "32", "grid": "ceil_div(n, 32)",
                            "shared_bytes": " "})
    last = Submission.objects.get(user=alice)
    html = alice_client.get(url).content.decode()
    assert 'name="block" value="" placeholder="128"' in html
    assert 'id="launch-from-last"' in html
    assert (f"Your last submission (#{last.pk}) used <code>block=32 grid=ceil_div(n, 32)</code>; these fields are "
            "empty, so the problem's launch applies unless you fill them.") in html
    assert f'<a href="{url}?from={last.pk}#submit-form">Reopen #{last.pk} with its launch</a>' in html

    korean = alice_client.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert f"마지막 제출(#{last.pk})의 실행 구성: <code>block=32 grid=ceil_div(n, 32)</code>." in korean
    assert f'<a href="{url}?from={last.pk}#submit-form">제출 #{last.pk}의 실행 구성으로 다시 열기</a>' in korean

    # Reopened, the fields hold that launch: no such note (the note of a reopened submission instead).
    reopened = alice_client.get(url, {"from": last.pk}).content.decode()
    assert 'id="launch-from-last"' not in reopened and 'id="launch-from-submission"' in reopened


def test_no_last_launch_note_when_the_last_submission_chose_none(choose_problem, problem, alice, alice_client):
    """No note when the last submission left the fields empty (its `// launch:` line, if any, is in
    the source and applies again), none before any submission, and none on a fixed-launch problem."""
    url = detail_url(choose_problem)
    assert 'id="launch-from-last"' not in alice_client.get(url).content.decode()
    alice_client.post(url, {"source": "// launch: block=64 grid=ceil_div(n, 64)\n__global__ void k() {}\n",
                            "block": "", "grid": "", "shared_bytes": ""})
    assert Submission.objects.filter(user=alice).count() == 1
    assert 'id="launch-from-last"' not in alice_client.get(url).content.decode()
    alice_client.post(detail_url(problem), {"source": SOURCE})
    assert 'id="launch-from-last"' not in alice_client.get(detail_url(problem)).content.decode()

