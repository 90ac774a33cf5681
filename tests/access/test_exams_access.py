"""Exam access: a student sees only their own attempt, never an answer key or worked solution before the
release time, cannot start before the window or save after the deadline; staff of course A have no rights in B."""
import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import save_answers, start_attempt, submit_attempt, submit_kernel
from exams.models import ExamAttempt
from tests.exams.conftest import (  # noqa: F401  (fixtures)
    PASSWORD,
    TEMPLATE,
    client_for,
    course,
    enrol,
    exam,
    kernel_problem,
    make_course,
    people,
    right_answers,
)

pytestmark = pytest.mark.django_db


def key_markers(attempt) -> list[str]:
    """Texts only the key shows: each question's worked-solution paragraphs."""
    out = []
    for item in attempt.items.filter(kind="question"):
        for block in item.data["question"]["solution"]["en"]:
            text = block.get("text") or " ".join(block.get("items", []))
            if len(text) > 25 and "`" not in text and "**" not in text:
                out.append(text[:25])
    return out


def test_student_never_sees_key_before_release(exam, people):
    c = client_for(people["alice"])
    c.post(reverse("exams:start", args=[exam.pk]))
    attempt = ExamAttempt.objects.get(user=people["alice"])
    markers = key_markers(attempt)
    urls = [reverse("exams:exam", args=[exam.pk]), reverse("exams:attempt", args=[exam.pk]),
            reverse("exams:submit", args=[exam.pk]), reverse("exams:state", args=[exam.pk]),
            reverse("exams:kernel", args=[exam.pk, attempt.items.get(kind="kernel").number])]
    for url in urls:
        body = c.get(url).content.decode()
        assert not [m for m in markers if m in body], url
        assert "Correct answer" not in body
    c.post(reverse("exams:submit", args=[exam.pk]))
    for url in urls[:1] + [reverse("exams:result", args=[exam.pk])]:
        r = c.get(url)
        assert not [m for m in markers if m in r.content.decode()], url
    early = c.get(reverse("exams:result", args=[exam.pk]))
    assert early.status_code == 302 and early["Location"] == reverse("exams:exam", args=[exam.pk])


def test_student_sees_only_own_attempt(exam, people):
    a = start_attempt(exam, people["alice"])
    bob = client_for(people["bob"])
    assert bob.get(reverse("exams:attempt_detail", args=[a.pk])).status_code == 404
    item = a.items.filter(kind="question").first()
    assert bob.post(reverse("exams:reset", args=[item.pk])).status_code == 404
    assert bob.post(reverse("exams:extend", args=[a.pk]), {"minutes": 5}).status_code == 404
    assert bob.post(reverse("exams:end_attempt", args=[a.pk]), {"confirm": "1"}).status_code == 404
    assert bob.post(reverse("exams:end_all", args=[exam.pk]), {"confirm": "1"}).status_code == 404
    assert client_for(people["eve"]).post(reverse("exams:end_all", args=[exam.pk]), {"confirm": "1"}).status_code == 404
    assert ExamAttempt.objects.get(pk=a.pk).is_open
    # Bob's own attempt page is his: alice's answers are not in it.
    save_answers(a.pk, people["alice"], {item.key: {n: "31337" for n in right_answers(item)}})
    bob.post(reverse("exams:start", args=[exam.pk]))
    assert "31337" not in bob.get(reverse("exams:attempt", args=[exam.pk])).content.decode()
    # Saving through the endpoint with alice's item key changes only bob's own attempt (or is refused).
    r = bob.post(reverse("exams:save", args=[exam.pk]), json.dumps({"answers": {item.key: {"x": "1"}}}),
                 content_type="application/json")
    item.refresh_from_db()
    assert item.answer == {n: "31337" for n in right_answers(item)}
    assert r.status_code in (200, 400)


def test_students_cannot_see_staff_pages(exam, people):
    c = client_for(people["alice"])
    for url in (reverse("exams:results", args=[exam.pk]), reverse("exams:regrade", args=[exam.pk]),
                reverse("exams:export", args=[exam.pk, "canvas"]), reverse("exams:accommodations", args=[exam.pk]),
                reverse("exams:template_new", args=[exam.course_id]),
                reverse("exams:template_preview", args=[exam.course_id, exam.template_id])):
        assert c.get(url).status_code == 404, url


def test_outsider_sees_nothing(exam, people):
    """Someone outside the course gets the "not in this course" page (403, tests/exams/test_not_in_course.py)
    for the exam's pages, and nothing of the exam; its actions answer 404."""
    eve = client_for(people["eve"])
    for url in (reverse("exams:exam", args=[exam.pk]), reverse("exams:course", args=[exam.course_id])):
        r = eve.get(url)
        assert r.status_code == 403 and "Midterm" not in r.content.decode()
    assert eve.post(reverse("exams:start", args=[exam.pk])).status_code == 404
    assert not ExamAttempt.objects.filter(user=people["eve"]).exists()
    anon = client_for(people["eve"])
    anon.logout()
    assert anon.get(reverse("exams:exam", args=[exam.pk])).status_code == 302


def test_cannot_start_before_open(exam, people):
    exam.opens_at = timezone.now() + timedelta(hours=1)
    exam.closes_at = exam.opens_at + timedelta(hours=1)
    exam.save()
    c = client_for(people["alice"])
    c.post(reverse("exams:start", args=[exam.pk]))
    assert not ExamAttempt.objects.filter(user=people["alice"]).exists()
    assert "not opened" in c.get(reverse("exams:exam", args=[exam.pk])).content.decode()


