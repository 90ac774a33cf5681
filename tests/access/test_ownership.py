"""Who may open what: a student only their own submissions and questions, instructors everyone's,
the admin only staff. Every route of the site is listed in ROUTES with its rule, so that a new page
cannot appear without someone deciding who may see it.
"""
from __future__ import annotations

import pytest
from django.urls import URLResolver, get_resolver

from grader import actions
from practice import actions as practice

from .conftest import body

pytestmark = pytest.mark.django_db

# Every named route outside the admin, and who may use it.
ROUTES = {
    "problems:list": "anyone",
    "problems:detail": "anyone reads; logged-in users submit",
    "login": "anyone",
    "logout": "POST with CSRF token",
    "signup": "anyone",
    "password_reset_confirm": "anyone with a valid one-time token (its course's instructor made it; tests/courses/test_roster_import.py)",
    "password_reset_complete": "anyone",
    "set_language": "anyone, POST with CSRF token",
    "grader:list": "logged in: own submissions; ?all=1 for instructors",
    "grader:submission": "owner or instructor; of a course's problem: owner or that course's staff (others: 404)",
    "grader:submission-live": "owner or instructor (others: 404)",
    "api:token": "anyone with a username and password",
    "api:problems": "logged in",
    "api:problem": "logged in: a problem the user may open (others: 404)",
    # LTI 1.3 (lti/): the platform's signed id_token is the credential; tests/lti check each refusal.
    "lti:login": "anyone (an LMS's login initiation; unregistered issuers refused)",
    "lti:launch": "a platform's verified id_token, POST (others: 403)",
    "lti:jwks": "anyone (the tool's public keys)",
    "lti:links": "instructors of the course (others: 404)",
    "lti:sync": "instructors of the course, POST (others: 404)",
    "api:problem-submissions": "logged in (POST)",
    "api:submissions": "logged in: own submissions",
    "api:submission": "owner or instructor (others: 404)",
    "practice:home": "logged in: own progress",
    "practice:reveal": "owner, POST (others: 404)",
    "api_tokens": "logged in: own API token only",
    "account": "logged in: own name, email and student ID only (tests/accounts/test_identity.py)",
    "password_change": "logged in: own password, with the old one (Django's view)",
    "password_change_done": "logged in",
    "exams:kernel_live": "the attempt's student (others: 404); a 304 needs the caller's own credential",
    "exams:accommodation_delete": "instructors of the exam's course, POST (others: 403/404)",
    "grader:submission-writemap": "owner or course staff, POST (others: 404)",
    "practice:start": "logged in, POST with CSRF token",
    "practice:question": "owner (others: 404)",
    "practice:progress": "logged in: own progress",
    "practice:calculator": "anyone",
    # Courses: roles come from a membership of that course (courses/access.py); tests/courses/test_pages.py
    # and tests/access/test_course_access.py check each rule.
    "courses:home": "logged in: own courses",
    "courses:new": "staff or courses.create_course (others: 403)",
    "courses:join_form": "anyone (joining needs a login)",
    "courses:join": "logged in, with a usable invite code (POST joins)",
    "courses:course": "members of the course (signed-in others: 403 'not in this course'; unknown: 404)",
    "courses:settings": "instructors of the course (its TAs and students: 403; others: 404)",
    "courses:manage": "TAs and instructors of the course (others: 404)",
    "courses:invite-create": "instructors of the course, POST (others: 404)",
    "courses:invite-revoke": "instructors of the course, POST (others: 404)",
    "courses:member-role": "instructors of the course, POST (others: 404)",
    "courses:member-remove": "instructors of the course; GET confirms (an exam in progress is closed), POST removes (others: 404)",
    "courses:roster-upload": "instructors of the course; POST uploads and redirects here, GET shows the form and "
                             "the last upload's report once (others: 404)",
    "courses:passwords": "instructors of the course (others: 404)",
    # Authoring: TAs and instructors of the course only; students, other courses' staff and outsiders
    # get 404 (tests/authoring/test_access.py checks each).
    "authoring:index": "TAs and instructors of the course (others: 404)",
    "authoring:new": "TAs and instructors of the course (others: 404)",
    "authoring:upload": "TAs and instructors of the course (others: 404)",
    "authoring:preview": "TAs and instructors of the course (others: 404)",
    "authoring:copy": "TAs and instructors of the course (others: 404)",
    "authoring:edit": "TAs and instructors of the course (others: 404)",
    "authoring:history": "TAs and instructors of the course (others: 404)",
    "authoring:download": "TAs and instructors of the course (others: 404)",
    "authoring:download-version": "TAs and instructors of the course (others: 404)",
    "authoring:validate": "TAs and instructors of the course (others: 404)",
    "authoring:publish": "TAs and instructors of the course (others: 404)",
    "authoring:unpublish": "TAs and instructors of the course (others: 404)",
    "authoring:exams-only": "TAs and instructors of the course, POST (others: 404)",
    "authoring:run": "TAs and instructors of the course (others: 404)",
    "authoring:dashboard": "TAs and instructors of the course (others: 404)",
    "authoring:rejudge": "TAs and instructors of the course (others: 404)",
    "authoring:rejudge-run": "TAs and instructors of the course (others: 404)",
    "authoring:problem-dashboard": "TAs and instructors of the course (others: 404)",
    "authoring:as-student": "TAs and instructors of the course (others: 404); GET only (a POST is 405)",
    "authoring:family-preview": "TAs and instructors of the course (others: 404)",
    "authoring:yaml-form": "TAs and instructors of the course (others: 404)",
    "homework:sets": "members of the course (students: the opened sets); TAs and instructors create (others: 404)",
    "homework:set": "members of the course once it opens; TAs and instructors always (others: 404)",
    "homework:item-question": "members of the course for a set they can see (students: opened sets); others: 404 "
                              "(tests/homework/test_set_questions.py)",
    "homework:dashboard": "TAs and instructors of the course (others: 404; tests/homework/test_dashboard.py)",
    "homework:edit": "TAs and instructors of the course (others: 404; tests/homework/test_set_edit_delete.py)",
    "homework:delete": "TAs and instructors of the course; GET confirms, POST deletes (others: 404)",
    "homework:add-item": "TAs and instructors of the course, POST (others: 404)",
    "homework:remove-item": "TAs and instructors of the course, POST (others: 404)",
    # Exams: roles of the exam's course (exams/access.py); tests/access/test_exams_access.py checks them.
    "exams:exam": "members of the exam's course; read-only for a student whose attempt was closed when they were removed from it (others: 403 'not in this course', nothing of the exam; unknown: 404)",
    "exams:start": "members of the exam's course, POST, within their window (others: 404)",
    "exams:attempt": "the student's own attempt (removed from the course during it: the exam's page; outside the course: 403 'not in this course'; others: 404)",
    "exams:save": "the student's own open attempt, POST JSON (none: 404; after the deadline: 409; closed for a removal from the course: 409 'removed')",
    "exams:state": "the student's own attempt (closed for a removal from the course: 409 'removed'; others: 404)",
    "exams:submit": "the student's own attempt (removed from the course during it: the exam's page; outside the course: 403; others: 404)",
    "exams:kernel": "the student's own attempt's kernel item (removed from the course during it: the exam's page; outside the course: 403; others: 404)",
    "exams:kernel_state": "the student's own attempt's kernel item (others: 404; tests/exams/test_kernel_item_state.py)",
    "exams:result": "the student's own ended attempt, from the release time (removed from the course during it: the exam's page; outside the course: 403; else 404)",
    "exams:course": "members of the course; templates and management for its TAs and instructors (others: 403 "
                    "'not in this course', tests/exams/test_not_in_course.py)",
    "exams:template_new": "instructors of the course (others: 404)",
    "exams:template_edit": "instructors of the course (others: 404)",
    "exams:template_zones_new": "instructors of the course, POST (others: 404)",
    "exams:template_zones": "instructors of the course, POST (others: 404)",
    "exams:template_export": "instructors of the course (others: 404)",
    "exams:template_preview": "TAs and instructors of the course (others: 404)",
    "exams:exam_new": "instructors of the course (others: 404)",
    "exams:exam_edit": "instructors of the course (others: 404)",
    "exams:accommodations": "instructors of the exam's course (others: 404)",
    "exams:results": "TAs and instructors of the exam's course (others: 404)",
    "exams:monitor": "TAs and instructors of the exam's course (others: 404; tests/exams/test_monitor.py)",
    "exams:monitor_live": "TAs and instructors of the exam's course (others: 404; tests/exams/test_monitor.py)",
    "exams:regrade": "instructors of the exam's course (others: 404)",
    "exams:kernel_regrade": "instructors of the exam's course (others: 404; tests/exams/test_regrade.py)",
    "exams:kernel_regrade_old_result": "instructors of the exam's course (others: 404; tests/exams/test_regrade.py)",
    "exams:export": "instructors of the exam's course (others: 404)",
    "exams:attempt_detail": "TAs and instructors of the attempt's course (others: 404)",
    "exams:extend": "TAs and instructors of the attempt's course, POST (others: 404)",
    "exams:end_attempt": "TAs and instructors of the attempt's course, POST with the box ticked (others: 404; "
                         "tests/exams/test_end_attempt.py)",
    "exams:end_all": "TAs and instructors of the exam's course, POST with the box ticked (others: 404; "
                     "tests/exams/test_end_attempt.py)",
    "exams:reset": "TAs and instructors of the item's course, POST (others: 404)",
    "exams:print": "TAs and instructors of the exam's course (others: 404)",
    "exams:print_pdf": "TAs and instructors of the exam's course (others: 404)",
    # The playground: a run is its owner's; shared by link, anyone signed in reads it (tests/playground/test_access.py).
    "playground:home": "logged in (?from=: a submission the user may see; ?run=: own or shared)",
    "playground:run": "owner, or anyone logged in when shared (others: 404)",
    "playground:run-live": "owner, or anyone logged in when shared (others: 404)",
    "playground:run-share": "owner only, POST (others: 404)",
    "api:playground-runs": "logged in (POST)",
    "api:playground-run": "owner, or anyone logged in when shared (others: 404)",
}

