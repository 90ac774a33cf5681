"""Who may see a playground run: its owner; anyone signed in once it is shared, read-only; nobody
else (404, as for a missing key). Refused forms keep everything and cost a rate-limit slot."""
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from playground import actions
from playground.models import PlaygroundRun, RunState

pytestmark = pytest.mark.django_db

SOURCE = "__global__ void fill(int* out, int n) { int i = threadIdx.x; if (i < n) out[i] = i; }\n"
ROWS = [{"name": "out", "kind": "output", "dtype": "int32", "size": "8", "init": "zeros"},
        {"name": "n", "kind": "scalar", "dtype": "int32", "value": "8"}]


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def people():
    return User.objects.create_user("owner"), User.objects.create_user("other")


def post_data(**extra):
    data = {"source": SOURCE, "kernel": "", "grid": "1", "block": "8", "shared_bytes": ""}
    for i, row in enumerate(ROWS):
        data.update({f"arg-{i}-{k}": v for k, v in row.items()})
    data.update(extra)
    return data


def test_the_page_posts_a_run_that_only_its_owner_sees_until_shared(people):
    owner, other = people
    response = client_for(owner).post(reverse("playground:home"), post_data())
    run = PlaygroundRun.objects.get()
    assert response.status_code == 302 and response["Location"] == run.get_absolute_url()
    assert run.state == RunState.QUEUED and run.kernel == "fill" and run.args[0]["name"] == "out"
    assert client_for(owner).get(run.get_absolute_url()).status_code == 200
    for url in (run.get_absolute_url(), reverse("playground:run-live", args=[run.key]),
                reverse("playground:home") + f"?run={run.key}", reverse("api:playground-run", args=[run.key])):
        assert client_for(other).get(url).status_code == 404, url
    assert client_for(other).post(reverse("playground:run-share", args=[run.key]), {"shared": "1"}).status_code == 404
    run.refresh_from_db()
    assert not run.shared

    client_for(owner).post(reverse("playground:run-share", args=[run.key]), {"shared": "1"})
    run.refresh_from_db()
    assert run.shared
    page = client_for(other).get(run.get_absolute_url()).content.decode()
    assert "shared by owner" in page and 'id="playground-form"' not in page and "Open a copy" in page
    assert client_for(other).get(reverse("api:playground-run", args=[run.key])).json()["kernel"] == "fill"
    # Read-only: the shared run cannot be unshared by someone else, and a copy is the other's own run.
    assert client_for(other).post(reverse("playground:run-share", args=[run.key]), {"shared": "0"}).status_code == 404
    copy = client_for(other).get(reverse("playground:home") + f"?run={run.key}").content.decode()
    assert "void fill" in copy and 'id="playground-form"' in copy
    assert Client().get(run.get_absolute_url()).status_code == 302  # signed-out readers go to the login page


def test_a_refused_form_keeps_the_code_and_says_why_in_korean_too(people):
    owner, _ = people
    client = client_for(owner)
    response = client.post(reverse("playground:home"), post_data(**{"arg-0-size": "99999999"}))
    page = response.content.decode()
    assert response.status_code == 400 and "1 to 1048576" in page and "void fill" in page and "99999999" in page
    client.cookies["django_language"] = "ko"
    page = client.post(reverse("playground:home"), post_data(**{"arg-0-size": "99999999"})).content.decode()
    assert "인자 out: 원소 99999999개; 배열의 원소는 1개부터 1048576개까지입니다." in page and "실행 안 됨:" in page
    assert not PlaygroundRun.objects.exists()


def test_runs_and_submissions_share_the_rate_limit(people, settings):
    owner, _ = people
    settings.WARPDRILL_SUBMISSIONS_PER_MINUTE = 2
    for _ in range(2):
        actions.create_run(owner, SOURCE, "", ROWS, "1", "8")
    api = APIClient()
    api.force_authenticate(owner)
    response = api.post(reverse("api:playground-runs"),
                        {"source": SOURCE, "launch": {"grid": 1, "block": 8}, "args": ROWS}, format="json")
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    from grader.actions import RateLimitError, check_rate_limit

    with pytest.raises(RateLimitError):
        check_rate_limit(owner)  # a submission now would be refused too


