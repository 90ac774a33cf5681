"""Times in the reader's own zone, named, in a real browser: a browser in Seoul sends its zone
(static/js/timezone.js) from the first page it opens, so after logging in the exam page, the course
page and the schedule form all speak KST (the tester saw UTC without a word about it), and a time
typed into the schedule form means Seoul's clock."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize("lang, note", [("en", "Times are in the Asia/Seoul time zone (KST), your browser's."),
                                        ("ko", "시간은 Asia/Seoul 시간대(KST, 브라우저 설정) 기준입니다.")])
def test_a_browser_in_seoul_reads_and_writes_kst(live_server, browser, log_in, started_exam, lang, note):
    from zoneinfo import ZoneInfo

    from accounts.core.times import format_when

    exam, attempt = started_exam()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=lang, timezone_id="Asia/Seoul",
                                  extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    log_in(page, "alice", next_path=f"/exams/{exam.pk}/attempt/")  # the exam closes the rest of the site
    assert {c["name"]: c["value"] for c in context.cookies()}.get("wd_tz") == "Asia/Seoul"
    closes = format_when(exam.closes_at, ZoneInfo("Asia/Seoul"))
    assert closes.endswith(" KST")
    page.goto(f"{live_server.url}/exams/{exam.pk}/")
    assert closes in page.inner_text("#exam-page")
    # The menu, which offers only the exam, says when the attempt ends.
    assert format_when(attempt.deadline, ZoneInfo("Asia/Seoul")) in page.inner_text("#nav-exam-until")
    type(exam).objects.filter(pk=exam.pk).update(lockdown=False)  # the course page: an exam that leaves the site open
    page.goto(f"{live_server.url}/courses/{exam.course.code}/")  # lists alice's own deadline
    assert format_when(attempt.deadline, ZoneInfo("Asia/Seoul")) in page.inner_text("main")

    # The instructor, also in Seoul, schedules an exam at 20:00 on the form, which says whose clock that is.
    teacher = context.browser.new_context(locale=lang, timezone_id="Asia/Seoul",
                                          extra_http_headers={"Accept-Language": lang}).new_page()
    log_in(teacher, "ivy")
    teacher.goto(f"{live_server.url}/exams/course/{exam.course_id}/schedule/")
    assert teacher.inner_text("#time-zone") == note
    teacher.select_option("#id_template", index=1)
    teacher.fill("#id_title", "Quiz KST")
    teacher.fill("#id_opens_at", "2031-03-02T20:00")
    teacher.fill("#id_closes_at", "2031-03-02T22:00")
    teacher.fill("#id_duration_minutes", "60")
    teacher.click("#save-exam")
    teacher.wait_for_url(re.compile(r".*/exams/\d+/results/$"))
    from exams.models import Exam

    scheduled = Exam.objects.get(title="Quiz KST")
    assert scheduled.opens_at.isoformat().startswith("2031-03-02T11:00")  # 20:00 KST is 11:00 UTC
    teacher.goto(f"{live_server.url}/exams/{scheduled.pk}/")
    assert "2031-03-02 20:00 KST" in teacher.inner_text("#exam-page")


@pytest.mark.parametrize("zone", ["Europe/Berlin", "Asia/Kathmandu", "America/New_York"])
def test_the_pages_script_writes_a_time_as_the_server_does(live_server, browser, transactional_db, zone):
    """WarpDrill.formatWhen (static/js/timezone.js) in the browser's zone, winter and summer, is what
    accounts.core.times writes ("2026-07-01 12:00 CEST", where Intl alone says "GMT+2")."""
    from datetime import datetime, timezone
    from zoneinfo import ZoneInfo

    from accounts.core.times import format_when

    page = browser.new_context(locale="en-US", timezone_id=zone).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.reload()  # the zone's cookie was set by the first page: this one is in the browser's zone
    # The browser's own name for the zone (Chromium says Asia/Katmandu), as the server was told it.
    named = page.evaluate("() => Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert page.evaluate("() => document.documentElement.dataset.tz") == named
    assert ZoneInfo(named).utcoffset(datetime(2026, 1, 15)) == ZoneInfo(zone).utcoffset(datetime(2026, 1, 15))
    for moment in (datetime(2026, 1, 15, 10, 0, tzinfo=timezone.utc), datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)):
        written = page.evaluate("(iso) => WarpDrill.formatWhen(iso)", moment.isoformat())
        assert written == format_when(moment, ZoneInfo(zone))
    assert page.evaluate("() => WarpDrill.formatWhen(null)") == ""
