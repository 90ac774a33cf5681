"""Version messages WarpDrill writes (a bank copy's) are stored in English and shown in the reader's
language (authoring.version_messages); the submission's resource report says "spills" in Korean."""
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from authoring import actions
from authoring.version_messages import display_message

pytestmark = pytest.mark.django_db


def test_a_bank_copy_made_on_a_korean_page_stores_english_and_shows_each_reader_their_language(
        courses, people, client_for):
    """Copied while Korean is active, the row says "Copied from the bank's segment-sum v1"; the history
    page shows it in Korean to a Korean reader and in English to an English one."""
    from problems.core.package import load_package
    from problems.models import Problem
    from problems.services import import_package

    import_package(load_package(Path(__file__).resolve().parents[2] / "problems" / "bank" / "segment-sum"))
    with translation.override("ko"):
        copy = actions.copy_from_bank(courses["A"], people["prof"], Problem.objects.get(slug="segment-sum"), "seg-m")
    assert copy.versions.get().message == "Copied from the bank's segment-sum v1"
    url = reverse("authoring:history", args=["PP-A", copy.slug])
    ko = client_for("prof").get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    en = client_for("prof").get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "문제 은행의 segment-sum v1에서 복사했습니다" in ko and "Copied from the bank" not in ko
    assert "Copied from the bank&#x27;s segment-sum v1" in en


def test_only_generated_messages_are_translated_and_old_korean_rows_read_in_english():
    """An author's own words stay as written; a row stored in Korean before reads in English."""
    with translation.override("en"):
        assert display_message("문제 은행의 block-sum v3에서 복사했습니다") == "Copied from the bank's block-sum v3"
        assert display_message("Copied from the bank's block-sum v1 and fixed") == "Copied from the bank's block-sum v1 and fixed"
        assert display_message("") == ""


def test_the_spill_line_of_the_resource_report_is_korean():
    with translation.override("ko"):
        html = render_to_string("partials/resources.html", {
            "graded": True, "resources": {"registers": 40, "spill_stores_bytes": 8, "spill_loads_bytes": 4}})
    assert "레지스터 스필 (저장 / 읽기)" in html and "Spill" not in html and "8 B / 4 B" in html
