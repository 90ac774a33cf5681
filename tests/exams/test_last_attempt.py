"""A kernel item says how many attempts are left and, on its last one, that it is the last; the page
carries the confirmation texts (en+ko) and the starter code that exam.js compares the source with."""
import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import start_attempt
from exams.actions.scheduling import save_template, schedule_exam

from .conftest import TEMPLATE, client_for

pytestmark = pytest.mark.django_db


def one_attempt_exam(course, people):
    template = dict(TEMPLATE, zones=[{"title": "Kernel", "pool": [{"kernel": "tiny-add", "attempts": 1}]}])
    template = save_template(course, people["ivy"], template)
    now = timezone.now()
    return schedule_exam(course, template, opens_at=now - timedelta(minutes=5),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)


@pytest.mark.parametrize("language, last, confirm", [
    ("en", "This is your last attempt.", "This is your last attempt at this kernel"),
    ("ko", "마지막 시도입니다.", "이 커널의 마지막 시도입니다"),
])
def test_the_last_attempt_is_named_on_the_item_and_the_kernel_page(course, people, kernel_problem,
                                                                    language, last, confirm):
    exam = one_attempt_exam(course, people)
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    alice = client_for(people["alice"])
    overview = alice.get(reverse("exams:attempt", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert last in overview
    page = alice.get(reverse("exams:kernel", args=[exam.pk, item.number]), HTTP_ACCEPT_LANGUAGE=language)
    html = page.content.decode()
    assert 'data-attempts-left="1"' in html and last in html and confirm in html
    starter = re.search(r'<script id="kernel-starter" type="application/json">(.*?)</script>', html, re.S)
    assert starter and json.loads(starter.group(1))[0].strip() == page.context["starters"][0].strip() != ""


def test_no_last_attempt_notice_while_more_are_left(course, people, kernel_problem):
    template = save_template(course, people["ivy"], TEMPLATE)  # attempt_points [10, 7, 5]: 3 attempts
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=5),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    html = client_for(people["alice"]).get(reverse("exams:kernel", args=[exam.pk, item.number])).content.decode()
    assert 'data-attempts-left="3"' in html and 'id="last-attempt"' not in html
