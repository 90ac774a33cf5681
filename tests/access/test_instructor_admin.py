"""Instructors in the admin: the Instructor group's permissions (problems/migrations/0002), the
"Rejudge selected submissions" action (grader.rejudging.rejudge), and the submission page's
breadcrumb for someone else's submission. Students never reach the admin.
"""
from __future__ import annotations

import importlib
from types import SimpleNamespace
from unittest import mock

import pytest
from django.apps import apps as global_apps
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.utils import translation

from grader import actions
from grader import grading as grader_grading
from grader import rejudging
from grader.core.backends.registry import get_backend
from grader.models import Status, Submission

from .conftest import body, make_user

pytestmark = pytest.mark.django_db

GROUP_MIGRATION = importlib.import_module("problems.migrations.0002_instructor_group_permissions")
COURSES_MIGRATION = importlib.import_module("courses.migrations.0002_instructor_group_creates_courses")
# Models that moved app after 0002 granted permissions on them (practice 0001 relabelled their
# content types, so the granted permissions followed them).
MOVED_TO = {("problems", "questionvariant"): "practice", ("problems", "questionattempt"): "practice"}
CHANGELIST = "/admin/grader/submission/"
INSTRUCTOR_PERMISSIONS = {
    "problems.view_problem", "problems.add_problem", "problems.change_problem",
    "problems.view_problemversion", "practice.view_questionvariant", "practice.view_questionattempt",
    "grader.view_submission", "grader.change_submission", "courses.create_course",
}


@pytest.fixture
def instructor_group():
    """The Instructor group as the migration leaves it.

    The migration ran when the test database was created; tests on a transactional database
    flush every table afterwards (the group with them), so it is applied again here.
    """
    grant_as_migrated()
    return Group.objects.get(name="Instructor")


def grant_as_migrated():
    """Replay the migrations' grants on today's models (problems 0002 with the moved models'
    permissions under their new app, then courses 0002)."""
    today = [(MOVED_TO.get((app, model), app), model, actions)
             for app, model, actions in GROUP_MIGRATION.INSTRUCTOR_PERMISSIONS]
    with mock.patch.object(GROUP_MIGRATION, "INSTRUCTOR_PERMISSIONS", today):
        GROUP_MIGRATION.grant(global_apps, SimpleNamespace(connection=connection))
    COURSES_MIGRATION.grant(global_apps, SimpleNamespace(connection=connection))


@pytest.fixture
def ines(users, instructor_group):
    """A staff member of the Instructor group, like seed_demo's 'instructor'."""
    return make_user("ines", "Instructor", is_staff=True)


@pytest.fixture
def admin_page(page, ines):
    client = page(None)
    client.force_login(ines)
    return client


@pytest.fixture
def grading(graded):
    """The graded fixture's three GRADED submissions plus one that a worker is grading now."""
    sub = Submission.objects.create(user=graded["wrong_on_hidden"].user, problem_version=graded["wrong_on_hidden"].problem_version,
                                    source="// in flight\n", status=Status.QUEUED)
    grader_grading.start_grading(sub.pk, "emulator")
    sub.refresh_from_db()
    return {"graded": list(graded.values()), "in_flight": sub}


def rejudge_post(client, pks, follow=True):
    return client.post(CHANGELIST, {"action": "rejudge_selected", "_selected_action": [str(pk) for pk in pks]},
                       follow=follow)


def test_migration_gives_the_instructor_group_its_permissions(instructor_group):
    """The Instructor group can edit problems, read versions, questions and submissions, and change
    submissions (the rejudge action), and create courses; nothing else, and nothing on users or groups."""
    granted = {f"{p.content_type.app_label}.{p.codename}" for p in instructor_group.permissions.select_related("content_type")}
    assert granted == INSTRUCTOR_PERMISSIONS
    assert not Permission.objects.filter(group__name="Student").exists()


def test_migration_runs_again_without_duplicates(instructor_group):
    """Applying the grant twice leaves one group with the same permissions."""
    grant_as_migrated()
    assert Group.objects.filter(name="Instructor").count() == 1
    assert instructor_group.permissions.count() == len(INSTRUCTOR_PERMISSIONS)


