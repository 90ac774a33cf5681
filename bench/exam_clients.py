"""The exam page's browser as bench/exam_load.py simulates it: a student's session and CSRF pair, the
URLs the attempt page gives its script, its clock resync and a kernel submission's live-row polls
(static/js/exam.js, templates/exams/_kernel_submission.html)."""
from __future__ import annotations

import asyncio
import html
import json
import re
import secrets
import string
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_test as lt  # noqa: E402  (the HTTP client and the student records)


class Client:
    """One student's browser: a session cookie and a CSRF cookie/header pair (an unmasked secret)."""

    def __init__(self, http: lt.Http, student: lt.Student):
        self.http, self.student = http, student
        self.csrf = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
        self.cookie = f"sessionid={student.session}; csrftoken={self.csrf}"

    def headers(self, **extra) -> dict[str, str]:
        return {"Cookie": self.cookie, "X-CSRFToken": self.csrf, **extra}

    async def post_form(self, kind: str, path: str, fields: dict[str, str]):
        from urllib.parse import urlencode

        body = urlencode({**fields, "csrfmiddlewaretoken": self.csrf}).encode()
        return await self.http.request(kind, "POST", path, self.headers(**{
            "Content-Type": "application/x-www-form-urlencoded"}), body)

    async def post_json(self, kind: str, path: str, payload: dict):
        return await self.http.request(kind, "POST", path, self.headers(**{"Content-Type": "application/json"}),
                                       json.dumps(payload).encode())

    async def get(self, kind: str, path: str, **extra: str):
        return await self.http.request(kind, "GET", path, self.headers(**extra))


def page_url(page: bytes | None, attribute: str, fallback: str) -> str:
    """A URL the attempt page gives its script (data-save-url, data-state-url: signed for the session)."""
    found = re.search(rb'data-' + attribute.encode() + rb'="([^"]+)"', page or b"")
    return html.unescape(found[1].decode()) if found else fallback


# A submission's live row on the kernel page: while not graded, htmx polls hx-get at its hx-trigger period.
LIVE_ROW = re.compile(rb'<li id="exam-sub-(\d+)" data-status="(\w+)"(?: hx-get="([^"]+)" hx-trigger="every ([\d.]+)s")?')


async def poll_state(c: Client, url: str, every_s: float, done: asyncio.Event) -> None:
    """The attempt page's clock resync: a GET of its signed state URL every `every_s` until `done`."""
    while True:
        try:
            await asyncio.wait_for(done.wait(), every_s)
            return
        except asyncio.TimeoutError:
            await c.get("state poll", url, Accept="application/json")


async def watch_kernel(c: Client, page: bytes | None, submitted_at: float, give_up_at: float,
                       seen: list[float]) -> None:
    """Poll the newest submission's live row as htmx does, until it shows GRADED (its time from the
    submit POST goes to `seen`) or `give_up_at` (monotonic) passes. The browser revalidates the row with
    its last ETag (Cache-Control: private, no-cache), so an unchanged row is a 304 with no body."""
    rows = LIVE_ROW.findall(page or b"")
    if not rows:
        c.http.rec.failures.append(f"{c.student.username}: no submission row on the kernel page")
        return
    _pk, status, url, every = rows[-1]
    etag = None
    while status != b"GRADED" and time.monotonic() < give_up_at:
        await asyncio.sleep(float(every or 1))
        extra = {"HX-Request": "true", "Accept": "*/*", **({"If-None-Match": etag} if etag else {})}
        code, payload, head = await c.get("kernel poll", html.unescape(url.decode()), **extra)
        if code != 200:
            continue  # 304: the row is unchanged; an error: htmx tries again at the next tick
        etag = lt.header(head, "ETag")
        found = LIVE_ROW.search(payload)
        if found:
            status, url, every = found[2], found[3] or url, found[4] or every
    if status == b"GRADED":
        seen.append(time.monotonic() - submitted_at)
