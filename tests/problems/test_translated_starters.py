"""A package may ship starter.ko.cu: starter.cu with its comments in Korean, opened by Korean readers
(the problem page, the exam's kernel page, the API, the staff preview), starter.cu elsewhere. Only
comments may differ, so every reader starts from the same kernel. Every bank problem ships one; a
tester found "// TODO: compute this thread's global index…" on a Korean page."""
from __future__ import annotations

import html
from pathlib import Path

import pytest

from authoring.core.edit import files_from_fields
from problems.core.package import PackageError, load_package, parse_package
from tests.packages import tiny_package_files
from tests.questions.test_korean_code_comments import _untranslated

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"
PACKAGES = sorted(p.parent.name for p in BANK.glob("*/problem.yaml"))
EN = "__global__ void add(const float* a, const float* b, float* c, int n) {\n    // add one element per thread\n}\n"
KO = "__global__ void add(const float* a, const float* b, float* c, int n) {\n    // thread마다 원소 하나를 더함\n}\n"


def test_a_translated_starter_is_opened_by_korean_readers_only():
    package = parse_package(tiny_package_files(**{"starter.cu": EN, "starter.ko.cu": KO}))
    assert package.starter_in("ko") == KO and package.starter_in("ko-kr") == KO
    assert package.starter_in("en") == EN and package.starter_in(None) == EN
    alone = parse_package(tiny_package_files(**{"starter.cu": EN}))
    assert alone.starter_in("ko") == EN  # no starter.ko.cu: everyone opens starter.cu


def test_a_translated_starter_may_change_only_comments():
    """Another kernel in starter.ko.cu is refused, naming the file and the line of code that differs."""
    changed = KO.replace("int n)", "int m)")
    with pytest.raises(PackageError) as err:
        parse_package(tiny_package_files(**{"starter.cu": EN, "starter.ko.cu": changed}))
    assert err.value.file == "starter.ko.cu" and "line 1" in str(err.value)
    with pytest.raises(PackageError):
        parse_package(tiny_package_files(**{"starter.cu": EN, "starter.ko.cu": KO + "int extra;\n"}))
    # Comments moved, added or re-wrapped are fine.
    parse_package(tiny_package_files(**{"starter.cu": EN, "starter.ko.cu": "// 설명\n" + KO.replace("    //", "\n    //")}))


@pytest.mark.parametrize("slug", PACKAGES)
def test_every_bank_starter_has_korean_comments(slug):
    package = load_package(BANK / slug)
    assert "ko" in package.starters, f"{slug}: ship starter.ko.cu"
    korean = package.with_variant().starter_in("ko")
    # Only the launch line the judge reads stays as it is (its keys are the format's).
    left = [c for c in _untranslated(korean) if not c.startswith("// launch: block=")]
    assert not left, f"{slug}: comments left in English in starter.ko.cu: {left}"


def test_the_editor_keeps_or_drops_the_korean_starter():
    files = tiny_package_files(**{"starter.cu": EN, "starter.ko.cu": KO})
    fields = {"problem_yaml": files["problem.yaml"], "title_en": "Tiny add", "title_ko": "", "statement_en": "x",
              "statement_ko": "", "starter": EN, "starter_ko": KO, "solution": files["solution.cu"],
              "harness": files["harness.py"]}
    assert files_from_fields(files, fields, [])["starter.ko.cu"] == KO
    assert "starter.ko.cu" not in files_from_fields(files, {**fields, "starter_ko": "  \n"}, [])


@pytest.mark.django_db
def test_the_problem_page_and_the_api_give_the_readers_starter(client, django_user_model):
    from rest_framework.test import APIClient

    from problems.services import import_package

    import_package(load_package(BANK / "vector-add-tail"))
    alice = django_user_model.objects.create_user("alice", password="x-pass-1234")
    client.force_login(alice)
    korean_line = "TODO: 이 thread의 global index를 계산해 원소 하나를 더하세요."
    english_line = "TODO: compute this thread&#x27;s global index"
    ko = client.get("/problems/vector-add-tail/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    en = client.get("/problems/vector-add-tail/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert korean_line in html.unescape(ko) and english_line not in ko
    assert english_line in en and korean_line not in html.unescape(en)
    api = APIClient()
    api.force_authenticate(alice)
    body = api.get("/api/v1/problems/vector-add-tail", HTTP_ACCEPT_LANGUAGE="ko").json()
    assert korean_line in body["starter"] and body["language"] == "ko"
    assert "compute this thread's global index" in api.get("/api/v1/problems/vector-add-tail").json()["starter"]
