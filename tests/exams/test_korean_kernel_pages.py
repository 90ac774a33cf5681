"""Korean pages say 커널 (docs/content.md, "Korean wording"): the tester read "Kernel 문제" on the home
page, "커널 문제" on a problem set, "내 KERNEL" and "kernel 편집기 열기" on the exam pages. Each page here is
read as a Korean student or instructor reads it (its text, without code, scripts and attribute values)
and holds no English "kernel" word; tests/architecture/test_korean_kernel_word.py reads the catalogue
and the content."""
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt

from .conftest import client_for

pytestmark = pytest.mark.django_db
ENGLISH_WORD = re.compile(r"(?<![A-Za-z_.%(/])kernels?(?![A-Za-z_(<.])", re.I)


class _VisibleText(HTMLParser):
    """The text a reader sees: no <script>, <style>, <code>, <pre>, <textarea> and no attributes."""

    HIDDEN = {"script", "style", "code", "pre", "textarea", "title"}

    def __init__(self):
        super().__init__()
        self.depth, self.parts = 0, []

    def handle_starttag(self, tag, attrs):
        self.depth += tag in self.HIDDEN

    def handle_endtag(self, tag):
        self.depth -= tag in self.HIDDEN and self.depth > 0

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)


def english_kernel_words(page: str) -> list[str]:
    parser = _VisibleText()
    parser.feed(page)
    text = " ".join(parser.parts)
    return [text[max(0, m.start() - 30):m.end() + 30] for m in ENGLISH_WORD.finditer(text)]


@pytest.fixture
def exam(course, people, kernel_problem):
    """The exams tests' exam, its zones titled in both languages (a title is the author's own words)."""
    from datetime import timedelta

    from django.utils import timezone

    from exams.actions.scheduling import save_template, schedule_exam

    from .conftest import TEMPLATE

    zones = [{**TEMPLATE["zones"][0], "title": {"en": "Questions", "ko": "문제"}},
             {**TEMPLATE["zones"][1], "title": {"en": "Kernel", "ko": "커널"}}]
    template = save_template(course, people["ivy"], {**TEMPLATE, "zones": zones})
    now = timezone.now()
    return schedule_exam(course, template, opens_at=now - timedelta(minutes=5), closes_at=now + timedelta(hours=1),
                         duration_minutes=30)


def test_korean_exam_pages_say_keoneol(exam, people):
    # The site's other pages during the attempt: an exam that leaves them open (Exam.lockdown off).
    exam.lockdown = False
    exam.save(update_fields=["lockdown"])
    attempt = start_attempt(exam, people["alice"])
    kernel = attempt.items.get(kind="kernel")
    pages = {
        "alice": ["/", reverse("problems:list"), reverse("exams:exam", args=[exam.pk]),
                  reverse("exams:attempt", args=[exam.pk]), reverse("exams:kernel", args=[exam.pk, kernel.number]),
                  reverse("playground:home"), reverse("grader:list")],
        "ivy": [reverse("exams:course", args=[exam.course_id]), reverse("exams:results", args=[exam.pk]),
                reverse("exams:regrade", args=[exam.pk]), reverse("exams:attempt_detail", args=[attempt.pk]),
                reverse("exams:template_edit", args=[exam.course_id, exam.template_id]),
                reverse("exams:template_preview", args=[exam.course_id, exam.template_id])],
    }
    found = {}
    for who, urls in pages.items():
        client = client_for(people[who])
        for url in urls:
            response = client.get(url, HTTP_ACCEPT_LANGUAGE="ko")
            assert response.status_code == 200, url
            if words := english_kernel_words(response.content.decode()):
                found[url] = words
    assert not found, found
    kernel_page = client_for(people["alice"]).get(reverse("exams:kernel", args=[exam.pk, kernel.number]),
                                                  HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "내 커널" in kernel_page
    attempt_page = client_for(people["alice"]).get(reverse("exams:attempt", args=[exam.pk]),
                                                   HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "커널 편집기 열기" in attempt_page


def test_the_check_reads_what_a_reader_sees():
    assert english_kernel_words("<h2>Kernel 문제</h2>") and english_kernel_words("<p>내 kernel</p>")
    assert not english_kernel_words('<a title="kernel">커널</a><code>kernel</code><pre>kernel<<<1, 1>>>()</pre>')
