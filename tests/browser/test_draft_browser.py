"""An unsent draft on the problem page survives a reload (switching the page language) in a real browser.

Debian's Chromium driven by Playwright against pytest-django's live server. Submissions are graded
in-process by the dummy backend (eager tasks), so no worker or broker message is involved.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SLUG = "vector-add-tail"
DRAFT = "__global__ void vector_add(const float* a, const float* b, float* c, int n) { /* my unsent draft */ }"
SHOTS = os.environ.get("WARPDRILL_SCREENSHOTS")  # a folder to save screenshots in, when set
# Storage that refuses everything: reading localStorage throws, as with storage disabled.
NO_STORAGE = """Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); } });"""
# Storage that is full: every write throws.
FULL_STORAGE = """Storage.prototype.setItem = function () {
  throw new DOMException("The quota has been exceeded.", "QuotaExceededError"); };"""



@pytest.fixture
def student(transactional_db, settings, django_user_model, monkeypatch):
    """The bank's 'vector-add-tail' (the student chooses the launch), a student, and in-process grading."""
    from config.celery import app
    from grader.core.backends.registry import get_backend
    from problems.core.package import load_package
    from problems.services import import_package

    # Playwright's sync API runs an event loop in this thread; the live server's ORM calls are in its own thread.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    import_package(load_package(ROOT / "problems" / "bank" / SLUG))
    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "dummy"}
    get_backend.cache_clear()
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield django_user_model.objects.create_user(username="drafter", password="draft-pass-123")
    app.conf.task_always_eager = eager
    get_backend.cache_clear()


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def logged_in_page(browser, live_server, init_script: str | None = None):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "drafter")
    page.fill("input[name=password]", "draft-pass-123")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


def open_problem(page, live_server):
    page.goto(f"{live_server.url}/problems/{SLUG}/")
    page.locator("#editor .cm-content").wait_for(state="visible")


def replace_source(page, text: str):
    page.locator("#editor .cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def switch_language(page, code: str):
    page.click(f"form.lang-switch button[value={code}]")
    page.wait_for_selector(f"html[lang={code}]")
    page.locator("#editor .cm-content").wait_for(state="visible")


def stored_draft(page, user) -> str | None:
    return page.evaluate("key => window.localStorage.getItem(key)", f"warpdrill:draft:v1:{user.pk}:{SLUG}")


def test_draft_survives_a_language_switch_can_be_discarded_and_is_cleared_by_submitting(student, live_server,
                                                                                         browser):
    """Type a kernel and a block size, switch to Korean: the page comes back with both and the
    notice; discard brings back what the server filled in; a draft restored again and submitted is
    gone afterwards, and the next visit shows no notice."""
    page = logged_in_page(browser, live_server)
    open_problem(page, live_server)
    notice = page.locator("#draft-notice")
    assert notice.is_hidden()
    starter = page.locator("textarea[name=source]").input_value()
    assert "TODO" in starter

    replace_source(page, DRAFT)
    page.fill("input[name=block]", "64")
    switch_language(page, "ko")
    assert "my unsent draft" in page.locator("#editor .cm-content").inner_text()
    assert page.locator("textarea[name=source]").input_value() == DRAFT  # what the form would post
    assert page.locator("input[name=block]").input_value() == "64"
    assert notice.is_visible() and "보내지 않은 초안을 되살렸습니다." in notice.inner_text()  # the page is Korean now
    shot(page, "draft-restored")

    page.click("#draft-discard")
    assert notice.is_hidden()
    # The page is Korean now: the server filled in the package's starter.ko.cu (the same code, Korean comments).
    ko_starter = page.locator("textarea[name=source]").input_value()
    assert ko_starter.strip() == (ROOT / "problems" / "bank" / SLUG / "starter.ko.cu").read_text().strip()
    assert ko_starter != starter and "TODO" in ko_starter
    assert page.locator("input[name=block]").input_value() == ""
    assert stored_draft(page, student) is None

    replace_source(page, DRAFT)
    page.fill("input[name=block]", "64")
    page.fill("input[name=grid]", "ceil_div(n, 64)")
    switch_language(page, "en")
    assert notice.is_visible() and "Restored your unsent draft." in notice.inner_text()
    assert page.locator("textarea[name=source]").input_value() == DRAFT
    assert stored_draft(page, student) is not None

    page.locator("#editor .cm-content").click()
    page.keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(r".*/submissions/\d+/$"))
    page.locator("#submission-live").wait_for()
    assert stored_draft(page, student) is None

    open_problem(page, live_server)
    assert notice.is_hidden()
    assert page.locator("textarea[name=source]").input_value() == DRAFT  # the server's: the last submission
    assert page.errors == []


