"""`manage.py import_problems problems/bank`: import every package folder (idempotent)."""
from django.core.management.base import BaseCommand, CommandError

from problems.core.package import PackageError
from problems.services import import_bank


class Command(BaseCommand):
    help = "Import problem packages from a folder of package folders. Changed packages become new versions."

    def add_arguments(self, parser):
        parser.add_argument("root", nargs="?", default="problems/bank", help="folder holding package folders")

    def handle(self, root, **options):
        outcomes = import_bank(root)
        if not outcomes:
            raise CommandError(f"no package folders (with problem.yaml) under {root}")
        failed = 0
        for outcome in outcomes:
            if isinstance(outcome, PackageError):
                failed += 1
                self.stderr.write(self.style.ERROR(f"{getattr(outcome, 'folder', '?')}: {outcome}"))
            else:
                self.stdout.write(f"{outcome.slug}: v{outcome.version} {outcome.action}")
        if failed:
            raise CommandError(f"{failed} package(s) failed to import")
