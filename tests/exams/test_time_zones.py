"""Dates and times: the tester found "closes 2026-12-05 20:08" on the course page and "Dec. 5, 2026,
8:08 p.m." on the exam page, no time zone anywhere a student looked, and only the exam schedule form
naming one (UTC, where Korean users expect KST). Now every page writes "2026-12-05 20:08 KST" in the
reader's zone (the browser's, from the wd_tz cookie; else settings.TIME_ZONE), and every form that takes
a time says which zone it reads them in."""
import re
from datetime import timedelta
from datetime import timezone as dt_timezone
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.timestamps import stamps

from .conftest import client_for

pytestmark = pytest.mark.django_db
STAMP = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} (KST|UTC)"
ROOT = Path(__file__).resolve().parents[2]


def in_zone(client, zone):
    if zone:
        client.cookies["wd_tz"] = zone
    return client


@pytest.mark.parametrize("cookie, zone, abbr", [("Asia/Seoul", "Asia/Seoul", "KST"), (None, "UTC", "UTC"),
                                                ("Mars/Olympus", "UTC", "UTC")])
def test_the_course_page_and_the_exam_page_write_the_close_alike_with_the_zone(exam, people, cookie, zone, abbr):
    from accounts.core.times import format_when, zone_named

    closes = format_when(exam.closes_at, zone_named(zone))
    assert closes.endswith(" " + abbr)
    alice = in_zone(client_for(people["alice"]), cookie)
    course_page = alice.get(reverse("courses:course", args=[exam.course.code])).content.decode()
    exam_page = alice.get(reverse("exams:exam", args=[exam.pk])).content.decode()
    assert closes in course_page and closes in exam_page
    assert "p.m." not in exam_page and "a.m." not in exam_page
    korean = alice.get(reverse("exams:exam", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert closes in korean


@pytest.mark.parametrize("lang, words", [
    ("en", "Times are in the Asia/Seoul time zone (KST), your browser&#x27;s."),
    ("ko", "시간은 Asia/Seoul 시간대(KST, 브라우저 설정) 기준입니다.")])
def test_every_form_that_takes_a_time_names_its_zone(exam, people, lang, words):
    ivy = in_zone(client_for(people["ivy"]), "Asia/Seoul")
    for url in (reverse("exams:exam_new", args=[exam.course_id]), reverse("exams:exam_edit", args=[exam.course_id, exam.pk]),
                reverse("exams:accommodations", args=[exam.pk]), reverse("homework:sets", args=[exam.course.code])):
        page = ivy.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert 'type="datetime-local"' in page and words in page, url


def test_a_time_typed_in_a_form_is_read_in_the_readers_zone(exam, people):
    """20:00 typed by an instructor whose browser is in Seoul is 11:00 UTC."""
    from homework.models import ProblemSet

    ivy = in_zone(client_for(people["ivy"]), "Asia/Seoul")
    r = ivy.post(reverse("homework:sets", args=[exam.course.code]),
                 {"title_en": "Week 1", "opens_at": "2026-12-05T20:00", "due_at": "2026-12-12T20:00",
                  "late_policy": "none"})
    assert r.status_code == 302, r.content.decode()[:2000]
    s = ProblemSet.objects.get(title_en="Week 1")
    assert s.opens_at.astimezone(dt_timezone.utc).strftime("%Y-%m-%d %H:%M") == "2026-12-05 11:00"
    page = ivy.get(reverse("homework:sets", args=[exam.course.code])).content.decode()
    assert "2026-12-05 20:00 KST" in page


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_staff_pages_of_an_attempt_write_times_in_the_one_format(exam, people, lang):
    """The attempt's staff tools, its timeline and the results table write "2026-12-05 20:08 KST": the
    tester read "20:08:05 KST" (time only, with seconds) in the timeline and the results table."""
    from accounts.core.times import format_when, zone_named
    from exams.actions.attempts import start_attempt, submit_attempt

    attempt = start_attempt(exam, people["alice"])
    submit_attempt(attempt.pk, people["alice"])
    attempt.refresh_from_db()
    seoul = zone_named("Asia/Seoul")
    ivy = in_zone(client_for(people["ivy"]), "Asia/Seoul")
    page = ivy.get(reverse("exams:attempt_detail", args=[attempt.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert len(stamps(page)) >= 4
    tools = page[page.index('id="staff-tools"'):].split("</section>")[0]
    assert len(re.findall(STAMP, tools)) >= 2 and "p.m." not in tools and "a.m." not in tools
    timeline = page[page.index('id="timeline"'):]
    started = format_when(attempt.started_at, seoul)
    assert re.search(rf"<time [^>]*>{started}</time>", timeline)
    results = ivy.get(reverse("exams:results", args=[exam.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f"<td>{started}</td>" in results and f"<td>{format_when(attempt.deadline, seoul)}</td>" in results
    stamps(results)


def test_a_save_after_the_deadline_names_it_in_the_one_format(exam, people):
    """The "Time is up" answer to a late save names the deadline as pages do (it said "20:38:05 KST")."""
    from accounts.core.times import format_when, zone_named
    from exams.actions.attempts import start_attempt
    from exams.models import ExamAttempt

    attempt = start_attempt(exam, people["alice"])
    ExamAttempt.objects.filter(pk=attempt.pk).update(deadline=timezone.now() - timedelta(minutes=2))
    attempt.refresh_from_db()
    alice = in_zone(client_for(people["alice"]), "Asia/Seoul")
    key = attempt.items.first().key
    r = alice.post(reverse("exams:save", args=[exam.pk]), {"answers": {key: {"x": "1"}}},
                   content_type="application/json")
    assert r.status_code == 409
    assert format_when(attempt.deadline, zone_named("Asia/Seoul")) in r.json()["error"]


# The ways a template could write a date or time its own way: Django's date and time filters, relative
# times, the humanize library, the {% now %} tag, and the `when` filter with a precision of its own.
OWN_WAY = re.compile(r"\|(date|time)(?![a-z_])(:\s*(\"[^\"]*\"|'[^']*'))?"
                     r"|\|(timesince|timeuntil|naturaltime|naturalday)\b|\{%\s*now\b|\{%\s*load[^%]*\bhumanize\b"
                     r"|\|when:")


def test_no_template_formats_a_date_its_own_way():
    """One format site-wide: templates write dates with the `when` filter; `|date` only for the
    machine-readable ISO form of a <time datetime=…> ('c'); no |time, no "5 minutes ago", no
    {% now %}, no precision of `when`'s own."""
    found = []
    for path in (ROOT / "templates").rglob("*.html"):
        for m in OWN_WAY.finditer(path.read_text()):
            if not (m.group(1) == "date" and m.group(3) in ("'c'", '"c"')):
                found.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    assert not found, found


def test_the_guard_catches_each_way():
    """The guard above is no guard if its pattern misses: each of these is caught, the ISO one is not."""
    for bad in ('{{ a|date:"Y-m-d" }}', "{{ a|time }}", "{{ a|time:'H:i' }}", "{{ a|timesince }}", "{{ a|naturaltime }}",
                "{% now 'Y' %}", "{% load humanize %}", '{{ a|when:"seconds" }}', "{{ a|date }}"):
        assert OWN_WAY.search(bad), bad
    assert all(m.group(3) == "'c'" for m in OWN_WAY.finditer("<time datetime=\"{{ a|date:'c' }}\">{{ a|when }}</time>"))


PAGE_PYTHON = [p for p in ROOT.glob("*/**/*.py") if p.parts[len(ROOT.parts)] not in
               {"tests", "bench", ".venv", "node_modules", "cli", "platform", "var"} and "migrations" not in p.parts]


def test_python_writes_times_for_people_through_the_one_format():
    """Python that builds a page's sentence or label writes times with accounts.timezones.when: no
    strftime or f"{at:%H:%M}" outside accounts/core/times.py (ISO 8601 for CSV, JSON and logs is
    isoformat, which is allowed)."""
    assert len(PAGE_PYTHON) > 100
    own = re.compile(r"\.strftime\(|\{[^{}\n]*:%[a-zA-Z]")
    found = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in PAGE_PYTHON if p != ROOT / "accounts" / "core" / "times.py"
             for m in own.finditer(p.read_text())]
    assert not found, found


def test_scripts_write_times_through_the_one_format():
    """The page's scripts write times with WarpDrill.formatWhen (static/js/timezone.js), not with the
    browser's locale (toLocaleTimeString gave "4:12:27 PM") or hours and minutes of their own."""
    own = re.compile(r"toLocale(Date|Time)?String|\.get(UTC)?(Hours|Minutes|Seconds)\(|Intl\.DateTimeFormat")
    scripts = [*(ROOT / "static" / "js").glob("*.js"), *(ROOT / "static" / "src").glob("*.js")]
    found = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in scripts if p.name != "timezone.js"
             for m in own.finditer(p.read_text())]
    assert not found, found
