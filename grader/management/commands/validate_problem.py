"""`manage.py validate_problem PATH_OR_SLUG [--backend emulator|gpu]`: exit 0 only if every solution gets its verdict."""
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from grader.core.backends.registry import get_backend, hang_explainer
from grader.core.validate import validate_package
from problems.core.package import PackageError
from problems.services import resolve_package


class Command(BaseCommand):
    help = "Judge a package's solution.cu (must be ACCEPTED) and wrong/*.cu (must get their declared verdicts)."

    def add_arguments(self, parser):
        parser.add_argument("packages", nargs="+", metavar="PATH_OR_SLUG")
        parser.add_argument("--backend", default=None, help="emulator | gpu (default: settings)")

    def handle(self, packages, backend, **options):
        judge_backend = get_backend(backend)
        failures = 0
        for ref in packages:
            try:
                package = resolve_package(ref)
            except PackageError as exc:
                raise CommandError(str(exc)) from None
            self.stdout.write(self.style.MIGRATE_HEADING(f"{package.slug} ({judge_backend.name})"))
            for row in validate_package(package, judge_backend, explainer=hang_explainer(judge_backend)):
                mark = self.style.SUCCESS("ok  ") if row.ok else self.style.ERROR("FAIL")
                got = row.result.verdict.value
                name = row.name + (" " + ", ".join(f"{k}={v}" for k, v in row.variant.items()) if row.variant else "")
                self.stdout.write(f"  {mark} {name:42} expected {row.expected.value:14} got {got}")
                for warning in row.warnings:
                    self.stdout.write(self.style.WARNING(f"       warning: {warning.render(gettext)}"))
                if not row.ok:
                    failures += 1
                    self.stdout.write(f"       {row.result.message}")
                    for d in row.result.diagnostics[:3]:
                        self.stdout.write(f"       - {d.kind}: {d.message} (line {d.line})")
                    for m in (row.result.compile.messages if row.result.compile else [])[:3]:
                        self.stdout.write(f"       - line {m.line}: {m.message}")
        if failures:
            raise CommandError(f"{failures} solution(s) did not get their declared verdict")
