"""`warpdrill`: the student command line of WarpDrill.

    warpdrill login URL [--username NAME] [--password-stdin]
    warpdrill logout
    warpdrill problems
    warpdrill get SLUG [--dir FOLDER] [--force]
    warpdrill submit SLUG kernel.cu [--watch] [--block E] [--grid E] [--shared-bytes E] [--timeout S]
    warpdrill status ID [--watch] [--timeout S]

Exit codes (EXIT_* below): 0 only for an ACCEPTED verdict (and for commands that succeed without a
verdict: login, logout, problems, get).
"""
from __future__ import annotations

import argparse
import getpass
import sys
import time
from pathlib import Path
from typing import TextIO

from . import __version__, config
from .client import ApiError, Client, ClientError, NetworkError, normalise_url
from .i18n import Translator, language
from .render import render_result, render_status

EXIT_ACCEPTED = 0  # graded ACCEPTED (or a command without a verdict that succeeded)
EXIT_REJECTED = 1  # graded, not accepted: WRONG_ANSWER, RUNTIME_ERROR, TIME_LIMIT, DEADLOCK, SYNC_ERROR, MEMORY_ERROR
EXIT_USAGE = 2  # bad command line (argparse's code), or a file that cannot be read or written
EXIT_COMPILE_ERROR = 3  # graded COMPILE_ERROR
EXIT_AUTH = 4  # not logged in, the stored token refused, or wrong username/password
EXIT_NETWORK = 5  # the site cannot be reached or does not answer like WarpDrill
EXIT_REFUSED = 6  # the site refused the request: 400 (bad source or launch), 404 (no such problem), 413, 429
EXIT_PLATFORM = 7  # graded INTERNAL_ERROR: the platform's fault, not charged
EXIT_PENDING = 8  # no verdict yet: submitted without --watch, or --timeout passed first
EXIT_INTERRUPTED = 130  # Ctrl-C while waiting (the submission is graded all the same)

VERDICT_EXIT = {"ACCEPTED": EXIT_ACCEPTED, "COMPILE_ERROR": EXIT_COMPILE_ERROR, "INTERNAL_ERROR": EXIT_PLATFORM}
POLL_INTERVAL_S = 0.5
DEFAULT_WATCH_TIMEOUT_S = 600.0


