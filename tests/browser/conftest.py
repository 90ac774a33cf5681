"""What the browser tests share: Debian's Chromium driven by Playwright, headless; the live server's
set-up; logging in through the log-in page; a new exam template's editor; an open exam with a started
attempt; a worker for exams."""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-quic"]
PASSWORD = "pass-1234-word"  # the password of the users these fixtures make


@pytest.fixture
def browser():
    """A headless Chromium; skips where Chromium or the built front end (npm run build) is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed")
    if not (ROOT / "static" / "build" / "editor.js").exists():
        pytest.skip("front-end not built: run `npm ci && npm run build`")
    from playwright.sync_api import sync_playwright

    from django.db import connections

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
        # While Playwright's event loop runs, Django keeps the test's database connections per async
        # context (asgiref), apart from the thread's own: close them here, in that context, or each
        # such test leaves a PostgreSQL session open (and the test database cannot be dropped at the end).
        connections.close_all()


@pytest.fixture(autouse=True)
def _live_server_beside_playwright(monkeypatch, settings):
    """Playwright's sync API runs an event loop in the test's thread, so the ORM calls a test makes there
    (the live server's own are in its thread) need DJANGO_ALLOW_ASYNC_UNSAFE; and a fast password hasher,
    since every test logs in through the log-in page."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def log_in(live_server):
    """log_in(page, username, password=PASSWORD, next_path="/"): fill the log-in page as a person does and
    wait until the site lands on `next_path`. The page's context keeps the session cookie."""

    def log_in(page, username: str, password: str = PASSWORD, next_path: str = "/") -> None:
        page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", password)
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server.url}{next_path}")

    return log_in


@pytest.fixture
def editor(live_server, browser, log_in, transactional_db):
    """editor(lang, width=1280) -> a page on a new exam template's editor, as ivy, the instructor of
    `editor.course`, in `lang`; the page's JavaScript errors are collected in `page.errors`."""
    from django.contrib.auth.models import User

    from courses.models import Course, Membership, Role

    ivy = User.objects.create_user("ivy", password=PASSWORD)
    course = Course.objects.create(name="Parallel Programming", code="PP-T")
    Membership.objects.create(course=course, user=ivy, role=Role.INSTRUCTOR)

    def open_editor(lang: str, width: int = 1280):
        page = browser.new_page(viewport={"width": width, "height": 900}, locale=lang,
                                extra_http_headers={"Accept-Language": lang})
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        log_in(page, "ivy")
        page.goto(f"{live_server.url}/exams/course/{course.pk}/templates/new/")
        return page

    open_editor.course = course
    return open_editor


@pytest.fixture
def started_exam(transactional_db, monkeypatch):
    """started_exam(template=tests.exams.conftest.TEMPLATE) -> (exam, alice's attempt): the tiny-add problem,
    a course with ivy (instructor) and alice (student), the exam open now for an hour (30 minutes long),
    alice's attempt started. Grading messages are dropped (no worker): for tests of the pages alone."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from exams.actions.attempts import start_attempt
    from exams.actions.scheduling import save_template, schedule_exam
    from grader import actions as grader_actions
    from problems.core.package import parse_package
    from problems.services import import_package
    from tests.conftest import _no_send
    from tests.exams.conftest import TEMPLATE, enrol, make_course
    from tests.packages import tiny_package_files

    monkeypatch.setattr(grader_actions, "_send", _no_send)
    import_package(parse_package(tiny_package_files()))
    course = make_course()
    ivy = User.objects.create_user("ivy", "ivy@example.org", PASSWORD)
    alice = User.objects.create_user("alice", "alice@example.org", PASSWORD)
    enrol(ivy, course, "instructor")
    enrol(alice, course, "student")

    def start(template: dict = TEMPLATE):
        now = timezone.now()
        exam = schedule_exam(course, save_template(course, ivy, template), opens_at=now - timedelta(minutes=5),
                             closes_at=now + timedelta(hours=1), duration_minutes=30)
        return exam, start_attempt(exam, alice)

    return start


@pytest.fixture
def exam_worker(transactional_db):
    """A real Celery worker process on the `exam` queue (kernel gradings, the variants drawn ahead) and
    `cpu` (printed PDFs), sharing the test database and broker; stopped after the test."""
    from tests.conftest import WorkerProcess, worker_env

    worker = WorkerProcess(worker_env(), queues="exam,cpu", concurrency=1, name="exam")
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()
