"""Stored results and messages as codes: the older form (English, template, parameters) reads the same,
and the data migration (grader 0009) converts it, the pages in English and Korean unchanged.

Results are graded through the real pipeline (the dummy backend, and the emulator where it can build),
stored in the form results had before codes, shown, converted, shown again.
"""
from __future__ import annotations

import copy
import html as html_lib
import importlib
import re

import pytest
from django.apps import apps

from grader.core import messages as M
from grader.core.backends.dummy import DummyBackend
from grader.core.judge import judge
from grader.core.results import JudgeResult, downgrade_stored, upgrade_stored
from grader.models import Submission
from tests.web.conftest import SOURCE, compile_error_result, graded_result

MIGRATION = importlib.import_module("grader.migrations.0009_results_messages_as_codes")


def _text(client, submission, language: str) -> str:
    """The submission page's text in `language` (markup, tokens and nonces dropped)."""
    response = client.get(submission.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = html_lib.unescape(response.content.decode())
    page = re.sub(r"<script.*?</script>|<[^>]+>", " ", page, flags=re.S)
    return " ".join(page.split())


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.emulator import EmulatorBackend

    backend = EmulatorBackend()
    problems = backend.check()
    if problems:
        pytest.skip("the emulator cannot run here: " + "; ".join(problems))
    return backend


def _results(problem, emulator) -> dict[str, JudgeResult]:
    package = problem.current_version.package()
    return {"refused": judge(package, "   \n", DummyBackend()), "compile error": compile_error_result(),
            "graded": graded_result(), "emulator": judge(package, SOURCE, emulator, run_checks=False)}


def test_the_older_form_reads_as_the_new_one(problem, emulator):
    """A result written in the three-field form loads to the same Messages (codes and parameters)."""
    for name, result in _results(problem, emulator).items():
        new = result.to_dict()
        old = downgrade_stored(copy.deepcopy(new))
        assert "message_template" in old and not isinstance(old["message"], dict), name
        assert JudgeResult.from_dict(old).to_dict() == new, name
        assert upgrade_stored(old) == new, name


def test_migration_converts_stored_results_and_the_pages_read_the_same(problem, alice, alice_client,
                                                                       make_submission, emulator):
    """Each result stored in the older form: its page in English and Korean; the migration; the same pages,
    and the stored JSON now holds codes. Going back restores the older form."""
    submissions = {}
    for name, result in _results(problem, emulator).items():
        submission = make_submission(alice, problem, result)
        Submission.objects.filter(pk=submission.pk).update(result=downgrade_stored(result.to_dict()))
        submissions[name] = submission
    before = {(name, lang): _text(alice_client, s, lang) for name, s in submissions.items() for lang in ("en", "ko")}
    assert "소스가 비어 있습니다." in before["refused", "ko"]  # Korean from the stored template
    assert "테스트 small:" in before["emulator", "ko"]

    MIGRATION.forwards(apps, None)

    for name, submission in submissions.items():
        stored = Submission.objects.get(pk=submission.pk).result
        assert isinstance(stored["message"], dict) and "message_template" not in stored, name
        assert all(isinstance(d["message"], dict) for d in stored["diagnostics"]), name
        for lang in ("en", "ko"):
            assert _text(alice_client, submission, lang) == before[name, lang], (name, lang)
    emulated = Submission.objects.get(pk=submissions["emulator"].pk).result
    assert emulated["message"]["code"] == "SUMMARY_TEST_AT_LINE"
    assert emulated["diagnostics"][0]["message"]["code"].startswith("RUNTIME_FAULT.")

    MIGRATION.backwards(apps, None)
    stored = Submission.objects.get(pk=submissions["refused"].pk).result
    assert stored["message"] == "The source is empty." and stored["message_template"] == M.SOURCE_EMPTY
