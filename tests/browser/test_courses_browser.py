"""An instructor creates a course and an invite in a real browser; a new student follows the invite
link, signs up on the way, and joins; a second student types the code; the instructor sees both.

Debian's Chromium driven by Playwright against pytest-django's live server.
"""
from __future__ import annotations

import os
import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = os.environ.get("WARPDRILL_SCREENSHOTS")  # a folder to save screenshots in, when set


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_instructor_creates_a_course_and_an_invite_and_students_join(live_server, browser, django_user_model,
                                                                      log_in):
    from courses.models import Course, Membership, Role

    base = live_server.url
    django_user_model.objects.create_user(username="prof", password="prof-pass-123", is_staff=True)
    django_user_model.objects.create_user(username="lee", password="lee-pass-12345")
    errors: list[str] = []

    # The instructor: Courses in the header, New course, the form, then the management page.
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    teacher.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(teacher, "prof", "prof-pass-123")
    teacher.click("header nav a:has-text('Courses')")
    teacher.wait_for_url(f"{base}/courses/")
    teacher.click("text=New course")
    teacher.fill("input[name=name]", "CUDA Programming")
    teacher.fill("input[name=code]", "CUDA-2027S")
    teacher.fill("input[name=term]", "Spring 2027")
    teacher.select_option("select[name=language]", "ko")
    teacher.select_option("select[name=target_cc]", "8.6")
    teacher.click("main button[type=submit]")
    teacher.wait_for_url(f"{base}/courses/CUDA-2027S/manage/")
    assert Membership.objects.get(course__code="CUDA-2027S", user__username="prof").role == Role.INSTRUCTOR

    # An invite for at most 5 students, lasting 7 days.
    teacher.fill("input[name=days]", "7")
    teacher.fill("input[name=max_uses]", "5")
    teacher.click("form.invite-form button[type=submit]")
    teacher.wait_for_url(re.compile(r".*/courses/CUDA-2027S/manage/#invites$"))
    code = teacher.locator("code.invite-code").first.inner_text().strip()
    link = teacher.locator("input.invite-link").first.input_value()
    assert link == f"{base}/courses/join/{code}/"
    assert teacher.locator("tr.invite td.num").first.inner_text().strip() == "0 / 5"
    shot(teacher, "courses-manage")

    # A new student opens the link logged out: it names the course and offers Sign up and Log in. The
    # sign-up page names the course too, and the new account joins it at once.
    kim = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    kim.on("pageerror", lambda exc: errors.append(str(exc)))
    kim.goto(link)
    assert "CUDA Programming" in kim.locator("main").inner_text()
    assert kim.locator("#join-login").get_attribute("href") == f"/accounts/login/?next=/courses/join/{code}/"
    shot(kim, "courses-join-logged-out")
    kim.click("#join-signup")
    kim.wait_for_url(re.compile(r".*/accounts/signup/\?next="))
    assert "CUDA Programming" in kim.locator("#invite-banner").inner_text()
    kim.fill("input[name=username]", "kim")
    kim.fill("input[name=password1]", "a-Long-student-pass-9")
    kim.fill("input[name=password2]", "a-Long-student-pass-9")
    shot(kim, "courses-signup-with-invite")
    kim.click("main button[type=submit]")
    kim.wait_for_url(f"{base}/courses/CUDA-2027S/")
    main = kim.locator("main").inner_text()
    assert "CUDA Programming" in main and "student" in main and "8.6" in main
    assert "Manage" not in main  # students do not manage
    shot(kim, "courses-course")

    # Another student types the code (lower case, with a space) on the join form.
    lee = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    lee.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(lee, "lee", "lee-pass-12345", "/courses/")
    lee.click("main a:has-text('Join a course')")
    lee.fill("input[name=code]", f"{code[:5].lower()} {code[5:].lower()}")
    lee.click("main button[type=submit]")
    lee.wait_for_url(f"{base}/courses/join/{code}/")
    lee.click("main button:has-text('Join the course')")
    lee.wait_for_url(f"{base}/courses/CUDA-2027S/")
    lee.goto(f"{base}/courses/")
    assert "CUDA Programming" in lee.locator("main").inner_text()
    shot(lee, "courses-home")

    # The instructor sees both students and two uses of the invite.
    teacher.reload()
    members = teacher.locator("table.members-table").inner_text()
    assert "kim" in members and "lee" in members
    assert teacher.locator("tr.invite td.num").first.inner_text().strip() == "2 / 5"
    course = Course.objects.get(code="CUDA-2027S")
    assert sorted(course.memberships.filter(role=Role.STUDENT).values_list("user__username", flat=True)) == ["kim", "lee"]
    assert errors == []