PRIVATE_MARKER = "alice-private-source-marker"
SOURCE = ("__global__ void add(const float* a, const float* b, float* c, int n) {\n"
          f"    // {PRIVATE_MARKER}\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n) c[i] = a[i] + b[i];\n}\n")


def named_routes(resolver=None, namespace=None):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            yield from named_routes(pattern, pattern.namespace or namespace)
        elif pattern.name:
            yield f"{namespace}:{pattern.name}" if namespace else pattern.name


def test_every_route_has_an_access_rule():
    """A new route fails this test until its access rule is written down (and tested) here."""
    assert sorted(set(named_routes()) - set(ROUTES)) == []


@pytest.fixture
def alices(canary, users, django_capture_on_commit_callbacks):
    """Alice's submission (queued) and practice question."""
    with django_capture_on_commit_callbacks(execute=False):
        sub = actions.create_submission(users["alice"], canary, SOURCE)
    return {"submission": sub, "variant": practice.next_variant(users["alice"], practice.MIXED, 1)}


def test_logged_out_visitors_are_sent_to_log_in(alices, page, api):
    """Pages that need an account redirect to the login page; the API answers 401/403."""
    sub, variant = alices["submission"], alices["variant"]
    for url in ("/submissions/", f"/submissions/{sub.pk}/", f"/submissions/{sub.pk}/live/", "/practice/",
                "/practice/progress/", f"/practice/q/{variant.pk}/"):
        response = page(None).get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url
    for url in ("/api/v1/problems", "/api/v1/submissions", f"/api/v1/submissions/{sub.pk}"):
        assert api(None).get(url).status_code in (401, 403), url
    assert api(None).post("/api/v1/problems/canary-add/submissions", {"source": SOURCE},
                          format="json").status_code in (401, 403)
    response = page(None).post("/problems/canary-add/", {"source": SOURCE})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert page(None).get("/problems/canary-add/").status_code == 200  # reading stays public