class Fail(Exception):
    """A message for stderr and the exit code to end with."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


class CLI:
    """One run of the command: its streams, language and password prompt (replaceable in tests)."""

    def __init__(self, stdout: TextIO | None = None, stderr: TextIO | None = None, stdin: TextIO | None = None,
                 lang: str | None = None, ask_password=getpass.getpass, sleep=time.sleep):
        self.out = stdout or sys.stdout
        self.err = stderr or sys.stderr
        self.stdin = stdin or sys.stdin
        self.t = Translator(lang or language())
        self.ask_password = ask_password
        self.sleep = sleep

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    # -- the client, and errors as exit codes -----------------------------------------------------
    def client(self) -> Client:
        stored = config.load()
        if stored is None:
            raise Fail(EXIT_AUTH, self.t("not_logged_in"))
        return Client(stored.url, stored.token, language=self.t.lang)

    def fail_for(self, exc: ClientError) -> Fail:
        if isinstance(exc, NetworkError):
            return Fail(EXIT_NETWORK, self.t("network", message=str(exc)))
        assert isinstance(exc, ApiError)
        if exc.status in (401, 403):
            return Fail(EXIT_AUTH, self.t("token_refused", message=exc.message))
        message = self.t("refused", status=exc.status, message=exc.message)
        if exc.retry_after is not None:
            message += " " + self.t("retry_after", seconds=exc.retry_after)
        return Fail(EXIT_REFUSED, message)

    # -- commands ---------------------------------------------------------------------------------
    def login(self, args) -> int:
        try:
            url = normalise_url(args.url)
        except ValueError:
            raise Fail(EXIT_USAGE, self.t("bad_url", url=args.url)) from None
        username = args.username
        if not username:
            self.out.write(self.t("username"))
            self.out.flush()
            username = self.stdin.readline().strip()
        if args.password_stdin:
            password = self.stdin.readline().rstrip("\r\n")
        else:
            password = self.ask_password(self.t("password"))
        client = Client(url, language=self.t.lang)
        try:
            token = client.obtain_token(username, password)
        except ApiError as exc:
            if exc.status in (400, 401, 429):
                message = exc.message + (" " + self.t("retry_after", seconds=exc.retry_after)
                                         if exc.retry_after is not None else "")
                raise Fail(EXIT_AUTH, self.t("login_failed", message=message)) from None
            raise self.fail_for(exc) from None
        except NetworkError as exc:
            raise self.fail_for(exc) from None
        path = config.save(config.Config(url=url, token=token, username=username))
        self.say(self.t("logged_in", url=url, username=username, path=path))
        return EXIT_ACCEPTED

    def logout(self, args) -> int:
        self.say(self.t("logged_out") if config.clear() else self.t("not_logged_in_before"))
        return EXIT_ACCEPTED

    def problems(self, args) -> int:
        try:
            rows = self.client().problems()
        except ClientError as exc:
            raise self.fail_for(exc) from None
        if not rows:
            self.say(self.t("no_problems"))
            return EXIT_ACCEPTED
        table = [(self.t("col_slug"), self.t("col_title"), self.t("col_topic"), self.t("col_level"))]
        table += [(p.get("slug", ""), p.get("title", ""), p.get("topic", ""), str(p.get("difficulty", "")))
                  for p in rows]
        widths = [max(_width(row[i]) for row in table) for i in range(3)]
        for row in table:
            self.say("  ".join(_pad(cell, widths[i]) for i, cell in enumerate(row[:3])) + "  " + row[3])
        return EXIT_ACCEPTED

    def get(self, args) -> int:
        try:
            problem = self.client().problem(args.slug)
        except ClientError as exc:
            raise self.fail_for(exc) from None
        folder = Path(args.dir or problem["slug"])
        statement_name = "statement.md" if problem.get("language", "en") == "en" else f"statement.{problem['language']}.md"
        statement = f"# {problem.get('title', problem['slug'])}\n\n{problem.get('statement', '')}"
        if problem.get("kernel"):
            statement += f"\n\n```cuda\n{problem['kernel']}\n```\n"
        written = []
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / statement_name).write_text(statement, encoding="utf-8")
            written.append(statement_name)
            kernel = folder / "kernel.cu"
            if kernel.exists() and not args.force:
                self.say(self.t("kept_file", path=kernel))
            else:
                kernel.write_text(problem.get("starter", ""), encoding="utf-8")
                written.append("kernel.cu")
        except OSError as exc:
            raise Fail(EXIT_USAGE, self.t("cannot_write", path=folder, message=exc.strerror or exc)) from None
        self.say(self.t("saved_problem", slug=problem["slug"], folder=folder, files=", ".join(written)))
        return EXIT_ACCEPTED

    def submit(self, args) -> int:
        try:
            source = Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise Fail(EXIT_USAGE, self.t("cannot_read", path=args.file,
                                          message=getattr(exc, "strerror", None) or exc)) from None
        launch = {k: v for k, v in (("block", args.block), ("grid", args.grid),
                                    ("shared_bytes", args.shared_bytes)) if v}
        client = self.client()
        try:
            created = client.submit(args.slug, source, launch or None, course=args.course)
        except ClientError as exc:
            raise self.fail_for(exc) from None
        self.say(self.t("submitted", id=created["id"], problem=created.get("problem", args.slug),
                        html_url=created.get("html_url", "")))
        if not args.watch:
            self.say(self.t("not_watching", id=created["id"]))
            return EXIT_PENDING
        return self.watch(client, created["url"], args.timeout)

    def status(self, args) -> int:
        client = self.client()
        if args.watch:
            return self.watch(client, args.id, args.timeout)
        try:
            data, _etag = client.submission(args.id)
        except ClientError as exc:
            raise self.fail_for(exc) from None
        return self.report(data)

    # -- waiting and the verdict ------------------------------------------------------------------
    def watch(self, client: Client, url_or_id, timeout_s: float) -> int:
        """Poll the submission (conditional GETs) until GRADED, printing each new status; the verdict's
        exit code, EXIT_PENDING after `timeout_s`, EXIT_INTERRUPTED on Ctrl-C."""
        deadline = time.monotonic() + timeout_s
        etag, data, shown = None, None, None
        live = hasattr(self.out, "isatty") and self.out.isatty()
        try:
            while True:
                try:
                    fresh, etag = client.submission(url_or_id, etag)
                except ClientError as exc:
                    raise self.fail_for(exc) from None
                data = fresh or data
                if data is not None:
                    line = render_status(data, self.t)
                    if line != shown and data.get("status") != "GRADED":  # the verdict says it
                        if live:
                            self.out.write("\r\033[K" + line)
                            self.out.flush()
                        else:
                            self.say(line)
                        shown = line
                    if data.get("status") == "GRADED":
                        if live and shown:
                            self.out.write("\n")
                        return self.report(data)
                if time.monotonic() >= deadline:
                    if live:
                        self.out.write("\n")
                    self.say(self.t("watch_timeout", seconds=int(timeout_s), status=self.t(data.get("status", "?"))
                                    if data else "?", html_url=(data or {}).get("html_url", "")))
                    return EXIT_PENDING
                self.sleep(POLL_INTERVAL_S)
        except KeyboardInterrupt:
            self.say()
            self.say(self.t("interrupted", html_url=(data or {}).get("html_url", "")))
            return EXIT_INTERRUPTED

    def report(self, data: dict) -> int:
        """Print a submission's verdict with its diagnostics and return the exit code it means."""
        if data.get("status") != "GRADED":
            self.say(render_status(data, self.t))
            return EXIT_PENDING
        for line in render_result(data, self.t):
            self.say(line)
        return verdict_exit_code(data.get("verdict"))


