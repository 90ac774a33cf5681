"""A jump to a section stops below the sticky site header, and the message of what was just done is in
view: after "Create invite" the management page opened at #invites with the header over the section's
heading and "Invite … created." scrolled out of view at the page's top."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _course(django_user_model):
    from courses.models import Course, Membership, Role

    prof = django_user_model.objects.create_user(username="prof", password="pass-1234-word")
    course = Course.objects.create(name="병렬 프로그래밍", code="GPU-T4")
    Membership.objects.create(course=course, user=prof, role=Role.INSTRUCTOR)
    for n in range(12):  # a long member list puts the invites section well below the fold
        user = django_user_model.objects.create_user(username=f"student{n:02d}")
        Membership.objects.create(course=course, user=user, role=Role.STUDENT)
    return course


def _below_header(page, selector: str) -> tuple[float, float, float]:
    """(header's bottom, the element's top, the viewport's height) in CSS pixels."""
    return page.evaluate("""(sel) => {
        const header = document.querySelector('.site-header').getBoundingClientRect();
        const el = document.querySelector(sel).getBoundingClientRect();
        return [header.bottom, el.top, window.innerHeight];
    }""", selector)


@pytest.mark.parametrize("width", [1280, 900])  # 900: the header's links wrap to a second row
def test_create_invite_lands_below_the_header_with_its_message_in_view(live_server, browser, django_user_model,
                                                                      log_in, width):
    _course(django_user_model)
    page = browser.new_context(viewport={"width": width, "height": 700}, locale="ko-KR").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "prof", next_path="/courses/GPU-T4/manage/")
    page.click("form.invite-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/courses/GPU-T4/manage/#invites$"))
    page.wait_for_timeout(300)  # the jump and the header's measure settle
    header_bottom, heading_top, height = _below_header(page, "#invites-title")
    assert header_bottom <= heading_top < height
    header_bottom, message_top, height = _below_header(page, "#invites .section-messages .alert-success")
    assert header_bottom <= message_top < height
    assert re.search(r"Invite \w+ created\.|초대", page.inner_text("#invites .section-messages"))
    assert page.locator(".container.messages").count() == 0  # not also at the top
    assert not errors


def test_a_link_to_a_fragment_stops_below_the_header(live_server, browser, django_user_model, log_in):
    _course(django_user_model)
    page = browser.new_context(viewport={"width": 1280, "height": 600}).new_page()
    log_in(page, "prof", next_path="/courses/GPU-T4/manage/")
    page.goto(f"{live_server.url}/courses/GPU-T4/manage/#roster")
    page.wait_for_timeout(300)
    header_bottom, top, height = _below_header(page, "#roster")
    assert header_bottom <= top < height
