"""Security headers: Content-Security-Policy (Django's built-in middleware) and the classic ones, on
pages, JSON and error responses; and the templates give the policy nothing to block.

The browser test loads the pages that run the most script (the editor, KaTeX, htmx polling, the
calculator's charts) in Chromium under the real policy and fails on any CSP violation.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from django.conf import settings

from grader import actions

from .conftest import body
from .test_ownership import SOURCE

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def policy(response) -> dict[str, list[str]]:
    """The Content-Security-Policy header as {directive: [values]}."""
    header = response.headers.get("Content-Security-Policy", "")
    out = {}
    for part in filter(None, (p.strip() for p in header.split(";"))):
        name, *values = part.split()
        out[name] = values
    return out


def test_every_kind_of_response_carries_the_policy_and_the_classic_headers(canary, users, page, api):
    """HTML pages, the API's JSON, a 404 and the admin login all carry CSP, X-Frame-Options DENY,
    nosniff, a same-origin referrer policy and a same-origin opener policy."""
    responses = {
        "problem list": page(None).get("/"),
        "problem page": page("alice").get("/problems/canary-add/"),
        "login": page(None).get("/accounts/login/"),
        "calculator": page(None).get("/practice/occupancy/"),
        "api": api("alice").get("/api/v1/problems"),
        "404": page("alice").get("/problems/no-such-problem/"),
        "admin login": page(None).get("/admin/login/"),
    }
    for name, response in responses.items():
        csp = policy(response)
        assert csp.get("script-src") == ["'self'"], (name, csp)
        assert csp.get("default-src") == ["'self'"] and csp.get("object-src") == ["'none'"], name
        assert csp.get("frame-ancestors") == ["'none'"] and csp.get("base-uri") == ["'self'"], name
        assert csp.get("form-action") == ["'self'"], name
        assert response.headers.get("X-Frame-Options") == "DENY", name
        assert response.headers.get("X-Content-Type-Options") == "nosniff", name
        assert response.headers.get("Referrer-Policy") == "same-origin", name
        assert response.headers.get("Cross-Origin-Opener-Policy") == "same-origin", name


# An inline <script> (anything but a JSON data block), an on*= handler or a javascript: URL.
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
JS_URL = re.compile(r"""(href|src|action)\s*=\s*["']\s*javascript:""", re.I)


def template_files() -> list[Path]:
    dirs = [ROOT / "templates", *(ROOT / app / "templates" for app in ("grader", "problems"))]
    return sorted(p for d in dirs if d.exists() for p in d.rglob("*.html"))


def test_templates_have_no_inline_script_handlers_or_javascript_urls():
    """script-src 'self' would block them: every script is a file under static/."""
    found = {}
    for path in template_files():
        text = path.read_text()
        hits = INLINE_SCRIPT.findall(text) + HANDLER.findall(text) + JS_URL.findall(text)
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert template_files() and found == {}


def test_rendered_pages_have_no_inline_scripts(canary, users, page, django_capture_on_commit_callbacks):
    """The same check on real pages, which include what template tags and forms render."""
    with django_capture_on_commit_callbacks(execute=False):
        sub = actions.create_submission(users["alice"], canary, SOURCE)
    client = page("alice")
    for url in ("/", "/problems/canary-add/", f"/submissions/{sub.pk}/", "/submissions/", "/practice/",
                "/practice/occupancy/", "/accounts/login/"):
        html = body(client.get(url))
        assert not INLINE_SCRIPT.findall(html) and not HANDLER.findall(html) and not JS_URL.findall(html), url


# ---- in a real browser ---------------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def chromium():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed")
    if not (ROOT / "static" / "build" / "editor.js").exists():
        pytest.skip("front-end not built: run `npm ci && npm run build`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        yield browser
        browser.close()


@pytest.fixture
def browser_data(canary, users):
    """Alice's queued submission, a practice question and a logged-in session, made before the browser
    starts: Playwright runs an event loop in this thread, and ORM calls made under it would use a
    connection of their own that nothing closes."""
    from django.contrib.sessions.backends.db import SessionStore

    from practice import actions as practice

    sub = actions.create_submission(users["alice"], canary, SOURCE)  # stays QUEUED: no worker here
    variant = practice.next_variant(users["alice"], practice.MIXED, 1)
    session = SessionStore()
    session.update({"_auth_user_id": str(users["alice"].pk),
                    "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
                    "_auth_user_hash": users["alice"].get_session_auth_hash()})
    session.create()
    return {"submission": sub.pk, "variant": variant.pk, "session": session.session_key}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_pages_work_in_chromium_under_the_policy(live_server, browser_data, chromium):
    """No CSP violation on the problem page (CodeMirror, KaTeX), a submission page (htmx polling),
    the calculator and a practice question; and their scripts did run."""
    context = chromium.new_context()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": browser_data["session"],
                          "url": live_server.url}])
    browser_page = context.new_page()
    violations: list[str] = []
    browser_page.on("console", lambda msg: violations.append(msg.text)
                    if "Content Security Policy" in msg.text else None)
    checks = {
        "/problems/canary-add/": "document.querySelector('.cm-editor') !== null && "
                                 "document.querySelector('#statement .katex') !== null",
        f"/submissions/{browser_data['submission']}/": "typeof window.htmx === 'object'",
        "/practice/occupancy/": "document.querySelector('svg') !== null",
        f"/practice/q/{browser_data['variant']}/": "document.readyState === 'complete'",
    }
    for url, script_ran in checks.items():
        # "load", never "networkidle": a submission page rendered in its first seconds polls every
        # quarter second (grader.views.live_poll_interval), so the network is never idle for the
        # 500 ms that "networkidle" waits for, and goto timed out whenever this page came up fast.
        response = browser_page.goto(live_server.url + url, wait_until="load")
        assert response.status == 200, url
        browser_page.wait_for_function(script_ran, timeout=10_000)
    browser_page.wait_for_timeout(2_500)  # htmx polls the submission page every second meanwhile
    context.close()
    time.sleep(1)  # let the live server finish a poll still in flight (its request threads are daemons)
    assert violations == []
