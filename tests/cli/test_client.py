"""The student CLI against a fake API on a local HTTP server: login and the token file, problems, get,
submit --watch with its live status, the verdict's diagnostics and the exit codes, errors, Korean."""
from __future__ import annotations

import json
import stat
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from warpdrill_cli import config
from warpdrill_cli.client import ApiError, Client, NetworkError, normalise_url
from warpdrill_cli.i18n import language
from warpdrill_cli.main import (EXIT_ACCEPTED, EXIT_AUTH, EXIT_COMPILE_ERROR, EXIT_NETWORK, EXIT_PENDING,
                                EXIT_PLATFORM, EXIT_REFUSED, EXIT_REJECTED, EXIT_USAGE)

TOKEN = "0123456789abcdef0123456789abcdef01234567"
PROBLEM = {"slug": "tiny-add", "title": "Tiny add", "topic": "basics", "difficulty": 1, "version": 1,
           "kernel": "__global__ void add(const float* a, const float* b, float* c, int n)",
           "student_chooses_launch": False, "language": "en", "statement": "Add two vectors.\n",
           "starter": "__global__ void add(const float* a, const float* b, float* c, int n) {\n}\n",
           "launch": {"block": "256", "grid": "ceil_div(n, 256)", "shared_bytes": "0"}, "time_limit_s": 2.0,
           "sample_tests": [{"name": "small", "params": {"n": 5}}]}
WRONG = {"status": "GRADED", "verdict": "WRONG_ANSWER", "message": "Test small: c differs.",
         "tests": [{"name": "small", "sample": True, "verdict": "WRONG_ANSWER", "time_s": 0.012, "message": "",
                    "mismatch": {"output": "c", "index": [0], "expected": "3", "got": "-1", "count": 5,
                                 "allowed": "1.0e-05", "error": "4.0e+00"}, "output_log": "hello from 0\n"},
                   {"name": "tail", "sample": False, "verdict": "WRONG_ANSWER", "time_s": 0.02}],
         "diagnostics": [{"kind": "out_of_bounds", "line": 3, "test": "small",
                          "message": "Thread (5,0,0) wrote c[5], past its 5 elements."}],
         "compile": {"ok": True, "messages": [], "log": ""}}
COMPILE = {"status": "GRADED", "verdict": "COMPILE_ERROR", "message": "", "tests": [], "diagnostics": [],
           "compile": {"ok": False, "log": "...", "messages": [
               {"line": 2, "column": 46, "severity": "error", "message": "expected ';' before 'if'"}]}}


class FakeSite:
    """A WarpDrill API double: records requests; `submissions` says which JSON each poll returns."""

    def __init__(self):
        self.requests: list[dict] = []
        self.polls: list[dict] = []  # the answers to successive GETs of the submission (last one repeats)
        self.submit_answer: tuple[int, dict, dict] | None = None
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                site.handle(self, "GET")

            def do_POST(self):
                site.handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def handle(self, h: BaseHTTPRequestHandler, method: str):
        length = int(h.headers.get("Content-Length") or 0)
        body = json.loads(h.rfile.read(length)) if length else None
        self.requests.append({"method": method, "path": h.path, "body": body, "headers": dict(h.headers.items())})
        status, data, headers = self.route(h, method, body)
        raw = b"" if status == 304 else json.dumps(data).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(raw)))
        for key, value in headers.items():
            h.send_header(key, value)
        h.end_headers()
        h.wfile.write(raw)

    def route(self, h, method, body):
        if h.path == "/api/v1/token" and method == "POST":
            if body == {"username": "alice", "password": "pass-1234-word"}:
                return 200, {"token": TOKEN}, {}
            return 400, {"error": "Unable to log in with provided credentials."}, {}
        if h.headers.get("Authorization") != f"Token {TOKEN}":
            return 401, {"error": "Invalid token."}, {"WWW-Authenticate": "Token"}
        if h.path == "/api/v1/problems":
            return 200, {"problems": [{k: PROBLEM[k] for k in ("slug", "title", "topic", "difficulty")},
                                      {"slug": "tile-sum", "title": "타일 합", "topic": "shared", "difficulty": 3}]}, {}
        if h.path == "/api/v1/problems/tiny-add":
            return 200, PROBLEM, {}
        if h.path == "/api/v1/problems/tiny-add/submissions" and method == "POST":
            if self.submit_answer:
                return self.submit_answer
            return 201, {"id": 7, "url": f"{self.url}/api/v1/submissions/7", "html_url": f"{self.url}/submissions/7/",
                         "status": "QUEUED", "problem": "tiny-add"}, {}
        if h.path == "/api/v1/submissions/7":
            answer = self.polls.pop(0) if len(self.polls) > 1 else self.polls[0]
            etag = f'"{answer["status"]}-{answer.get("verdict")}"'
            if h.headers.get("If-None-Match") == etag:
                return 304, None, {"ETag": etag}
            return 200, {"id": 7, "html_url": f"{self.url}/submissions/7/", **answer}, {"ETag": etag}
        return 404, {"error": "Not found."}, {}

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def site():
    fake = FakeSite()
    yield fake
    fake.stop()


