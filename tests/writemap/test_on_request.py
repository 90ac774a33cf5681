"""A write map on request: an accepted submission offers the button; the task records the smallest
sample test's map with the real emulator; others cannot ask for it (404)."""
from __future__ import annotations

import pytest

from grader.core.backends.registry import get_backend
from tests.grader.test_result_page import FILES, KERNELS
from tests.web.conftest import (  # noqa: F401 (fixtures)
    alice,
    alice_client,
    bob,
    bob_client,
    fast_password_hasher,
    import_files,
    make_submission,
)
from tests.writemap.test_verdict_page import emulator, judged  # noqa: F401 (fixtures)


@pytest.fixture
def emulator_eager(settings):
    from config.celery import app

    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "emulator"}
    get_backend.cache_clear()
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager
    get_backend.cache_clear()


@pytest.fixture
def accepted(db, judged, alice, make_submission):
    problem = import_files(FILES)
    return make_submission(alice, problem, judged(KERNELS["solution"]), source=KERNELS["solution"])


def test_an_accepted_submission_draws_its_map_on_request(accepted, alice_client, emulator_eager,
                                                         django_capture_on_commit_callbacks):
    page = alice_client.get(accepted.get_absolute_url()).content.decode()
    assert "Draw the write map" in page and 'class="writemap"' not in page
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(f"/submissions/{accepted.pk}/writemap/")
    assert response.status_code == 302
    accepted.refresh_from_db()
    maps = accepted.result["writemaps"]
    assert [(m["test"], m["sample"]) for m in maps] == [("small", True)]  # n = 5, the smallest sample
    assert "writemap_requested" not in accepted.result and accepted.verdict == "ACCEPTED"
    page = alice_client.get(accepted.get_absolute_url()).content.decode()
    assert 'class="writemap"' in page and "Draw the write map" not in page
    # asking again does nothing (the map is there)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        alice_client.post(f"/submissions/{accepted.pk}/writemap/")
    assert callbacks == []


def test_someone_else_cannot_ask(accepted, bob_client):
    assert bob_client.post(f"/submissions/{accepted.pk}/writemap/").status_code == 404
    assert bob_client.get(f"/submissions/{accepted.pk}/writemap/").status_code in (404, 405)
    accepted.refresh_from_db()
    assert "writemap_requested" not in accepted.result


def test_while_recording_the_page_says_so_and_polls(accepted, alice_client):
    accepted.result = {**accepted.result, "writemap_requested": True}
    accepted.save(update_fields=["result"])
    page = alice_client.get(accepted.get_absolute_url()).content.decode()
    assert "Recording the write map of the smallest sample test" in page and "Draw the write map" not in page
    live = page.split('id="submission-live"', 1)[1].split(">", 1)[0]
    assert 'hx-trigger="every 2s"' in live