def verdict_exit_code(verdict: str | None) -> int:
    """The exit code of a graded submission's verdict: 0 only for ACCEPTED (see the EXIT_* constants)."""
    return VERDICT_EXIT.get(verdict or "", EXIT_REJECTED)


def _width(text: str) -> int:
    """Terminal columns of `text`: Hangul and other wide characters take two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def parser() -> argparse.ArgumentParser:
    """The command line's grammar."""
    p = argparse.ArgumentParser(prog="warpdrill", description="WarpDrill from the terminal: problems, starters, "
                                "submissions and verdicts. Exit codes: 0 accepted, 1 not accepted, 2 usage, "
                                "3 compile error, 4 login, 5 network, 6 refused by the site, 7 platform error, "
                                "8 no verdict yet, 130 interrupted.")
    p.add_argument("--version", action="version", version=f"warpdrill {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    login = sub.add_parser("login", help="log in to a WarpDrill site and store the API token")
    login.add_argument("url", help="the site, e.g. https://warpdrill.example.edu")
    login.add_argument("--username", "-u")
    login.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    sub.add_parser("logout", help="delete the stored token")
    sub.add_parser("problems", help="list the published problems")
    get = sub.add_parser("get", help="save a problem's statement and starter kernel into a folder")
    get.add_argument("slug")
    get.add_argument("--dir", "-d", help="the folder (default: the slug)")
    get.add_argument("--force", action="store_true", help="overwrite an existing kernel.cu with the starter")
    submit = sub.add_parser("submit", help="submit a kernel (with --watch: wait for the verdict)")
    submit.add_argument("slug")
    submit.add_argument("file")
    submit.add_argument("--watch", "-w", action="store_true", help="show the status live and the verdict")
    submit.add_argument("--block")
    submit.add_argument("--grid")
    submit.add_argument("--shared-bytes")
    submit.add_argument("--course", help="the code of your course: a bank problem is graded for its target GPU")
    submit.add_argument("--timeout", type=float, default=DEFAULT_WATCH_TIMEOUT_S, help="seconds to wait (600)")
    status = sub.add_parser("status", help="a submission's status or verdict")
    status.add_argument("id", type=int)
    status.add_argument("--watch", "-w", action="store_true")
    status.add_argument("--timeout", type=float, default=DEFAULT_WATCH_TIMEOUT_S)
    return p


def main(argv: list[str] | None = None, cli: CLI | None = None) -> int:
    """Run one command; returns the exit code (the `warpdrill` script exits with it)."""
    args = parser().parse_args(argv)
    cli = cli or CLI()
    try:
        return getattr(cli, args.command)(args)
    except Fail as exc:
        print(f"warpdrill: {exc}", file=cli.err, flush=True)
        return exc.code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
