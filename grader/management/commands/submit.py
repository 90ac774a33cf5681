"""`manage.py submit --user U --problem SLUG FILE.cu [--wait] [--json]`: submit through the real queue."""
import json
import time
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from grader import actions
from grader.core.errors import WarpDrillError
from grader.core.judge import LaunchChoice
from grader.models import Status, Submission
from problems.models import Problem


class Command(BaseCommand):
    help = "Create a submission as a user and enqueue it; with --wait, follow it to its verdict."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--user", required=True)
        parser.add_argument("--problem", required=True, help="problem slug")
        parser.add_argument("--block", default="")
        parser.add_argument("--grid", default="")
        parser.add_argument("--shared-bytes", default="")
        parser.add_argument("--wait", action="store_true", help="wait for the verdict (exit 0 only when ACCEPTED)")
        parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait")
        parser.add_argument("--json", action="store_true")

    def handle(self, file, user, problem, block, grid, shared_bytes, wait, timeout, json, **options):
        try:
            source = Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        account = get_user_model().objects.filter(username=user).first()
        if account is None:
            raise CommandError(f"no user {user!r}")
        prob = Problem.objects.filter(slug=problem).first()
        if prob is None:
            raise CommandError(f"no problem {problem!r} (run import_problems first)")
        try:
            submission = actions.create_submission(account, prob, source, LaunchChoice(block, grid, shared_bytes))
        except WarpDrillError as exc:
            raise CommandError(str(exc)) from None
        if not json:
            self.stdout.write(f"submission #{submission.pk} queued")
        if not wait:
            return
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            submission.refresh_from_db()
            state = (submission.status, submission.progress_done)
            if state != last and not json:
                self.stdout.write(f"  {submission.status} {submission.progress_done}/{submission.progress_total}")
                last = state
            if submission.status == Status.GRADED:
                break
            time.sleep(0.3)
        else:
            raise CommandError(f"no verdict after {timeout:.0f} s (is a worker running?)")
        if json:
            self.stdout.write(_dump(submission))
        else:
            self.stdout.write(f"verdict: {submission.verdict}")
        if submission.verdict != "ACCEPTED":
            raise SystemExit(1)


def _dump(submission: Submission) -> str:
    return json.dumps({"id": submission.pk, "status": submission.status, "verdict": submission.verdict,
                       "result": submission.result}, indent=2, ensure_ascii=False)
