#!/usr/bin/env python
"""Django's command-line utility for WarpDrill."""
import os
import sys


def _explain_missing_tables(error) -> str:
    """What to do when a command finds an empty database: name the one it opened and how to choose another."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    where = db["NAME"] if db["ENGINE"].endswith("sqlite3") else f"{db['ENGINE'].rsplit('.', 1)[-1]} database {db['NAME']!r}"
    return (
        f"error: the database has no WarpDrill tables ({error}).\n"
        f"  This command looked at: {where}\n"
        "  If the site keeps its state elsewhere, point the command at it, e.g.\n"
        "    WARPDRILL_VAR_DIR=/the/site/var .venv/bin/python manage.py ...   (or DATABASE_URL=...)\n"
        "  To create a new database here instead: .venv/bin/python manage.py migrate\n"
    )


def _remove_if_empty(path: str) -> None:
    """Delete a SQLite file (and its WAL files) that this command created and that holds no table."""
    import sqlite3

    from django.db import connections

    connections.close_all()
    if not os.path.exists(path):
        return
    with sqlite3.connect(path) as conn:
        tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
    if tables == 0:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line
    from django.db.utils import OperationalError, ProgrammingError

    sqlite_file = None
    try:
        from django.conf import settings

        db = settings.DATABASES["default"]
        if db["ENGINE"].endswith("sqlite3") and not os.path.exists(db["NAME"]):
            sqlite_file = db["NAME"]  # connecting creates it: remove it again if nothing was migrated
    except Exception:  # settings errors are reported by Django itself below
        pass
    try:
        execute_from_command_line(sys.argv)
    except (OperationalError, ProgrammingError) as error:
        text = str(error)
        if "no such table" not in text and "does not exist" not in text:
            raise
        if sqlite_file:
            _remove_if_empty(sqlite_file)
        sys.stderr.write(_explain_missing_tables(error))
        sys.exit(1)


if __name__ == "__main__":
    main()
