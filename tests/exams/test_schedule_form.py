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
