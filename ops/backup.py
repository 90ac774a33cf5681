"""Backups of a WarpDrill site: the database, the problem packages folder and the site's own files.

One archive (an uncompressed tar; the PostgreSQL dump inside is already compressed) holds:
  manifest.json          when, which database engine, the row count of every table (restore checks them)
  database.pgdump        `pg_dump --format=custom` (PostgreSQL), or database.sqlite3 (SQLite's online backup)
  packages/...           the problem packages folder (WARPDRILL_PACKAGES_DIR, default problems/bank)
  var/seed_secret        the installation's hidden-test seed secret, when it lives in a file
  var/prints/...         printed exams (PDFs)

Problems and their versions are database rows (every file of a version is stored with it), so the
database alone restores every problem a course wrote; the packages folder is what `import_problems`
reads and is kept so that a restored site imports the same bank.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote, urlparse

from django.conf import settings
from django.db import connection

MANIFEST = "manifest.json"
FORMAT = 1


class BackupError(Exception):
    """A backup or restore that cannot be done (a missing tool, a failed dump, counts that differ)."""


@dataclass(frozen=True)
class Database:
    """Where a database is: engine "postgresql" or "sqlite", and its connection parameters."""

    engine: str
    name: str
    user: str = ""
    password: str = ""
    host: str = ""
    port: str = ""

    @classmethod
    def from_settings(cls, db: dict | None = None) -> Database:
        """The database of a Django DATABASES entry (default: the site's)."""
        db = db or settings.DATABASES["default"]
        engine = "sqlite" if db["ENGINE"].endswith("sqlite3") else "postgresql"
        if engine == "postgresql" and not db["ENGINE"].endswith("postgresql"):
            raise BackupError(f"backups support PostgreSQL and SQLite, not {db['ENGINE']}")
        return cls(engine, str(db["NAME"]), db.get("USER") or "", db.get("PASSWORD") or "", db.get("HOST") or "",
                   str(db.get("PORT") or ""))

    @classmethod
    def from_url(cls, url: str) -> Database:
        """postgres://user:password@host:port/name or sqlite:///path."""
        parsed = urlparse(url)
        if parsed.scheme == "sqlite":
            return cls("sqlite", unquote(parsed.path))
        if parsed.scheme not in ("postgres", "postgresql", "pgsql"):
            raise BackupError(f"unsupported database URL scheme {parsed.scheme!r}")
        return cls("postgresql", unquote(parsed.path.lstrip("/")), unquote(parsed.username or ""),
                   unquote(parsed.password or ""), parsed.hostname or "", str(parsed.port or ""))

    def pg_args(self) -> list[str]:
        """libpq connection arguments for pg_dump / pg_restore / psql."""
        args = []
        if self.host:
            args += ["-h", self.host]
        if self.port:
            args += ["-p", self.port]
        if self.user:
            args += ["-U", self.user]
        return args

    def pg_env(self) -> dict[str, str]:
        env = dict(os.environ)
        if self.password:
            env["PGPASSWORD"] = self.password
        return env


def _run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    if not shutil.which(cmd[0]):
        raise BackupError(f"{cmd[0]} is not installed (platform/system-packages.txt: postgresql-client)")
    result = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"{cmd[0]} failed ({result.returncode}): {result.stderr.strip()[-2000:]}")


def table_row_counts(db: Database) -> dict[str, int]:
    """{table: rows} for every table of the database's public schema (SQLite: every table but its own).
    BackupError when the database cannot be read."""
    import psycopg

    try:
        return _table_row_counts(db)
    except (psycopg.Error, sqlite3.Error) as exc:
        raise BackupError(f"the database {db.name} cannot be read: {exc}") from exc