@pytest.mark.parametrize("url,status", [
    ("/admin/", 200), (CHANGELIST, 200), ("/admin/problems/problem/", 200), ("/admin/problems/problem/add/", 403),
    ("/admin/problems/problemversion/", 200), ("/admin/practice/questionvariant/", 200),
    ("/admin/practice/questionattempt/", 200), ("/admin/auth/user/", 403), ("/admin/auth/group/", 403),
])
def test_staff_instructor_opens_the_admin_pages_of_their_work(admin_page, url, status):
    """A staff instructor sees problems, versions, questions and submissions; users and groups stay 403."""
    assert admin_page.get(url).status_code == status


def test_instructor_reads_a_submission_but_cannot_rewrite_it(admin_page, graded):
    """The change form shows a student's source read-only to instructors: a POST cannot alter it."""
    sub = graded["wrong_on_hidden"]
    url = f"/admin/grader/submission/{sub.pk}/change/"
    page = admin_page.get(url)
    assert page.status_code == 200 and 'name="source"' not in body(page)
    admin_page.post(url, {"source": "// rewritten\n", "user": sub.user_id, "problem_version": sub.problem_version_id})
    sub.refresh_from_db()
    assert "rewritten" not in sub.source


def test_instructor_rejudges_graded_submissions_and_skips_one_being_graded(admin_page, grading, sent_tasks):
    """The action offers itself on the changelist, queues the three graded submissions again (verdict,
    result and progress cleared; source and version kept), sends one message each after commit, skips
    the one being graded, and says so."""
    assert "rejudge_selected" in body(admin_page.get(CHANGELIST))
    graded, in_flight = grading["graded"], grading["in_flight"]
    with sent_tasks.until_commit():
        response = rejudge_post(admin_page, [s.pk for s in graded] + [in_flight.pk])
    assert response.status_code == 200
    # the commit: live-status renewals and the three task messages
    assert sorted(sent_tasks.commit()) == sorted(s.pk for s in graded)
    text = body(response)
    assert "3 submissions queued for rejudging." in text
    assert "1 skipped because it is still queued or being graded." in text
    for before in graded:
        after = Submission.objects.get(pk=before.pk)
        assert (after.status, after.verdict, after.result, after.progress_done, after.tries) == (Status.QUEUED, "", None, 0, 0)
        assert after.finished_at is None and after.queued_at is not None
        assert (after.source, after.problem_version_id, after.user_id) == (before.source, before.problem_version_id, before.user_id)
    in_flight_after = Submission.objects.get(pk=in_flight.pk)
    assert (in_flight_after.status, in_flight_after.tries) == (Status.COMPILING, 1)


def test_rejudged_submission_is_graded_again(canary, users, graded, settings, django_capture_on_commit_callbacks):
    """After rejudge the queued task grades it once more and stores a fresh verdict (dummy backend)."""
    from grader.tasks import grade_submission

    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "dummy"}
    get_backend.cache_clear()
    try:
        sub = graded["wrong_on_hidden"]
        with django_capture_on_commit_callbacks(execute=False):
            assert rejudging.rejudge([sub.pk, sub.pk]) == 1  # duplicates count once
        grade_submission(sub.pk)
    finally:
        get_backend.cache_clear()
    sub.refresh_from_db()
    assert sub.status == Status.GRADED and sub.verdict and sub.backend == "dummy" and sub.tries == 1


def test_rejudge_skips_waiting_and_missing_submissions(graded, django_capture_on_commit_callbacks):
    """A QUEUED submission is already on its way to a verdict: rejudge leaves it alone and sends no
    second message; an unknown id is skipped too."""
    sub = graded["printf_on_hidden"]
    with django_capture_on_commit_callbacks(execute=False):
        assert rejudging.rejudge([sub.pk]) == 1
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert rejudging.rejudge([sub.pk, 10**9]) == 0
    assert callbacks == []


