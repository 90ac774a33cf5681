"""A small client of WarpDrill's JSON API v1 (grader/api.py), on the standard library's urllib.

Every method returns the decoded JSON object. Failures raise:
- `ApiError` for an HTTP error answer (its `status`, the server's `{"error": ...}` message, and
  `retry_after` seconds for a 429);
- `NetworkError` when the site cannot be reached or does not answer JSON.
"""
from __future__ import annotations

import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from . import __version__

API_PREFIX = "/api/v1/"
DEFAULT_TIMEOUT_S = 30.0


class ClientError(Exception):
    """Any failure of a call to the site."""


class NetworkError(ClientError):
    """The site could not be reached, or its answer was not JSON (a wrong URL, a proxy's page)."""


@dataclass
class ApiError(ClientError):
    """The site answered with an HTTP error: `status` (400, 401, 404, 429, ...), its message, and for a
    429 the seconds to wait (`retry_after`, None when not given)."""

    status: int
    message: str
    retry_after: int | None = None

    def __str__(self) -> str:
        return self.message


def normalise_url(url: str) -> str:
    """The site's base URL from what a user typed: a scheme is added when missing (https, or http for
    localhost and 127.0.0.1), a trailing slash and an `/api/v1` suffix are removed.

    Raises ValueError for a URL without a host."""
    url = url.strip()
    if "://" not in url:
        host = url.split("/", 1)[0].split(":", 1)[0]
        url = ("http://" if host in ("localhost", "127.0.0.1", "[::1]") else "https://") + url
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(url)
    path = parts.path.rstrip("/")
    if path.endswith(API_PREFIX.rstrip("/")):
        path = path[: -len(API_PREFIX.rstrip("/"))]
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


class Client:
    """The API of one site: `base_url` as normalise_url gives it, `token` (None before login),
    `language` ("en" or "ko": the Accept-Language sent, which picks the statement's language and the
    server's messages), `timeout_s` per request."""

    def __init__(self, base_url: str, token: str | None = None, language: str = "en",
                 timeout_s: float = DEFAULT_TIMEOUT_S):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.language = language
        self.timeout_s = timeout_s

    # -- plumbing ---------------------------------------------------------------------------------
    def url(self, path: str) -> str:
        """An absolute URL: `path` relative to /api/v1/ ("problems"), or already absolute."""
        if "://" in path:
            return path
        return self.base_url + API_PREFIX + path.lstrip("/")

    def request(self, method: str, path: str, body: dict | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict | None, dict[str, str]]:
        """One HTTP request; returns (status, decoded JSON or None for a 304, response headers).

        Raises ApiError for a status >= 400 and NetworkError when nothing usable came back."""
        data = json.dumps(body).encode("utf-8") if body is not None else None
        req = urllib.request.Request(self.url(path), data=data, method=method)
        req.add_header("Accept", "application/json")
        req.add_header("Accept-Language", self.language)
        req.add_header("User-Agent", f"warpdrill-cli/{__version__}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Token {self.token}")
        for key, value in (headers or {}).items():
            req.add_header(key, value)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as response:
                status, raw, got = response.status, response.read(), dict(response.headers.items())
        except urllib.error.HTTPError as exc:
            status, raw, got = exc.code, exc.read(), dict(exc.headers.items()) if exc.headers else {}
            if status == 304:
                return status, None, got
            raise self._api_error(status, raw, got) from None
        except (urllib.error.URLError, socket.timeout, ConnectionError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise NetworkError(f"{self.base_url}: {reason}") from None
        if status == 304:
            return status, None, got
        return status, self._decode(raw), got

    def _decode(self, raw: bytes) -> dict:
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise NetworkError(f"{self.base_url}: not a WarpDrill API answer (no JSON)") from None
        if not isinstance(data, dict):
            raise NetworkError(f"{self.base_url}: not a WarpDrill API answer")
        return data

    @staticmethod
    def _api_error(status: int, raw: bytes, headers: dict[str, str]) -> ApiError:
        try:
            message = json.loads(raw.decode("utf-8")).get("error") or ""
        except (UnicodeDecodeError, ValueError, AttributeError):
            message = ""
        retry = {k.lower(): v for k, v in headers.items()}.get("retry-after")
        return ApiError(status, message or f"HTTP {status}",
                        int(retry) if retry and retry.strip().isdigit() else None)

    # -- endpoints --------------------------------------------------------------------------------
    def obtain_token(self, username: str, password: str) -> str:
        """POST /api/v1/token: the user's API token. ApiError 400 for wrong credentials, 429 while locked out."""
        _status, data, _h = self.request("POST", "token", {"username": username, "password": password})
        token = data.get("token") if data else None
        if not isinstance(token, str) or not token:
            raise NetworkError(f"{self.base_url}: no token in the answer")
        return token

    def problems(self) -> list[dict]:
        """GET /api/v1/problems: [{"slug", "title", "topic", "difficulty", "kernel", ...}]."""
        return self.request("GET", "problems")[1].get("problems", [])

    def problem(self, slug: str) -> dict:
        """GET /api/v1/problems/<slug>: the list's fields plus "statement" (Markdown), "starter" (CUDA),
        "language", "launch", "time_limit_s" and "sample_tests". ApiError 404 for an unknown slug."""
        return self.request("GET", "problems/" + urllib.parse.quote(slug, safe=""))[1]

    def submit(self, slug: str, source: str, launch: dict[str, str] | None = None,
               course: str | None = None) -> dict:
        """POST /api/v1/problems/<slug>/submissions: {"id", "url", "html_url", "status", "problem"}.
        `course`: the code of a course the caller is in (a bank problem is graded for its target GPU).
        ApiError 400 (a bad source, launch or course, with the reason), 404, 413 (too large), 429 (rate limit)."""
        body: dict = {"source": source}
        if launch:
            body["launch"] = launch
        if course:
            body["course"] = course
        return self.request("POST", f"problems/{urllib.parse.quote(slug, safe='')}/submissions", body)[1]

    def submission(self, url_or_id: str | int, etag: str | None = None) -> tuple[dict | None, str | None]:
        """GET a submission (its API URL or id) as (JSON, ETag); (None, etag) when unchanged since `etag`
        (a 304: the server answers polls with a conditional GET)."""
        path = url_or_id if isinstance(url_or_id, str) else f"submissions/{int(url_or_id)}"
        status, data, headers = self.request("GET", path, headers={"If-None-Match": etag} if etag else None)
        new_etag = {k.lower(): v for k, v in headers.items()}.get("etag", etag)
        return (None if status == 304 else data), new_etag
