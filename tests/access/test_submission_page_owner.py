"""Owner-only actions on the submission page (grader.views.submission_detail).

"Edit and resubmit" opens the problem's editor for whoever is logged in and submits under their
account, so it is offered to the submission's owner only: an instructor (Instructor group or
staff) reading a student's submission sees the page without it.
"""
from __future__ import annotations

import re

import pytest

from grader import actions

from .conftest import SOURCES, body

pytestmark = pytest.mark.django_db

BUTTON_TEXT = "Edit and resubmit"


def button_href(submission) -> str:
    """The button reopens that submission in the problem's editor (source and launch)."""
    return f'href="/problems/canary-add/?from={submission.pk}#submit-form"'


def offers_resubmit(html: str) -> bool:
    return "/problems/canary-add/?from=" in html or BUTTON_TEXT in html


def test_owner_is_offered_edit_and_resubmit(page, graded):
    """Alice's own submission page has the button, linking to the problem's editor (in Korean too)."""
    url = f"/submissions/{graded['wrong_on_hidden'].pk}/"
    html = body(page("alice").get(url))
    assert button_href(graded["wrong_on_hidden"]) in html and BUTTON_TEXT in html
    assert "고쳐서 다시 제출" in body(page("alice").get(url, HTTP_ACCEPT_LANGUAGE="ko"))


@pytest.mark.parametrize("who", ["ivy", "sam"])
def test_instructor_on_a_students_submission_gets_no_resubmit_button(page, graded, who):
    """An instructor (group member or staff) opens Alice's submission (200, with her source and
    name) but is offered no button that would submit under the instructor's account, in English
    or Korean, on the page or in its live partial."""
    sub = graded["wrong_on_hidden"]
    client = page(who)
    response = client.get(f"/submissions/{sub.pk}/")
    assert response.status_code == 200
    html = body(response)
    assert "alice" in html and "c[i] = i &lt; 1000" in html  # the page itself is shown in full
    assert not offers_resubmit(html)
    assert "고쳐서 다시 제출" not in body(client.get(f"/submissions/{sub.pk}/", HTTP_ACCEPT_LANGUAGE="ko"))
    assert not offers_resubmit(body(client.get(f"/submissions/{sub.pk}/live/")))


@pytest.mark.parametrize("who", ["ivy", "sam"])
def test_instructor_on_their_own_submission_is_offered_the_button(page, users, canary, who,
                                                                  django_capture_on_commit_callbacks):
    """The rule is ownership, not role: an instructor's own submission page has the button."""
    with django_capture_on_commit_callbacks(execute=False):
        sub = actions.create_submission(users[who], canary, SOURCES["wrong_on_hidden"])
    html = body(page(who).get(f"/submissions/{sub.pk}/"))
    assert button_href(sub) in html and BUTTON_TEXT in html
    assert '<a href="/submissions/">My submissions</a>' in html


def test_submission_pages_offer_no_other_owner_only_action_to_instructors(page, graded):
    """Besides the breadcrumb and the button, the owner's and an instructor's views of a
    submission offer the same links and forms: nothing else on the page acts for its owner."""
    url = f"/submissions/{graded['out_of_bounds_on_hidden'].pk}/"

    def actions_on(html):
        links = set(re.findall(r'<a [^>]*href="([^"]+)"', html)) | set(re.findall(r"<form[^>]*>", html))
        # Line anchors (#L4) are not actions: an instructor sees a hidden test's line, a student does not.
        return {link for link in links if "?from=" not in link and not re.fullmatch(r"#L\d+", link)} - {
            "/submissions/", "/submissions/?all=1"}

    assert actions_on(body(page("ivy").get(url))) == actions_on(body(page("alice").get(url)))
    assert "<form" not in body(page("ivy").get(f"{url}live/"))