def _table_row_counts(db: Database) -> dict[str, int]:
    if db.engine == "sqlite":
        with sqlite3.connect(db.name) as conn:
            tables = [r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            return {t: conn.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}
    import psycopg

    with psycopg.connect(dbname=db.name, user=db.user or None, password=db.password or None,
                         host=db.host or None, port=db.port or None, autocommit=True) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
        return {t: conn.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}


def _dump_database(db: Database, dest_dir: Path) -> str:
    """Write the database into dest_dir; return the file name."""
    if db.engine == "sqlite":
        name = "database.sqlite3"
        with sqlite3.connect(db.name) as source, sqlite3.connect(dest_dir / name) as target:
            source.backup(target)  # a consistent copy while other processes write (SQLite's online backup)
        return name
    name = "database.pgdump"
    # One consistent snapshot (a single transaction); no owners or grants, so it restores under any role.
    _run(["pg_dump", *db.pg_args(), "--format=custom", "--no-owner", "--no-privileges",
          "--file", str(dest_dir / name), db.name], db.pg_env())
    return name


def packages_dir() -> Path:
    """The problem packages folder: WARPDRILL_PACKAGES_DIR, default problems/bank of the checkout."""
    return Path(settings.WARPDRILL_PACKAGES_DIR or settings.BASE_DIR / "problems" / "bank")


def create_backup(archive: Path, db: Database | None = None, packages: Path | None = None,
                  var_dir: Path | None = None) -> dict:
    """Back the site up into `archive` (a .tar file); return the manifest.

    db: the database (default: the site's); packages: the packages folder (default packages_dir());
    var_dir: the site's var folder, whose seed_secret and prints/ are kept (default settings.VAR_DIR).
    Raises BackupError when a tool is missing or the dump fails; nothing is left at `archive` then.
    """
    db = db or Database.from_settings()
    packages = packages or packages_dir()
    var_dir = Path(var_dir or settings.VAR_DIR)
    archive = Path(archive)
    connection.close()  # SQLite: no open transaction of ours in the copy
    with tempfile.TemporaryDirectory(prefix="warpdrill-backup-") as tmp:
        tmp_dir = Path(tmp)
        counts = table_row_counts(db)
        dump_name = _dump_database(db, tmp_dir)
        manifest = {
            "format": FORMAT,
            "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "engine": db.engine,
            "database_file": dump_name,
            "row_counts": counts,
            "packages": packages.is_dir(),
            "var_files": [],
        }
        partial = archive.with_name(archive.name + ".partial")
        with tarfile.open(partial, "w") as tar:
            tar.add(tmp_dir / dump_name, arcname=dump_name)
            if packages.is_dir():
                tar.add(packages, arcname="packages", filter=_skip_caches)
            for rel in ("seed_secret", "prints"):
                if (var_dir / rel).exists():
                    tar.add(var_dir / rel, arcname=f"var/{rel}")
                    manifest["var_files"].append(rel)
            data = json.dumps(manifest, indent=1, sort_keys=True).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size = len(data)
            import io

            tar.addfile(info, io.BytesIO(data))
        partial.replace(archive)  # a backup that exists is complete
    return manifest


def _skip_caches(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    return None if "__pycache__" in info.name.split("/") else info


def read_manifest(archive: Path) -> dict:
    """The manifest of a backup archive; BackupError when it is not one."""
    try:
        with tarfile.open(archive, "r") as tar:
            return json.load(tar.extractfile(MANIFEST))
    except (OSError, KeyError, tarfile.TarError, json.JSONDecodeError) as exc:
        raise BackupError(f"{archive} is not a WarpDrill backup: {exc}") from exc


def restore_backup(archive: Path, db: Database | None = None, packages: Path | None = None,
                   var_dir: Path | None = None, force: bool = False) -> dict:
    """Restore `archive` into `db` (default: the site's database), the packages folder and var files.

    The database must exist (createdb it first) and be empty, unless `force`: then its tables are
    dropped and replaced (pg_restore --clean). packages: where the packages folder goes (default:
    WARPDRILL_PACKAGES_DIR when set, else it is not restored: problems/bank comes with the code);
    var_dir: where seed_secret and prints/ go (default settings.VAR_DIR).
    Afterwards every table's row count is compared with the manifest's; returns
    {"manifest": ..., "row_counts": ..., "packages": path or None}. Raises BackupError on a mismatch.
    """
    manifest = read_manifest(archive)
    if manifest.get("format") != FORMAT:
        raise BackupError(f"backup format {manifest.get('format')} is not {FORMAT}")
    db = db or Database.from_settings()
    if db.engine != manifest["engine"]:
        raise BackupError(f"the backup is of a {manifest['engine']} database; the target is {db.engine}")
    # The default bank folder is part of the code (the checkout, the image): it is replaced only when
    # asked (packages) or when the site keeps its own folder (WARPDRILL_PACKAGES_DIR).
    packages = Path(packages) if packages else (packages_dir() if settings.WARPDRILL_PACKAGES_DIR else None)
    var_dir = Path(var_dir or settings.VAR_DIR)
    existing = _existing_tables(db)
    if existing and not force:
        raise BackupError(f"the target database {db.name} has {len(existing)} tables; restore into an empty "
                          "database, or pass --force to replace them")
    connection.close()
    with tempfile.TemporaryDirectory(prefix="warpdrill-restore-") as tmp:
        tmp_dir = Path(tmp)
        with tarfile.open(archive, "r") as tar:
            tar.extractall(tmp_dir, filter="data")
        dump = tmp_dir / manifest["database_file"]
        if db.engine == "sqlite":
            with sqlite3.connect(dump) as source, sqlite3.connect(db.name) as target:
                source.backup(target)
        else:
            _run(["pg_restore", *db.pg_args(), "--no-owner", "--no-privileges", "--exit-on-error",
                  *(["--clean", "--if-exists"] if existing else []), "--dbname", db.name, str(dump)], db.pg_env())
        restored_packages = None
        if packages is not None and manifest.get("packages") and (tmp_dir / "packages").is_dir():
            if packages.exists():
                shutil.rmtree(packages)
            packages.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(tmp_dir / "packages", packages)
            restored_packages = str(packages)
        for rel in manifest.get("var_files", []):
            source, target = tmp_dir / "var" / rel, var_dir / rel
            if target.is_dir():
                shutil.rmtree(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            (shutil.copytree if source.is_dir() else shutil.copy2)(source, target)
    counts = table_row_counts(db)
    differ = {t: (n, counts.get(t)) for t, n in manifest["row_counts"].items() if counts.get(t) != n}
    if differ:
        raise BackupError(f"restored row counts differ from the backup's (table: backup, restored): {differ}")
    return {"manifest": manifest, "row_counts": counts, "packages": restored_packages}


def _existing_tables(db: Database) -> list[str]:
    if db.engine == "sqlite" and not Path(db.name).exists():
        return []
    return list(table_row_counts(db))
