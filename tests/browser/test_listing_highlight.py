"""The verdict page's source listing is syntax-highlighted like statements and questions, line by line."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]

SOURCE = """\
#define TILE 16
/* a comment
   over two lines */
extern "C" __global__ void add(const float* a, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i];
}
"""


def test_source_listing_is_highlighted_per_line(live_server, browser, django_user_model, monkeypatch):
    """Keywords, CUDA words and a comment spanning two lines are highlighted, and each line keeps
    its own row (its anchor and its error mark)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    from grader import actions
    from grader import grading
    from grader.core.results import JudgeResult
    from grader.core.verdicts import Verdict
    from tests.packages import tiny_package_files
    from tests.web.conftest import import_files

    user = django_user_model.objects.create_user(username="lee", password="listing-pass-123")
    problem = import_files(tiny_package_files())
    submission = actions.create_submission(user, problem, SOURCE)
    grading.start_grading(submission.pk, "dummy")
    grading.finish_grading(submission.pk, JudgeResult(verdict=Verdict.WRONG_ANSWER, backend="dummy"))

    page = browser.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next={submission.get_absolute_url()}")
    page.fill("input[name=username]", "lee")
    page.fill("input[name=password]", "listing-pass-123")
    page.click("main button[type=submit]")
    page.wait_for_selector(".listing[data-highlighted]")
    rows = page.locator(".listing tr")
    assert rows.count() == len(SOURCE.splitlines())
    assert page.locator("#L2 td.src span.tok-comment").count() == 1
    assert page.locator("#L3 td.src span.tok-comment").count() == 1  # the comment's second line
    assert page.locator("#L4 td.src span.tok-keyword").count() >= 1
    assert page.locator("#L5 td.src span.tok-cuda", has_text="threadIdx").count() == 1
    assert page.locator("#L5 td.src").inner_text() == SOURCE.splitlines()[4]  # text unchanged
