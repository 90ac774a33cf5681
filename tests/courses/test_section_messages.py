"""What a management action did is said beside the section it returns to: "Create invite" lands on
…/manage/#invites, and its message was at the top of the page, scrolled out of view by the jump. The
message is now under the section's heading (and not at the top); the jump stops below the sticky header
(tests/browser/test_anchor_under_header.py)."""
from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _client(user, lang="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client


def _section(page: str, section: str) -> str:
    start = page.index(f'<section class="card" id="{section}"')
    return page[start:page.index("</section>", start)]


def _top(page: str) -> str:
    return page[page.index("</header>"):page.index('<main id="main"')]


@pytest.mark.parametrize("lang, created", [("en", r"Invite [A-Z0-9]+ created\."), ("ko", r"초대를 만들었습니다\(코드 [A-Z0-9]+\)\.")])
def test_create_invite_says_so_in_the_invites_section(people, courses, lang, created):
    prof = _client(people["prof"], lang)
    response = prof.post(reverse("courses:invite-create", args=["PP-A"]), {"role": "student", "days": "14"})
    assert response["Location"].endswith("/manage/#invites")
    page = prof.get(response["Location"]).content.decode()
    assert re.search(created, _section(page, "invites"))
    assert 'class="alert alert-success"' in _section(page, "invites")
    assert "alert" not in _top(page)
    # Shown once: the next page has no message left.
    assert "alert-success" not in prof.get(response["Location"]).content.decode()


def test_a_refused_role_change_says_why_in_the_members_section(people, courses):
    """The last instructor cannot become a student: the refusal is an error under the members' heading."""
    from courses.models import Membership

    prof = _client(people["prof"])
    mine = Membership.objects.get(course=courses["A"], user=people["prof"])
    response = prof.post(reverse("courses:member-role", args=["PP-A", mine.pk]), {"role": "student"})
    assert response["Location"].endswith("/manage/#members")
    page = prof.get(response["Location"]).content.decode()
    members = _section(page, "members")
    assert 'class="alert alert-error"' in members and "at least one instructor" in members
    assert "alert" not in _top(page)


def test_a_refused_invite_form_returns_to_the_invites_section(people, courses):
    """The form posts to …/invites/#invites, so the page that shows its errors opens at them."""
    prof = _client(people["prof"])
    page = prof.get(reverse("courses:manage", args=["PP-A"])).content.decode()
    assert f'action="{reverse("courses:invite-create", args=["PP-A"])}#invites"' in page


def test_a_message_for_a_section_the_page_lacks_is_shown_at_the_top(people, courses):
    """Another page that names no such section still shows the message, at its top."""
    from django.contrib import messages

    from django.template import Context, Template
    from django.test import RequestFactory
    from django.contrib.messages.storage.fallback import FallbackStorage

    request = RequestFactory().get("/")
    request.session = {}
    request._messages = FallbackStorage(request)
    messages.success(request, "Invite X created.", extra_tags="at-invites")
    messages.info(request, "Plain.")
    template = Template("{% load warpdrill %}[{% page_messages %}]|[{% section_messages 'invites' %}]")
    lone = template.render(Context({"messages": messages.get_messages(request)}))
    assert "Invite X created." in lone.split("|")[0] and "Plain." in lone.split("|")[0]
    assert lone.split("|")[1] == "[]"
    both = template.render(Context({"messages": messages.get_messages(request), "message_sections": ("invites",)}))
    top, section = both.split("|")
    assert "Invite X created." not in top and "Plain." in top
    assert "Invite X created." in section and 'class="alert alert-success"' in section