@pytest.fixture
def logged_in(site):
    config.save(config.Config(url=site.url, token=TOKEN, username="alice"))
    return site


def test_login_stores_the_token_with_mode_0600(site, warpdrill, config_home):
    """login asks for the username and password, gets a token and writes it readable by the user only."""
    run = warpdrill("login", site.url + "/", stdin="alice\n")
    assert run.code == EXIT_ACCEPTED, run
    assert site.requests[0]["body"] == {"username": "alice", "password": "pass-1234-word"}
    path = config_home / "config.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(config_home.stat().st_mode) == 0o700
    assert json.loads(path.read_text()) == {"url": site.url, "token": TOKEN, "username": "alice"}
    assert str(path) in run.out


def test_login_tightens_an_old_loose_file_and_reads_the_password_from_stdin(site, warpdrill, config_home):
    config_home.mkdir(parents=True)
    (config_home / "config.json").write_text("{}")
    (config_home / "config.json").chmod(0o644)
    run = warpdrill("login", site.url, "--username", "alice", "--password-stdin", stdin="pass-1234-word\n",
                    password="not-this-one")
    assert run.code == EXIT_ACCEPTED, run
    assert stat.S_IMODE((config_home / "config.json").stat().st_mode) == 0o600
    assert config.load().token == TOKEN


def test_wrong_password_is_exit_4_and_stores_nothing(site, warpdrill, config_home):
    run = warpdrill("login", site.url, "-u", "alice", password="wrong")
    assert run.code == EXIT_AUTH
    assert "Unable to log in" in run.err
    assert not (config_home / "config.json").exists()


def test_commands_without_a_login_or_with_a_refused_token_are_exit_4(site, warpdrill):
    assert warpdrill("problems").code == EXIT_AUTH
    config.save(config.Config(url=site.url, token="stale"))
    run = warpdrill("problems")
    assert run.code == EXIT_AUTH and "Invalid token." in run.err and "login" in run.err


def test_problems_lists_slugs_and_titles(logged_in, warpdrill):
    run = warpdrill("problems")
    assert run.code == EXIT_ACCEPTED
    lines = run.out.splitlines()
    assert lines[0].split()[:2] == ["slug", "title"]
    assert lines[1].startswith("tiny-add") and "Tiny add" in lines[1]
    assert "타일 합" in lines[2]
    # Hangul takes two columns: the topic column starts at the same terminal column on every row.
    before_shared = lines[2][:lines[2].index("shared")]
    assert lines[1].index("basics") == len(before_shared) + sum(1 for ch in before_shared if "가" <= ch <= "힣")
    assert logged_in.requests[0]["headers"]["Accept-Language"] == "en"


def test_get_writes_the_statement_and_starter_and_keeps_a_students_kernel(logged_in, warpdrill, tmp_path):
    folder = tmp_path / "work"
    run = warpdrill("get", "tiny-add", "--dir", str(folder))
    assert run.code == EXIT_ACCEPTED, run
    assert (folder / "kernel.cu").read_text() == PROBLEM["starter"]
    statement = (folder / "statement.md").read_text()
    assert statement.startswith("# Tiny add\n") and "Add two vectors." in statement and PROBLEM["kernel"] in statement
    (folder / "kernel.cu").write_text("// my work\n")
    run = warpdrill("get", "tiny-add", "--dir", str(folder))
    assert (folder / "kernel.cu").read_text() == "// my work\n" and "--force" in run.out
    warpdrill("get", "tiny-add", "--dir", str(folder), "--force")
    assert (folder / "kernel.cu").read_text() == PROBLEM["starter"]