def test_cannot_save_or_submit_kernel_after_deadline(exam, people):
    c = client_for(people["alice"])
    c.post(reverse("exams:start", args=[exam.pk]))
    a = ExamAttempt.objects.get(user=people["alice"])
    ExamAttempt.objects.filter(pk=a.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    q = a.items.filter(kind="question").first()
    r = c.post(reverse("exams:save", args=[exam.pk]), json.dumps({"answers": {q.key: right_answers(q)}}),
               content_type="application/json")
    assert r.status_code == 409
    q.refresh_from_db()
    assert q.answer == {}
    k = a.items.get(kind="kernel")
    r = c.post(reverse("exams:kernel", args=[exam.pk, k.number]), {"source": "__global__ void add() {}"})
    assert r.status_code in (302, 404, 409, 400)
    assert not k.submissions.exists()


def test_ta_of_course_a_has_no_rights_in_course_b(exam, people, kernel_problem):
    other = make_course("GPU202", "Other course")
    ta_b = User.objects.create_user("tb", "tb@example.org", PASSWORD)
    enrol(ta_b, other, "ta")
    ins_b = User.objects.create_user("ib", "ib@example.org", PASSWORD)
    enrol(ins_b, other, "instructor")
    a = start_attempt(exam, people["alice"])
    for user in (ta_b, ins_b):
        c = client_for(user)
        for url in (reverse("exams:results", args=[exam.pk]), reverse("exams:attempt_detail", args=[a.pk]),
                    reverse("exams:export", args=[exam.pk, "long"]),
                    reverse("exams:template_edit", args=[exam.course_id, exam.template_id])):
            assert c.get(url).status_code == 404, (user, url)
        # Course A's exam list: the "not in this course" page, which names nothing of it.
        listing = c.get(reverse("exams:course", args=[exam.course_id]))
        assert listing.status_code == 403 and "Midterm" not in listing.content.decode()
        assert c.post(reverse("exams:extend", args=[a.pk]), {"minutes": 30}).status_code == 404
        # Posting course A's template id under course B's URL finds nothing either.
        assert c.get(reverse("exams:template_edit", args=[other.pk, exam.template_id])).status_code == 404
    a.refresh_from_db()
    assert a.deadline == a.started_at + timedelta(minutes=30)
    # The TA of course A may extend; the TA may not schedule or export (instructor only).
    tom = client_for(people["tom"])
    assert tom.post(reverse("exams:extend", args=[a.pk]), {"minutes": 5}).status_code == 302
    assert tom.get(reverse("exams:export", args=[exam.pk, "canvas"])).status_code == 404
    assert tom.get(reverse("exams:results", args=[exam.pk])).status_code == 200


def test_exam_submission_details_hidden_until_release_unless_full_feedback(exam, people, not_sent):
    """With 'verdict' feedback the student's own exam submission has no result page or API detail, and
    it is not in their submission lists, until the results are released; 'full' shows the page."""
    # The API and the lists during the attempt: an exam that leaves the site open (with Exam.lockdown on
    # they are closed altogether, tests/exams/test_lockdown.py).
    exam.lockdown = False
    exam.save(update_fields=["lockdown"])
    a = start_attempt(exam, people["alice"])
    sub = submit_kernel(a.items.get(kind="kernel"), people["alice"], "__global__ void add() {}")
    c = client_for(people["alice"])
    assert c.get(sub.get_absolute_url()).status_code == 404
    assert c.get(f"/api/v1/submissions/{sub.pk}").status_code == 404
    assert str(sub.pk) not in c.get("/api/v1/submissions").content.decode()
    assert f"#{sub.pk}<" not in c.get(reverse("grader:list")).content.decode()
    exam.feedback = "full"
    exam.save()
    assert c.get(sub.get_absolute_url()).status_code == 200
    exam.feedback = "none"
    exam.results_release_at = timezone.now() - timedelta(seconds=1)
    exam.save()
    assert c.get(sub.get_absolute_url()).status_code == 404  # released, but her attempt still runs (exams.release)
    submit_attempt(a.pk, people["alice"])
    # ... and bob, who has not started, still may while the window is open (exams.release): then it closes.
    assert c.get(sub.get_absolute_url()).status_code == 404
    type(exam).objects.filter(pk=exam.pk).update(closes_at=timezone.now() - timedelta(seconds=1))
    assert c.get(sub.get_absolute_url()).status_code == 200


def test_exam_submission_page_for_the_exam_course_staff_only(exam, people, not_sent):
    """The exam course's TA reads a student's exam submission; a site instructor of another course does not."""
    from django.contrib.auth.models import Group

    a = start_attempt(exam, people["alice"])
    sub = submit_kernel(a.items.get(kind="kernel"), people["alice"], "__global__ void add() {}")
    other = User.objects.create_user("ob", "ob@example.org", PASSWORD)
    other.groups.add(Group.objects.get_or_create(name="Instructor")[0])
    enrol(other, make_course("GPU303", "Third"), "instructor")
    assert client_for(people["tom"]).get(sub.get_absolute_url()).status_code == 200
    assert client_for(other).get(sub.get_absolute_url()).status_code == 404
    assert client_for(other).get(f"/api/v1/submissions/{sub.pk}").status_code == 404
