"""What a new-user test found: the results page names items by title (not slot ids), the histogram's
texts fit inside the chart, and an accommodation can be deleted."""
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import save_answers, start_attempt, submit_attempt
from exams.actions.scheduling import set_accommodation
from exams.core.stats import FONT, histogram, histogram_svg
from exams.models import Accommodation, ExamAttempt
from practice.core.questions import family

from .conftest import client_for, right_answers

pytestmark = pytest.mark.django_db


def finish(exam, people):
    for name in ("alice", "bob"):
        a = start_attempt(exam, people[name])
        save_answers(a.pk, people[name], {q.key: right_answers(q) for q in a.items.filter(kind="question")})
        submit_attempt(a.pk, people[name])


def test_results_name_parts_and_items_by_title(exam, people, kernel_problem):
    finish(exam, people)
    html = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk])).content.decode()
    stats = html[html.index('id="item-stats"'):]
    assert "<code>z0." not in stats and "<code>z1." not in stats  # no raw slot ids shown
    keys = set(re.findall(r'data-slot="(z\d\.p\d)"', stats))
    drawn = {i.key: i for i in ExamAttempt.objects.get(user=people["alice"]).items.all()}
    assert keys and keys <= set(drawn) | {f"z0.p{i}" for i in range(3)}
    for key in keys & set(drawn):
        item = drawn[key]
        title = family(item.data["question"]["family"]).title["en"] if item.kind == "question" else kernel_problem.title
        row = stats[stats.index(f'data-slot="{key}"'):].split("</tr>")[0]
        assert title in row and ("Questions" in row or "Kernel" in row)
    korean = client_for(people["ivy"]).get(reverse("exams:results", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE="ko")
    assert kernel_problem.title_ko in korean.content.decode()


def test_histogram_texts_fit_in_the_view_box():
    h = histogram([0, 1, 9.9, 10, 10, 10, 55.5, 80, 99, 100], 100, bins=10)
    svg = histogram_svg(h, label="Scores <all>", x_label="Total score (points)", y_label="Students")
    width, height = map(float, re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).groups())
    assert "<all>" not in svg and "&lt;all&gt;" in svg
    texts = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg)
    assert any(t == "Total score (points)" for *_xy, t in texts) and "Students" in svg
    for x, y, text in texts:
        assert FONT <= float(y) <= height - 2, (x, y, text)  # the tallest bar's count is not cut off at the top
        assert 0 <= float(x) <= width, (x, y, text)
    assert any(t == "100" for *_xy, t in texts)  # the maximum is printed


def test_instructor_deletes_an_accommodation(exam, people):
    set_accommodation(exam, people["alice"], 15)
    acc = set_accommodation(exam, people["bob"], 30)
    ivy = client_for(people["ivy"])
    page = ivy.get(reverse("exams:accommodations", args=[exam.pk])).content.decode()
    assert f'id="delete-accommodation-{acc.pk}"' in page
    url = reverse("exams:accommodation_delete", args=[exam.pk, acc.pk])
    assert client_for(people["tom"]).post(url).status_code in (403, 404)  # a TA cannot
    assert Accommodation.objects.filter(pk=acc.pk).exists()
    assert ivy.get(url).status_code == 405
    response = ivy.post(url, follow=True)
    assert response.status_code == 200 and "Accommodation of bob removed." in response.content.decode()
    assert list(Accommodation.objects.filter(exam=exam).values_list("user__username", flat=True)) == ["alice"]
    assert ivy.post(url).status_code == 404  # gone
    # Bob now gets the exam's own deadline.
    attempt = start_attempt(exam, people["bob"])
    assert attempt.deadline <= attempt.started_at + timedelta(minutes=exam.duration_minutes, seconds=1)


def test_deleting_after_the_start_keeps_the_deadline_and_says_so(exam, people):
    acc = set_accommodation(exam, people["alice"], 20)
    attempt = start_attempt(exam, people["alice"])
    ivy = client_for(people["ivy"])
    html = ivy.post(reverse("exams:accommodation_delete", args=[exam.pk, acc.pk]), follow=True,
                    HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "응시 편의 조정을 삭제했습니다" in html and "마감 시각을 그대로 유지합니다" in html
    attempt.refresh_from_db()
    assert attempt.deadline > timezone.now() + timedelta(minutes=exam.duration_minutes + 10)


def test_another_exams_accommodation_is_a_404(exam, people, course):
    from exams.models import Exam

    other = Exam.objects.create(course=course, template=exam.template, title="Other", spec=exam.spec,
                                opens_at=exam.opens_at, closes_at=exam.closes_at, duration_minutes=10)
    acc = set_accommodation(other, people["alice"], 5)
    assert client_for(people["ivy"]).post(
        reverse("exams:accommodation_delete", args=[exam.pk, acc.pk])).status_code == 404
    assert Accommodation.objects.filter(pk=acc.pk).exists()
