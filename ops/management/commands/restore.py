"""`manage.py restore ARCHIVE`: a backup of `manage.py backup` into an empty database (or, with --force,
over the tables there), then the files; every table's row count is checked against the backup's."""
from django.core.management.base import BaseCommand, CommandError

from ops.backup import BackupError, Database, restore_backup


class Command(BaseCommand):
    help = "Restore a backup into an empty database (createdb first), check the row counts, restore the files."

    def add_arguments(self, parser):
        parser.add_argument("archive")
        parser.add_argument("--database-url", help="restore into this database instead of the site's")
        parser.add_argument("--packages-dir", help="restore the problem packages folder here "
                                                   "(default: WARPDRILL_PACKAGES_DIR when set, else not restored)")
        parser.add_argument("--var-dir", help="restore the seed secret and printed exams here (default: the site's var)")
        parser.add_argument("--force", action="store_true", help="replace the tables of a database that has some")

    def handle(self, archive, database_url=None, packages_dir=None, var_dir=None, force=False, **options):
        from pathlib import Path

        try:
            db = Database.from_url(database_url) if database_url else None
            report = restore_backup(Path(archive), db=db, packages=Path(packages_dir) if packages_dir else None,
                                    var_dir=Path(var_dir) if var_dir else None, force=force)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        counts = report["row_counts"]
        self.stdout.write(f"restored {len(counts)} tables ({sum(counts.values())} rows, every count as backed up), "
                          f"packages: {report['packages'] or 'not restored'}, "
                          f"files: {', '.join(report['manifest']['var_files']) or 'none'}")
