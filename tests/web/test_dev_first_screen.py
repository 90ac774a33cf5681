"""`make dev`'s first screen: the site binds the loopback address, and the last lines are its URL and logins."""
import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


def _procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile.dev").read_text().splitlines()
    return dict(line.split(":", 1) for line in lines if line.strip() and not line.startswith("#"))


def test_dev_server_binds_loopback_unless_told_otherwise():
    """The development server (DEBUG, public demo passwords) listens on 127.0.0.1 by default, never 0.0.0.0."""
    web = _procfile()["web"]
    assert "0.0.0.0" not in web
    assert re.search(r"runserver \$\{WARPDRILL_BIND:-127\.0\.0\.1\}:", web)


def test_workers_start_quietly():
    """No Celery banners, no 'AXES: BEGIN' per process, no root warning on the first screen."""
    procs = _procfile()
    assert "--quiet" in procs["worker"] and "--quiet" in procs["beat"]
    assert "superuser privileges" in procs["worker"]  # the warning filter
    assert settings.AXES_VERBOSE is False
    # A broker URL with a host: kombu warns 'No hostname was supplied' for a bare filesystem:// URL.
    assert settings.CELERY_BROKER_URL != "filesystem://"


@pytest.mark.django_db
def test_dev_ready_prints_url_and_logins_once_the_site_answers(live_server):
    """dev_ready waits for the site, then prints the address students open and the demo logins."""
    host, port = live_server.url.removeprefix("http://").split(":")
    out = io.StringIO()
    call_command("dev_ready", host=host, port=int(port), once=True, timeout=10, stdout=out)
    text = out.getvalue()
    assert f"WarpDrill is ready: http://localhost:{port}/" in text
    assert "student     / student-demo-pass" in text
    assert "instructor  / instructor-demo-pass" in text


def test_dev_ready_says_when_the_site_never_answers():
    """A site that never starts gets a message pointing at the web process, not a traceback."""
    err = io.StringIO()
    call_command("dev_ready", host="127.0.0.1", port=9, once=True, timeout=1, stdout=io.StringIO(), stderr=err)
    assert "did not answer on http://localhost:9/" in err.getvalue()
