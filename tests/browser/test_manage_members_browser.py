"""The course management page's members table in a real browser at 1280 px: in Korean the role form's
변경 button and the 제거 link keep their label on one line (CJK text may break between any two
syllables, so a squeezed button used to stack one character per line)."""
from __future__ import annotations

import os

import pytest

from tests.browser.conftest import PASSWORD

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("WARPDRILL_SCREENSHOTS")  # a folder to save screenshots in, when set


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_member_buttons_keep_their_label_on_one_line(live_server, browser, log_in, transactional_db, lang):
    """Every members-table button is one line high (wider than it is tall) and inside its cell, beside the
    role menu, which keeps its width."""
    from django.contrib.auth.models import User

    from accounts.profiles import set_identity
    from courses.models import Course, Membership, Role

    course = Course.objects.create(name="병렬 프로그래밍", code="PP-W")
    ivy = User.objects.create_user("ivy", "ivy@example.org", PASSWORD)
    Membership.objects.create(course=course, user=ivy, role=Role.INSTRUCTOR)
    for i in range(3):
        student = User.objects.create_user(f"student-with-a-long-username-{i}", password=PASSWORD)
        set_identity(student, full_name="김민준 Kim Minjun-Alexander", student_id=f"20261234{i}",
                     email=f"a.rather.long.email.address.{i}@graduate-school.university.example.ac.kr")
        Membership.objects.create(course=course, user=student, role=Role.STUDENT)
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale=lang,
                            extra_http_headers={"Accept-Language": lang})
    log_in(page, "ivy")
    page.goto(f"{live_server.url}/courses/PP-W/manage/")
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"manage-members-{lang}.png"), full_page=True)
    buttons = page.locator(".members-table .btn")
    assert buttons.count() == 2 * 4
    for i in range(buttons.count()):
        button = buttons.nth(i)
        box = button.bounding_box()
        line = page.evaluate("(el) => parseFloat(getComputedStyle(el).lineHeight)", button.element_handle())
        label = button.inner_text()
        assert box["height"] < 1.5 * line + 12, (label, box)  # one line plus its padding and border
        assert box["width"] > box["height"], (label, box)
        cell = button.locator("xpath=ancestor::td[1]").bounding_box()
        assert cell["x"] <= box["x"] and box["x"] + box["width"] <= cell["x"] + cell["width"], (label, box, cell)
    for select in page.locator(".members-table select").all():  # the menu shows its whole label
        assert select.evaluate("(el) => el.scrollWidth <= el.clientWidth")
        cell = select.locator("xpath=ancestor::td[1]").bounding_box()
        box = select.bounding_box()
        assert box["x"] + box["width"] <= cell["x"] + cell["width"], (box, cell)