@pytest.mark.parametrize("broken", [NO_STORAGE, FULL_STORAGE], ids=["disabled", "full"])
def test_editor_works_when_storage_is_disabled_or_full(broken, student, live_server, browser):
    """Without usable storage there is no draft, but typing, switching language and submitting work
    and raise nothing."""
    page = logged_in_page(browser, live_server, init_script=broken)
    open_problem(page, live_server)
    replace_source(page, DRAFT)
    assert page.locator("textarea[name=source]").input_value() == DRAFT
    switch_language(page, "ko")
    assert page.locator("#draft-notice").is_hidden()
    replace_source(page, DRAFT)
    page.locator("#editor .cm-content").click()
    page.keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(r".*/submissions/\d+/$"))
    assert page.errors == []


def submit_and_wait(page) -> int:
    page.locator("#editor .cm-content").click()
    page.keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(r".*/submissions/\d+/$"))
    page.locator("#submission-live").wait_for()
    return int(re.search(r"/submissions/(\d+)/$", page.url).group(1))


def form_state(page) -> tuple[str, str, str]:
    return (page.locator("textarea[name=source]").input_value(), page.locator("input[name=block]").input_value(),
            page.locator("input[name=grid]").input_value())


def test_edit_and_resubmit_wins_over_a_pending_draft_which_is_offered(student, live_server, browser):
    """The QA steps: a submission #N chosen with the launch fields; later, a draft typed on the
    problem page (with its own block size) and not sent; then "Edit and resubmit" on #N. The form
    holds #N's source and launch (the draft is offered, not applied), below the sticky header;
    "Restore draft" brings the draft with its launch, and submitting grades exactly that. On
    another reopening "Discard draft" removes the draft and leaves the reopened submission."""
    from grader.models import Submission

    first_source = DRAFT.replace("my unsent draft", "first, graded")
    page = logged_in_page(browser, live_server)
    open_problem(page, live_server)
    replace_source(page, first_source)
    page.fill("input[name=block]", "64")
    page.fill("input[name=grid]", "ceil_div(n, 64)")
    first = submit_and_wait(page)

    open_problem(page, live_server)  # a plain visit: the last source, empty fields and a note saying so
    assert form_state(page) == (first_source, "", "")
    assert page.locator("#launch-from-last").is_visible()
    replace_source(page, DRAFT)
    page.fill("input[name=block]", "32")
    page.wait_for_timeout(600)  # the draft is saved
    assert '"block":"32"' in stored_draft(page, student)

    page.goto(f"{live_server.url}/submissions/{first}/")
    page.click("text=Edit and resubmit")
    page.wait_for_url(re.compile(rf".*\?from={first}#submit-form$"))
    page.locator("#editor .cm-content").wait_for(state="visible")
    assert form_state(page) == (first_source, "64", "ceil_div(n, 64)")
    assert "first, graded" in page.locator("#editor .cm-content").inner_text()
    offer, notice = page.locator("#draft-offer"), page.locator("#draft-notice")
    assert offer.is_visible() and f"the form shows submission #{first}" in offer.inner_text()
    assert notice.is_hidden() and page.locator("#launch-from-submission").is_visible()
    assert "my unsent draft" in stored_draft(page, student)  # offered, still kept
    # The jump to #submit-form stops below the sticky header, not under it.
    form_top, header_bottom = page.evaluate("""() => [document.getElementById("submit-form").getBoundingClientRect().top,
        document.querySelector(".site-header").getBoundingClientRect().bottom]""")
    assert form_top >= header_bottom
    shot(page, "draft-offered")

    page.click("#draft-restore")
    assert offer.is_hidden() and notice.is_visible()
    assert form_state(page) == (DRAFT, "32", "")
    assert page.locator("#launch-from-submission").is_hidden()  # it no longer describes the form
    second = submit_and_wait(page)
    graded = Submission.objects.get(pk=second)
    assert (graded.source, graded.launch_block, graded.launch_grid) == (DRAFT, "32", "")
    assert stored_draft(page, student) is None

    # Another draft, another reopening: this time the draft is discarded.
    open_problem(page, live_server)
    replace_source(page, DRAFT.replace("my unsent draft", "a second draft"))
    page.fill("input[name=block]", "16")
    page.goto(f"{live_server.url}/problems/{SLUG}/?from={first}#submit-form")
    page.locator("#editor .cm-content").wait_for(state="visible")
    assert offer.is_visible()
    page.click("#draft-offer-discard")
    assert offer.is_hidden() and notice.is_hidden()
    assert form_state(page) == (first_source, "64", "ceil_div(n, 64)")
    assert stored_draft(page, student) is None
    assert page.errors == []
