"""`manage.py gpu_worker_check [--json]`: can this worker grade on its GPU? Exit status 1 if not."""
import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

from grader.core.errors import PlatformError


class Command(BaseCommand):
    help = "Check the GPU backend here: nvcc, PyCUDA, sandbox, compute-sanitizer, and one kernel run."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")

    def handle(self, json: bool, **options):
        from grader.core.backends import registry  # the GPU backend imports nothing of CUDA's in this process

        backend = registry.build_backend("gpu")  # with the settings' options (WARPDRILL_JUDGE): its sandbox, arch...
        try:
            problems = backend.check()
            for problem in problems:
                self.stderr.write(f"problem: {problem}")
            figures = backend.smoke_test()
        except PlatformError as exc:
            raise CommandError(f"this worker cannot grade on its GPU: {exc}") from None
        finally:
            backend.shutdown()
        self.stdout.write(jsonlib.dumps(figures) if json else
                          "\n".join(f"{key}: {value}" for key, value in figures.items()))
