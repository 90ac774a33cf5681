"""`manage.py prepare_judge [--backend ...]`: build what grading needs before the first submission."""
import time

from django.core.management.base import BaseCommand, CommandError

from grader.core.backends.registry import get_backend
from grader.core.errors import PlatformError


class Command(BaseCommand):
    help = "Build the judge backend's runtime (the emulator's runtime libraries) ahead of the first submission."

    def add_arguments(self, parser):
        parser.add_argument("--backend", default=None, help="emulator | gpu (default: settings)")

    def handle(self, backend, **options):
        started = time.monotonic()
        judge_backend = get_backend(backend)
        try:
            judge_backend.prepare()
        except PlatformError as exc:
            raise CommandError(f"the {judge_backend.name} backend cannot grade here: {exc}") from None
        self.stdout.write(f"{judge_backend.name} backend ready ({time.monotonic() - started:.1f} s)")