@pytest.mark.parametrize("who", ["alice", "ivy"])
def test_students_and_non_staff_cannot_rejudge(users, page, graded, who, django_capture_on_commit_callbacks):
    """A student (or an instructor without staff status) posting the action is sent to the admin
    login; nothing is queued."""
    sub = graded["wrong_on_hidden"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = rejudge_post(page(who), [sub.pk], follow=False)
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert callbacks == []
    assert Submission.objects.get(pk=sub.pk).status == Status.GRADED


def test_view_only_staff_are_not_offered_the_action(page, graded, django_capture_on_commit_callbacks):
    """Rejudging needs grader.change_submission: staff who may only view submissions neither see the
    action nor can post it."""
    viewer = make_user("vera", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_submission"))
    client = page(None)
    client.force_login(viewer)
    assert "rejudge_selected" not in body(client.get(CHANGELIST))
    sub = graded["wrong_on_hidden"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        rejudge_post(client, [sub.pk])
    assert callbacks == []
    assert Submission.objects.get(pk=sub.pk).status == Status.GRADED


def test_rejudge_messages_are_translated():
    """The action's name and its messages have Korean translations in the compiled catalogue."""
    from django.utils.translation import gettext, ngettext

    with translation.override("ko"):
        assert gettext("Rejudge selected submissions") == "선택한 제출 다시 채점"
        assert ngettext("%(n)d submission queued for rejudging.", "%(n)d submissions queued for rejudging.", 3) \
            % {"n": 3} == "제출 3개를 다시 채점하도록 대기열에 넣었습니다."
        assert "건너뛰었습니다" in ngettext("%(n)d skipped because it is still queued or being graded.",
                                       "%(n)d skipped because they are still queued or being graded.", 1)


def test_breadcrumb_names_whose_submissions(page, graded):
    """The owner's breadcrumb reads 'My submissions'; an instructor's, on someone else's submission,
    'All submissions' linking to the full list (in Korean: 모든 제출)."""
    url = f"/submissions/{graded['wrong_on_hidden'].pk}/"
    own = body(page("alice").get(url))
    assert '<a href="/submissions/">My submissions</a>' in own
    theirs = body(page("ivy").get(url))
    assert '<a href="/submissions/?all=1">All submissions</a>' in theirs
    assert ">My submissions</a> <span" not in theirs
    korean = body(page("ivy").get(url, HTTP_ACCEPT_LANGUAGE="ko"))
    assert '<a href="/submissions/?all=1">모든 제출</a>' in korean


def test_admin_cannot_add_a_problem_without_a_package_nor_publish_one(admin_page, canary):
    """'Add problem' is refused (problems come from packages); a problem with no version cannot be
    published from its change form; the list says 'Published'/'Hidden' in words, not icons."""
    assert admin_page.get("/admin/problems/problem/add/").status_code == 403
    listing = body(admin_page.get("/admin/problems/problem/"))
    assert "import_problems" in listing and ">Published<" in listing
    from problems.models import Problem

    bare = Problem.objects.create(slug="no-package", title_en="No package", topic="indexing", is_published=False)
    page = admin_page.post(f"/admin/problems/problem/{bare.pk}/change/", {
        "slug": "no-package", "title_en": "No package", "title_ko": "", "topic": "indexing", "kind": "kernel",
        "difficulty": 1, "current_version": "", "is_published": "on",
        "versions-TOTAL_FORMS": 0, "versions-INITIAL_FORMS": 0, "versions-MIN_NUM_FORMS": 0, "versions-MAX_NUM_FORMS": 1000,
    })
    assert page.status_code == 200 and "cannot be published" in body(page)
    bare.refresh_from_db()
    assert bare.is_published is False
    admin_page.post("/admin/problems/problem/", {"action": "publish", "_selected_action": [bare.pk, canary.pk]})
    bare.refresh_from_db()
    assert bare.is_published is False  # the action skips it, with a warning


def test_question_attempts_are_labelled_by_student_name_with_words(admin_page, users):
    """Question attempts show the student's username and 'Correct'/'Wrong' as text."""
    from practice import actions as practice

    variant = practice.get_or_create_variant(users["alice"], "indexing.warp_lane", "s1", 1)
    practice.submit_answer(variant, {k: str(v) for k, v in variant.answer["values"].items()})
    listing = body(admin_page.get("/admin/practice/questionattempt/"))
    assert ">alice<" in listing and ">Correct<" in listing
    assert str(users["alice"].pk) + " (" not in str(variant)