def test_get_of_an_unknown_problem_is_exit_6(logged_in, warpdrill, tmp_path):
    run = warpdrill("get", "nope", "--dir", str(tmp_path / "x"))
    assert run.code == EXIT_REFUSED and "404" in run.err and "Not found." in run.err
    assert not (tmp_path / "x").exists()


@pytest.fixture
def kernel(tmp_path):
    path = tmp_path / "kernel.cu"
    path.write_text(PROBLEM["starter"])
    return path


def test_submit_watch_shows_each_status_then_the_verdict_and_exits_0_when_accepted(logged_in, warpdrill, kernel):
    logged_in.polls = [{"status": "QUEUED"}, {"status": "QUEUED"}, {"status": "RUNNING", "progress": {"done": 1, "total": 2}},
                       {"status": "GRADED", "verdict": "ACCEPTED", "message": "", "tests": [
                           {"name": "small", "sample": True, "verdict": "ACCEPTED", "time_s": 0.01}]}]
    run = warpdrill("submit", "tiny-add", str(kernel), "--watch", "--block", "128")
    assert run.code == EXIT_ACCEPTED, run
    post = [r for r in logged_in.requests if r["method"] == "POST"][0]
    assert post["body"] == {"source": PROBLEM["starter"], "launch": {"block": "128"}}
    lines = run.out.splitlines()
    assert lines[0].startswith("Submitted #7 (tiny-add)")
    assert lines[1:4] == ["Queued", "Running (1/2 tests)", "Verdict: Accepted"]  # a repeated status is shown once
    assert "  small (sample): Accepted  0.010 s" in lines
    polls = [r for r in logged_in.requests if r["path"] == "/api/v1/submissions/7"]
    assert polls[1]["headers"].get("If-None-Match") == '"QUEUED-None"'  # a conditional GET: the server's 304


@pytest.mark.parametrize("answer, code", [(WRONG, EXIT_REJECTED), (COMPILE, EXIT_COMPILE_ERROR),
                                          ({"status": "GRADED", "verdict": "INTERNAL_ERROR"}, EXIT_PLATFORM),
                                          ({"status": "GRADED", "verdict": "TIME_LIMIT"}, EXIT_REJECTED)])
def test_every_verdict_but_accepted_is_a_non_zero_exit(logged_in, warpdrill, kernel, answer, code):
    logged_in.polls = [answer]
    assert warpdrill("submit", "tiny-add", str(kernel), "--watch").code == code


def test_the_verdict_shows_mismatch_printf_diagnostics_and_hidden_tests(logged_in, warpdrill, kernel):
    logged_in.polls = [WRONG]
    out = warpdrill("submit", "tiny-add", str(kernel), "--watch").out
    assert "Verdict: Wrong answer" in out and "Test small: c differs." in out
    assert "    c[0]: expected 3, got -1 (5 elements differ)" in out
    assert "    difference 4.0e+00, allowed 1.0e-05" in out and "hello from 0" in out
    assert "  tail (hidden): Wrong answer" in out
    assert "  [Out of bounds] (line 3, test small) Thread (5,0,0) wrote c[5], past its 5 elements." in out
    assert f"Details: {logged_in.url}/submissions/7/" in out


def test_a_compile_error_shows_the_compilers_line_and_column(logged_in, warpdrill, kernel):
    logged_in.polls = [COMPILE]
    out = warpdrill("submit", "tiny-add", str(kernel), "--watch").out
    assert "Compiler:\n  2:46: error: expected ';' before 'if'" in out


def test_korean_output_and_accept_language(logged_in, warpdrill, kernel):
    logged_in.polls = [WRONG]
    run = warpdrill("submit", "tiny-add", str(kernel), "--watch", lang="ko")
    assert run.code == EXIT_REJECTED
    assert "결과: 오답" in run.out and "c[0]: 기댓값 3, 결과 -1 (다른 원소 5개)" in run.out
    assert "[범위 밖 접근] (3번째 줄, 테스트 small)" in run.out and "tail (숨김): 오답" in run.out
    assert all(r["headers"]["Accept-Language"] == "ko" for r in logged_in.requests)


