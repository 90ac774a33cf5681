"""Version messages WarpDrill writes (a new problem's skeleton, a bank copy, an upload) are stored as
codes and shown in the reader's language (authoring.version_messages); the submission's resource
report says "spills" in Korean."""
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from authoring import actions
from authoring.version_messages import display

pytestmark = pytest.mark.django_db


def test_a_bank_copy_made_on_a_korean_page_stores_a_code_and_shows_each_reader_their_language(
        courses, people, client_for):
    """Copied while Korean is active, the row holds the code bank_copy with the slug and version (no
    sentence); the history page shows it in Korean to a Korean reader and in English to an English one."""
    from problems.core.package import load_package
    from problems.models import Problem
    from problems.services import import_package

    import_package(load_package(Path(__file__).resolve().parents[2] / "problems" / "bank" / "segment-sum"))
    with translation.override("ko"):
        copy = actions.copy_from_bank(courses["A"], people["prof"], Problem.objects.get(slug="segment-sum"), "seg-m")
    version = copy.versions.get()
    assert (version.message, version.message_code, version.message_params) == (
        "", "bank_copy", {"slug": "segment-sum", "n": 1})
    url = reverse("authoring:history", args=["PP-A", copy.slug])
    ko = client_for("prof").get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    en = client_for("prof").get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "문제 은행의 segment-sum v1에서 복사했습니다" in ko and "Copied from the bank" not in ko
    assert "Copied from the bank&#x27;s segment-sum v1" in en


def test_the_skeleton_and_an_upload_without_words_are_codes_in_the_readers_language(courses, people, client_for,
                                                                                    problem):
    """A tester found "Created from the skeleton" in English on the Korean history page: version 1 of
    a new problem and an upload with no message are WarpDrill's own messages, shown in the reader's
    language on the history and the editor; an author's words stay as written."""
    from authoring.core.archive import pack_zip

    v1 = problem.versions.get()
    assert (v1.message, v1.message_code) == ("", "skeleton")
    files = dict(v1.files)
    files["statement.md"] += "\nMore.\n"
    _p, uploaded, _c = actions.import_archive(courses["A"], people["prof"], pack_zip(files, problem.slug))
    assert (uploaded.message, uploaded.message_code) == ("", "uploaded")
    files["statement.md"] += "\nEven more.\n"
    _p, worded, _c = actions.import_archive(courses["A"], people["prof"], pack_zip(files, problem.slug), "Fixed the hint")
    assert (worded.message, worded.message_code) == ("Fixed the hint", "")
    prof = client_for("prof")
    ko = prof.get(reverse("authoring:history", args=["PP-A", problem.slug]), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "기본 틀에서 만들었습니다" in ko and "업로드했습니다" in ko and "Fixed the hint" in ko
    assert "Created from the skeleton" not in ko and "Uploaded" not in ko
    en = prof.get(reverse("authoring:history", args=["PP-A", problem.slug]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Created from the skeleton" in en and "Uploaded" in en
    editor = prof.get(reverse("authoring:edit", args=["PP-A", problem.slug]), HTTP_ACCEPT_LANGUAGE="ko")
    assert "Fixed the hint" in editor.content.decode()  # the newest version's own words


def test_rows_written_before_the_codes_are_converted_and_an_authors_words_are_not(problem):
    """problems/migrations/0008: the exact sentences WarpDrill wrote (in English, or in Korean when
    written on a Korean page) become codes; anything else stays the author's message."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("problems.migrations.0008_version_message_codes")
    v1 = problem.versions.get()
    rows = {"기본 틀에서 만들었습니다": ("skeleton", {}), "Uploaded": ("uploaded", {}),
            "문제 은행의 block-sum v3에서 복사했습니다": ("bank_copy", {"slug": "block-sum", "n": 3}),
            "Copied from the bank's block-sum v1 and fixed": ("", {})}
    for message, (code, params) in rows.items():
        type(v1).objects.filter(pk=v1.pk).update(message=message, message_code="", message_params={})
        migration.to_codes(apps, None)
        v1.refresh_from_db()
        assert (v1.message_code, v1.message_params, v1.message) == (code, params, "" if code else message)
        with translation.override("en"):
            assert display(v1) == {"skeleton": "Created from the skeleton", "uploaded": "Uploaded",
                                   "bank_copy": "Copied from the bank's block-sum v3", "": message}[code]


def test_the_spill_line_of_the_resource_report_is_korean():
    with translation.override("ko"):
        html = render_to_string("partials/resources.html", {
            "graded": True, "resources": {"registers": 40, "spill_stores_bytes": 8, "spill_loads_bytes": 4}})
    assert "레지스터 스필 (저장 / 읽기)" in html and "Spill" not in html and "8 B / 4 B" in html
