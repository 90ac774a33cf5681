"""The authoring pages write times in the one format, "2026-12-05 20:08 KST" (accounts/core/times.py):
the tester read "counted at 20:08:05 KST" on the dashboards and "Started by prof at 2026-12-05
20:08:05 KST" on a validation run's page, and seconds on its submissions' pages."""
from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.core.times import format_when, zone_named
from authoring import actions
from tests.timestamps import stamps

pytestmark = pytest.mark.django_db
SEOUL = zone_named("Asia/Seoul")


@pytest.fixture
def in_seoul(client_for):
    def make(name: str, lang: str):
        client = client_for(name)
        client.cookies["wd_tz"] = "Asia/Seoul"
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
        return client
    return make


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_validation_run_and_its_submissions_write_the_one_format(problem, people, in_seoul, lang):
    run = actions.start_validation(problem.versions.get(), people["prof"])
    prof = in_seoul("prof", lang)
    page = prof.get(reverse("authoring:run", args=["PP-A", problem.slug, run.pk])).content.decode()
    assert format_when(run.created_at, SEOUL) in stamps(page)
    submission = run.items.first().submission
    page = prof.get(submission.get_absolute_url()).content.decode()
    assert format_when(submission.created_at, SEOUL) in stamps(page)
    page = prof.get(reverse("authoring:history", args=["PP-A", problem.slug])).content.decode()
    assert stamps(page)


@pytest.mark.parametrize("lang, words", [("en", "counted at "), ("ko", "KST에 집계")])
def test_the_dashboards_say_when_they_were_counted_in_the_one_format(problem, in_seoul, lang, words):
    prof = in_seoul("prof", lang)
    for url in (reverse("authoring:dashboard", args=["PP-A"]),
                reverse("authoring:problem-dashboard", args=["PP-A", problem.slug])):
        page = prof.get(url + "?fresh=1").content.decode()
        counted = page[:page.index('id="count-again"')].rsplit("<p", 1)[-1]
        assert len(stamps(counted)) == 1 and stamps(counted)[0].endswith(" KST"), url
        assert words in counted