def test_submit_without_watch_is_exit_8_and_a_timeout_too(logged_in, warpdrill, kernel, monkeypatch):
    logged_in.polls = [{"status": "QUEUED"}]
    run = warpdrill("submit", "tiny-add", str(kernel))
    assert run.code == EXIT_PENDING and "status 7 --watch" in run.out
    run = warpdrill("submit", "tiny-add", str(kernel), "--watch", "--timeout", "0")
    assert run.code == EXIT_PENDING and "No verdict after 0 s" in run.out


def test_status_reads_a_graded_submission(logged_in, warpdrill):
    logged_in.polls = [WRONG]
    run = warpdrill("status", "7")
    assert run.code == EXIT_REJECTED and "Verdict: Wrong answer" in run.out


def test_a_refusal_is_exit_6_with_the_reason_and_retry_after(logged_in, warpdrill, kernel):
    logged_in.submit_answer = (429, {"error": "Too many submissions."}, {"Retry-After": "30"})
    run = warpdrill("submit", "tiny-add", str(kernel), "--watch")
    assert run.code == EXIT_REFUSED
    assert "HTTP 429" in run.err and "Too many submissions." in run.err and "30 s" in run.err


def test_a_missing_file_is_exit_2_and_sends_nothing(logged_in, warpdrill, tmp_path):
    run = warpdrill("submit", "tiny-add", str(tmp_path / "none.cu"), "--watch")
    assert run.code == EXIT_USAGE and "none.cu" in run.err
    assert logged_in.requests == []


def test_an_unreachable_site_is_exit_5(warpdrill, site):
    url = site.url
    site.stop()
    config.save(config.Config(url=url, token=TOKEN))
    run = warpdrill("problems")
    assert run.code == EXIT_NETWORK and "Cannot reach the site" in run.err


def test_a_page_that_is_not_the_api_is_a_network_error(site):
    class HTML(Client):
        pass

    client = HTML(site.url)
    with pytest.raises(ApiError) as err:
        client.problems()  # no token: the fake answers 401 JSON
    assert err.value.status == 401 and err.value.message == "Invalid token."
    with pytest.raises(NetworkError):
        Client("http://127.0.0.1:9").problems()


@pytest.mark.parametrize("typed, url", [
    ("warpdrill.example.edu", "https://warpdrill.example.edu"),
    ("localhost:8000/", "http://localhost:8000"),
    ("http://127.0.0.1:8000/api/v1/", "http://127.0.0.1:8000"),
    ("https://uni.example/warpdrill/", "https://uni.example/warpdrill"),
])
def test_normalise_url(typed, url):
    assert normalise_url(typed) == url


def test_normalise_url_refuses_other_schemes():
    with pytest.raises(ValueError):
        normalise_url("ftp://example.com")


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "ko_KR.UTF-8"}, "ko"), ({"LANG": "en_US.UTF-8"}, "en"), ({}, "en"),
    ({"LC_ALL": "C.UTF-8", "LANG": "ko_KR.UTF-8"}, "en"), ({"LC_MESSAGES": "ko_KR", "LANG": "C"}, "ko"),
    ({"WARPDRILL_LANG": "ko", "LC_ALL": "C"}, "ko"),
])
def test_language_from_the_environment(env, lang):
    assert language(env) == lang


def test_the_cli_needs_only_the_standard_library():
    """cli/pyproject.toml declares no dependency: every import of the package is the standard library's
    or its own."""
    import ast
    import sys
    from pathlib import Path

    import warpdrill_cli

    for path in Path(warpdrill_cli.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "warpdrill_cli", (path.name, name)
    assert "dependencies = []" in (Path(warpdrill_cli.__file__).parent.parent / "pyproject.toml").read_text()


def test_submit_names_the_course_when_asked(logged_in, warpdrill, kernel):
    """--course sends the course's code (a bank problem is graded for its target GPU); without it, none."""
    logged_in.polls = [{"status": "QUEUED"}]
    warpdrill("submit", "tiny-add", str(kernel), "--course", "PP-A")
    warpdrill("submit", "tiny-add", str(kernel))
    posts = [r["body"] for r in logged_in.requests if r["method"] == "POST"]
    assert posts == [{"source": PROBLEM["starter"], "course": "PP-A"}, {"source": PROBLEM["starter"]}]
