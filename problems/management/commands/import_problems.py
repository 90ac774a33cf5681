"""`manage.py import_problems problems/bank`: import every package folder (idempotent)."""
from django.core.management.base import BaseCommand, CommandError

from problems.core.package import PackageError
from problems.services import import_bank


class Command(BaseCommand):
    help = "Import problem packages from a folder of package folders. Changed packages become new versions."

    def add_arguments(self, parser):
        parser.add_argument("root", nargs="?", default="problems/bank", help="folder holding package folders")
        parser.add_argument("--quiet", action="store_true", help="one summary line instead of a line per package")

    def handle(self, root, quiet=False, **options):
        outcomes = import_bank(root)
        if not outcomes:
            raise CommandError(f"no package folders (with problem.yaml) under {root}")
        failed = 0
        for outcome in outcomes:
            if isinstance(outcome, PackageError):
                failed += 1
                self.stderr.write(self.style.ERROR(f"{getattr(outcome, 'folder', '?')}: {outcome}"))
            elif not quiet:
                self.stdout.write(f"{outcome.slug}: v{outcome.version} {outcome.action}")
        if quiet:
            actions = [o.action for o in outcomes if not isinstance(o, PackageError)]
            self.stdout.write(f"{root}: " + ", ".join(
                f"{actions.count(a)} {a}" for a in ("created", "updated", "unchanged")))
        if failed:
            raise CommandError(f"{failed} package(s) failed to import")
