"""An exam's review shows the worked solution's and the choices' inline Markdown rendered
(synchronization.classify's "*inside*" reached students with its asterisks, synchronization.ballot's
choices their backticks), in English and Korean."""
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import start_attempt, submit_attempt
from exams.core.draw import question_variant

from .conftest import client_for, release_results

pytestmark = pytest.mark.django_db


def test_the_review_renders_the_worked_solution(exam, people):
    attempt = start_attempt(exam, people["alice"])
    first, second = attempt.items.filter(kind="question").order_by("number")[:2]
    first.data = {**first.data, "question": question_variant("synchronization.classify", 1, 4)}
    second.data = {**second.data, "question": question_variant("synchronization.ballot", 2, 4)}
    for item in (first, second):
        item.save(update_fields=["data"])
    submit_attempt(attempt.pk, people["alice"])
    release_results(exam)
    c = client_for(people["alice"])
    en = c.get(reverse("exams:result", args=[exam.pk])).content.decode()
    ko = c.get(reverse("exams:result", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "<em>inside</em>" in en and "*inside*" not in en
    assert "<em>안에</em>" in ko and "*안에*" not in ko
    for html in (en, ko):
        assert re.search(r'<label class="option">.*?<code>lane [^<]+</code>', html, re.S)
        assert re.search(r"<strong>[^<]*<code>lane [^<]+</code>", html)  # the key of the choice
