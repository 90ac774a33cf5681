"""The "Schedule an exam" form: labels as in every other form (no colons), the time zone named, the
template list in the page's language, the attempts' default told, the course's breadcrumb; en+ko."""
import re

import pytest
from django.urls import reverse

from exams.actions.scheduling import save_template

from .conftest import TEMPLATE, client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, title, zone, attempts", [
    ("en", "Midterm", "Times are in the UTC time zone (UTC), the site&#x27;s.", "1 if not given"),
    ("ko", "중간고사", "시간은 UTC 시간대(UTC, 사이트 기본값) 기준입니다.", "정하지 않으면 1번"),
])
def test_schedule_form(course, people, kernel_problem, language, title, zone, attempts):
    template = save_template(course, people["ivy"], TEMPLATE)
    ivy = client_for(people["ivy"])
    html = ivy.get(reverse("exams:exam_new", args=[course.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    labels = re.findall(r"<label for=\"id_[a-z_]+\">([^<]*)</label>", html)
    assert len(labels) >= 8 and not [label for label in labels if label.rstrip().endswith(":")], labels
    assert zone in html and attempts in html
    assert re.search(rf'<option value="{template.pk}"[^>]*>{title}</option>', html)
    assert 'type="datetime-local"' in html and ("템플릿 선택" if language == "ko" else "Choose a template") in html
    page = ivy.get(reverse("exams:course", args=[course.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert reverse("courses:course", args=[course.code]) in page and f"<li>{title} —" in page


@pytest.mark.parametrize("language, label", [("en", "Close the rest of the site during an attempt"),
                                             ("ko", "응시 중 사이트의 다른 페이지 닫기")])
def test_the_form_offers_exam_mode_on_by_default(exam, people, language, label):
    """The schedule and edit forms have the exam-mode checkbox (Exam.lockdown), ticked for a new exam, with its
    help; unticking it on the edit form leaves the site open during the exam's attempts."""
    from django.utils import timezone

    ivy = client_for(people["ivy"])
    new = ivy.get(reverse("exams:exam_new", args=[exam.course_id]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<label for="id_lockdown">{label}</label>' in new
    assert re.search(r'<input type="checkbox" name="lockdown"[^>]* id="id_lockdown" checked>', new)
    assert ("교수자와 조교는 제한되지 않습니다" if language == "ko" else "Course staff are never locked out") in new

    def local(at):
        return timezone.localtime(at).strftime("%Y-%m-%dT%H:%M")

    edit = reverse("exams:exam_edit", args=[exam.course_id, exam.pk])
    fields = {"template": exam.template_id, "title": exam.title, "opens_at": local(exam.opens_at),
              "closes_at": local(exam.closes_at), "duration_minutes": exam.duration_minutes, "feedback": exam.feedback}
    assert ivy.post(edit, fields).status_code == 302
    exam.refresh_from_db()
    assert exam.lockdown is False
    assert 'id="id_lockdown" checked' not in ivy.get(edit).content.decode()
    assert ivy.post(edit, {**fields, "lockdown": "on"}).status_code == 302
    exam.refresh_from_db()
    assert exam.lockdown is True