def test_the_api_starts_a_run_and_names_the_bad_field(people):
    owner, other = people
    api = APIClient()
    api.force_authenticate(owner)
    response = api.post(reverse("api:playground-runs"),
                        {"source": SOURCE, "launch": {"grid": 1, "block": 8}, "args": ROWS}, format="json")
    assert response.status_code == 201 and response.json()["state"] == "QUEUED"
    key = response.json()["key"]
    assert api.get(reverse("api:playground-run", args=[key])).json()["args"][1]["value"] == "8"
    bad = api.post(reverse("api:playground-runs"), {"source": SOURCE, "args": [{"name": "out", "kind": "output",
                                                                                 "dtype": "complex128", "size": 4}]},
                   format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "args.0.dtype" and "complex128" in bad.json()["error"]
    assert api.post(reverse("api:playground-runs"), {"source": 5}, format="json").status_code == 400


def test_a_submission_opens_in_the_playground_with_its_problems_arguments(bank, people):
    from grader.models import Submission
    from problems.models import Problem

    owner, other = people
    problem = Problem.objects.get(slug="matrix-add-2d")
    submission = Submission.objects.create(user=owner, problem_version=problem.current_version,
                                           source="__global__ void matrix_add() {}")
    page = client_for(owner).get(reverse("playground:home") + f"?from={submission.pk}").content.decode()
    assert "Opened from submission" in page and 'value="matrix_add"' in page
    # The smallest sample test (ragged-both-ways: 17 x 15) gives the sizes; A and B start random with its seed.
    assert page.count('value="15x17"') == 3 and page.count('value="303"') == 2
    assert "smallest sample test, ragged-both-ways." in page
    assert client_for(other).get(reverse("playground:home") + f"?from={submission.pk}").status_code == 404
    detail = client_for(owner).get(submission.get_absolute_url()).content.decode()
    assert "try-in-playground" in detail


def test_a_student_never_gets_a_hidden_tests_sizes_in_the_playground_staff_do(bank, people):
    """matrix-add-2d's smallest test, one-column (1 x 20, seed 301), is hidden: the student's form holds
    none of its sizes, seed or grid, and says which sample test it took (English and Korean); an
    instructor's form opens with the hidden test itself and says it is hidden."""
    from django.contrib.auth.models import Group

    from grader.models import Submission
    from problems.models import Problem

    owner, _ = people
    problem = Problem.objects.get(slug="matrix-add-2d")
    submission = Submission.objects.create(user=owner, problem_version=problem.current_version,
                                           source="__global__ void matrix_add() {}")
    url = reverse("playground:home") + f"?from={submission.pk}"
    student = client_for(owner)
    page = student.get(url).content.decode()
    # ragged-both-ways: grid (ceil_div(17, 16), ceil_div(15, 16)) = (2, 1); one-column's would be (1, 2).
    assert 'value="15x17"' in page and 'name="grid" value="2"' in page
    for hidden in ('value="20x1"', 'value="301"', 'value="20"', 'value="1, 2"', "one-column"):
        assert hidden not in page
    student.cookies["django_language"] = "ko"
    korean = student.get(url).content.decode()
    assert "가장 작은 예시 테스트 ragged-both-ways의 실행 구성과 크기로 열었습니다" in korean
    assert 'value="20x1"' not in korean and 'value="301"' not in korean

    ivy = User.objects.create_user("ivy")
    ivy.groups.add(Group.objects.get_or_create(name="Instructor")[0])
    staff = client_for(ivy).get(url).content.decode()
    assert staff.count('value="20x1"') == 3 and staff.count('value="301"') == 2
    assert 'name="grid" value="1, 2"' in staff
    assert "smallest test, one-column: a hidden test, shown to staff only" in staff


def test_a_finished_run_shows_outputs_diagnostics_with_lines_and_printf_in_english_and_korean(people):
    from grader.core.results import Diagnostic
    from grader.core.verdicts import DiagnosticKind
    from playground.core.run import OutputPreview, PlaygroundResult

    owner, _ = people
    run = actions.create_run(owner, SOURCE + "// two\n// three\n", "", ROWS, "1", "8")
    race = Diagnostic(DiagnosticKind.RACE, "two threads write out[0]", line=1, block=(0, 0, 0), thread=(1, 0, 0),
                      detail={"other_line": 3})
    result = PlaygroundResult("ok", outputs=[OutputPreview("out", "int32", [8], [["0", "1", "2"]], [0], False, 2)],
                              diagnostics=[race], log="hello from thread 0\n", backend="emulator", time_s=0.01)
    actions.start_run(run.pk, "emulator")
    actions.finish_run(run.pk, result)
    client = client_for(owner)
    live = client.get(reverse("playground:run-live", args=[run.key])).content.decode()
    assert 'data-state="DONE"' in live and "hx-get" not in live  # final: the polling stops
    assert "1 diagnostic" in live and "two threads write out[0]" in live and "hello from thread 0" in live
    assert 'id="L1" class="marked"' in live and 'id="L3" class="marked"' in live and 'id="L2" class=""' in live
    assert "2 elements changed" in live and "<td class=\"num\">2</td>" in live
    client.cookies["django_language"] = "ko"
    korean = client.get(run.get_absolute_url()).content.decode()
    assert "진단 1개" in korean and "끝남" in korean and "원소 2개가 바뀜" in korean and "플레이그라운드" in korean


def test_the_live_part_answers_304_while_nothing_changed_and_never_for_someone_elses_run(people):
    owner, other = people
    run = actions.create_run(owner, SOURCE, "", ROWS, "1", "8")
    url = reverse("playground:run-live", args=[run.key])
    first = client_for(owner).get(url)
    assert first.status_code == 200 and first["ETag"]
    assert client_for(owner).get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client_for(other).get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 404
    actions.start_run(run.pk, "emulator")
    assert client_for(owner).get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200  # now COMPILING


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_api_gives_a_finished_runs_messages_in_the_requests_language(people, lang):
    """GET /api/v1/playground/runs/<key>: a finding's and a compiler message's "message" in the language of
    Accept-Language, their English "message_template" and "message_params" beside it, as the submission
    API gives them (the stored result keeps messages as codes and parameters)."""
    from grader.core import messages as M
    from grader.core.results import CompileMessage, CompileResult, Diagnostic
    from grader.core.verdicts import DiagnosticKind
    from playground.core.run import PlaygroundResult

    owner, _ = people
    run = actions.create_run(owner, SOURCE, "", ROWS, "1", "8")
    race = Diagnostic(DiagnosticKind.RACE, M.NOT_RUN_AFTER["DEADLOCK"](test="small"), line=1)
    warning = CompileMessage(1, None, "warning", M.COMPILATION_FAILED_AT(line=1))
    actions.start_run(run.pk, "emulator")
    actions.finish_run(run.pk, PlaygroundResult("ok", compile=CompileResult(ok=True, messages=[warning]),
                                                diagnostics=[race], backend="emulator"))
    client = APIClient()
    client.force_authenticate(owner)
    result = client.get(reverse("api:playground-run", args=[run.key]), HTTP_ACCEPT_LANGUAGE=lang).json()["result"]
    finding, message = result["diagnostics"][0], result["compile"]["messages"][0]
    assert finding["message_template"] == "Skipped because test %(test)s deadlocked."
    assert finding["message_params"] == {"test": "small"}
    english = {"en": True, "ko": False}[lang]
    assert (finding["message"] == "Skipped because test small deadlocked.") == english
    assert ("Compilation failed" in message["message"]) == english
    if lang == "ko":
        assert "small" in finding["message"] and any("\uac00" <= ch <= "\ud7a3" for ch in finding["message"])


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_apis_refusal_of_an_argument_is_in_the_requests_language(people, lang):
    """POST /api/v1/playground/runs with an array too large: a 400 naming the field, its text in the language
    of Accept-Language (as the page says it); nothing is saved."""
    owner, _ = people
    client = APIClient()
    client.force_authenticate(owner)
    body = {"source": SOURCE, "launch": {"grid": "1", "block": "8"},
            "args": [{"name": "out", "kind": "output", "dtype": "int32", "size": "99999999", "init": "zeros"},
                     {"name": "n", "kind": "scalar", "dtype": "int32", "value": "8"}]}
    response = client.post("/api/v1/playground/runs", body, format="json", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 400 and response.json()["field"] == "args.0.size"
    error = response.json()["error"]
    assert "99999999" in error
    assert any("\uac00" <= ch <= "\ud7a3" for ch in error) == (lang == "ko")
    assert not PlaygroundRun.objects.exists()
