"""The student CLI against the real site: Django's live server (real HTTP), the database, the broker and
a Celery worker process. A student logs in with a password, lists the problems, fetches one, and submits
a correct kernel (exit 0, ACCEPTED) and a wrong one (exit 1, WRONG_ANSWER with the sample's mismatch)."""
import json
import stat

import pytest

from problems.core.package import parse_package
from problems.services import import_package
from tests.packages import tiny_package_files
from warpdrill_cli.main import EXIT_ACCEPTED, EXIT_AUTH, EXIT_REJECTED

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    folder = tmp_path / "config" / "warpdrill"
    monkeypatch.setenv("WARPDRILL_CONFIG_DIR", str(folder))
    return folder


def run(*argv, stdin="", lang="en", password="pass-1234-word"):
    import io

    from warpdrill_cli.main import CLI, main

    out, err = io.StringIO(), io.StringIO()
    cli = CLI(stdout=out, stderr=err, stdin=io.StringIO(stdin), lang=lang, ask_password=lambda prompt: password)
    return main(list(argv), cli=cli), out.getvalue(), err.getvalue()


def test_login_get_and_submit_a_correct_and_a_wrong_kernel(live_server, make_student, celery_worker_process,
                                                           tmp_path, config_home):
    files = tiny_package_files(**{"statement.ko.md": "두 벡터를 더하세요.\n"})
    import_package(parse_package(files))
    make_student("alice")

    code, _out, err = run("login", live_server.url, "-u", "alice", password="wrong-password")
    assert code == EXIT_AUTH, err
    code, out, err = run("login", live_server.url, stdin="alice\n")
    assert code == EXIT_ACCEPTED, err
    stored = config_home / "config.json"
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    from rest_framework.authtoken.models import Token

    assert json.loads(stored.read_text())["token"] == Token.objects.get(user__username="alice").key

    code, out, err = run("problems")
    assert code == EXIT_ACCEPTED, err
    assert any(line.startswith("tiny-add ") and "Tiny add" in line for line in out.splitlines()), out

    folder = tmp_path / "tiny"
    code, out, err = run("get", "tiny-add", "--dir", str(folder))
    assert code == EXIT_ACCEPTED, err
    assert (folder / "kernel.cu").read_text() == files["starter.cu"]
    assert files["statement.md"].strip() in (folder / "statement.md").read_text()
    code, out, err = run("get", "tiny-add", "--dir", str(folder / "ko"), lang="ko")
    assert "두 벡터를 더하세요." in (folder / "ko" / "statement.ko.md").read_text()

    (folder / "kernel.cu").write_text(files["solution.cu"])
    code, out, err = run("submit", "tiny-add", str(folder / "kernel.cu"), "--watch", "--timeout", "120")
    assert code == EXIT_ACCEPTED, (out, err, celery_worker_process.output()[-3000:])
    assert "Verdict: Accepted" in out and "small (sample): Accepted" in out

    wrong = tmp_path / "wrong.cu"
    wrong.write_text(files["wrong/subtracts.cu"])
    code, out, err = run("submit", "tiny-add", str(wrong), "--watch", "--timeout", "120", lang="ko")
    assert code == EXIT_REJECTED, (out, err)
    assert "결과: 오답" in out
    assert "c[" in out and "기댓값" in out  # the sample test's first mismatch
    assert "#2 (숨김): 오답" in out and "tail" not in out  # a hidden test by its place in the list