def test_another_student_cannot_open_a_submission(alices, page, api):
    """Bob gets 404 for Alice's submission page, its live part and its API URL."""
    pk = alices["submission"].pk
    assert page("bob").get(f"/submissions/{pk}/").status_code == 404
    assert page("bob").get(f"/submissions/{pk}/live/").status_code == 404
    response = api("bob").get(f"/api/v1/submissions/{pk}")
    assert response.status_code == 404 and PRIVATE_MARKER not in body(response)
    assert page("alice").get(f"/submissions/{pk}/").status_code == 200


def test_lists_and_problem_page_show_only_my_own(alices, page, api):
    """Bob's lists (page, ?all=1, API) and his editor and recent submissions never show Alice's."""
    pk = alices["submission"].pk
    bob = page("bob")
    for url in ("/submissions/", "/submissions/?all=1", "/problems/canary-add/", "/practice/", "/practice/progress/"):
        html = body(bob.get(url))
        assert f"/submissions/{pk}/" not in html and PRIVATE_MARKER not in html, url
        assert f"/practice/q/{alices['variant'].pk}/" not in html, url
    assert api("bob").get("/api/v1/submissions").json()["submissions"] == []
    assert PRIVATE_MARKER in body(page("alice").get("/problems/canary-add/"))  # control: Alice's editor has it


@pytest.mark.parametrize("who", ["ivy", "sam"])
def test_instructors_and_staff_see_every_submission(alices, page, api, who):
    """The Instructor group (and staff) may open anyone's submission and list everyone's."""
    pk = alices["submission"].pk
    assert page(who).get(f"/submissions/{pk}/").status_code == 200
    assert api(who).get(f"/api/v1/submissions/{pk}").status_code == 200
    assert f"/submissions/{pk}/" in body(page(who).get("/submissions/?all=1"))
    assert f"/submissions/{pk}/" not in body(page(who).get("/submissions/"))  # by default: only their own


@pytest.mark.parametrize("url", ["/admin/grader/submission/", "/admin/problems/problemversion/",
                                 "/admin/practice/questionvariant/", "/admin/auth/user/"])
def test_admin_needs_staff_and_model_permissions(users, page, url):
    """Students and non-staff instructors are sent to the admin login; staff without permissions on a
    model get 403; a superuser gets in."""
    from django.contrib.auth.models import User

    for who in ("alice", "ivy"):
        for path in ("/admin/", url):
            response = page(who).get(path)
            assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), (who, path)
    assert page("sam").get("/admin/").status_code == 200
    assert page("sam").get(url).status_code == 403
    root = User.objects.create_superuser("root", password="pass-1234-word")
    client = page(None)
    client.force_login(root)
    assert client.get(url).status_code == 200


def test_unpublished_problem_is_404_to_students(canary, page, api):
    """An unpublished problem cannot be read or submitted to, through the page or the API."""
    canary.is_published = False
    canary.save(update_fields=["is_published"])
    assert page("alice").get("/problems/canary-add/").status_code == 404
    assert api("alice").post("/api/v1/problems/canary-add/submissions", {"source": SOURCE},
                             format="json").status_code == 404
    assert "canary-add" not in body(api("alice").get("/api/v1/problems"))
