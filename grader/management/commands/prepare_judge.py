"""`manage.py prepare_judge [--backend ...] [--shared-cache DIR]`: build what grading needs before the first submission."""
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from grader.core.backends.registry import get_backend
from grader.core.emulator import shared_cache, toolchain
from grader.core.errors import PlatformError


class Command(BaseCommand):
    help = "Build the judge backend's runtime (the emulator's runtime libraries) ahead of the first submission."

    def add_arguments(self, parser):
        parser.add_argument("--backend", default=None, help="emulator | gpu (default: settings)")
        parser.add_argument("--shared-cache", default=None, type=Path,
                            help="a machine-wide folder of built emulator runtimes, by hash: taken from when "
                                 "it holds this one, filled after a build (platform/bootstrap.sh passes one)")

    def handle(self, backend, shared_cache=None, **options):
        started = time.monotonic()
        judge_backend = get_backend(backend)
        try:
            if judge_backend.name == "emulator":
                self._prepare_emulator(judge_backend, shared_cache)
            else:
                judge_backend.prepare()
        except PlatformError as exc:
            raise CommandError(f"the {judge_backend.name} backend cannot grade here: {exc}") from None
        self.stdout.write(f"{judge_backend.name} backend ready ({time.monotonic() - started:.1f} s)")

    def _prepare_emulator(self, judge_backend, shared) -> None:
        """Each variant's runtime, with a line per variant (the build takes ≈ 40 s on 2 cores the first time)."""
        digest = toolchain.runtime_hash(judge_backend.cxx)
        if shared is not None:
            try:
                if shared_cache.fetch(judge_backend.cache_dir, shared, digest, toolchain.VARIANTS):
                    self.stdout.write(f"emulator runtime {digest}: ready (from {shared} or this checkout's cache)")
            except OSError as exc:
                self.stderr.write(f"the shared runtime cache {shared} could not be read ({exc}); building")
        # The write map's variant last: only a staff request uses it, every checked grading the others.
        order = sorted(toolchain.VARIANTS, key=lambda v: v == "writemap")
        for number, variant in enumerate(order, 1):
            began = time.monotonic()
            if not toolchain.runtime_built(judge_backend.cache_dir, variant, judge_backend.cxx):
                # A line when the build starts too (runtime.log is what make dev's banner points to),
                # written out at once: a first build takes minutes on a busy machine.
                self.stdout.write(f"emulator runtime {digest}: building {variant} "
                                  f"({number}/{len(toolchain.VARIANTS)}) ...")
                self.stdout.flush()
            judge_backend.runtime(variant)
            self.stdout.write(f"emulator runtime {digest}: {variant} ({number}/{len(toolchain.VARIANTS)}) "
                              f"in {time.monotonic() - began:.1f} s")
            self.stdout.flush()
        if shared is not None:
            try:
                shared_cache.publish(judge_backend.cache_dir, shared, digest, toolchain.VARIANTS)
            except OSError as exc:
                self.stderr.write(f"the runtime was not copied to the shared cache {shared}: {exc}")
