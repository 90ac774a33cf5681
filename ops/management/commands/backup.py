"""`manage.py backup ARCHIVE`: the database (pg_dump, or SQLite's online backup), the problem packages
folder and the site's seed secret and printed exams, in one tar file (ops/backup.py)."""
from django.core.management.base import BaseCommand, CommandError

from ops.backup import BackupError, Database, create_backup


class Command(BaseCommand):
    help = "Back the site up into one archive: database, problem packages, seed secret, printed exams."

    def add_arguments(self, parser):
        parser.add_argument("archive", help="the .tar file to write (replaced atomically when complete)")
        parser.add_argument("--database-url", help="back up this database instead of the site's")
        parser.add_argument("--packages-dir", help="the problem packages folder (default WARPDRILL_PACKAGES_DIR or problems/bank)")

    def handle(self, archive, database_url=None, packages_dir=None, **options):
        from pathlib import Path

        try:
            db = Database.from_url(database_url) if database_url else None
            manifest = create_backup(Path(archive), db=db, packages=Path(packages_dir) if packages_dir else None)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        rows = sum(manifest["row_counts"].values())
        self.stdout.write(f"backed up {len(manifest['row_counts'])} tables ({rows} rows), "
                          f"packages: {'yes' if manifest['packages'] else 'no'}, "
                          f"files: {', '.join(manifest['var_files']) or 'none'} -> {archive}")
