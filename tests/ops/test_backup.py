"""`manage.py backup` / `restore`: against the real PostgreSQL (back up, restore into a new database,
compare every table's row count and one exam's scores), and the SQLite round trip of `make dev`."""
from __future__ import annotations

import sqlite3
import subprocess
import tarfile
import uuid

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ops.backup import BackupError, Database, create_backup, read_manifest, restore_backup, table_row_counts
from tests.exams.conftest import (course, exam, fast_password_hasher, kernel_problem, people,  # noqa: F401 (fixtures)
                                  right_answers)

postgres_only = pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                                   reason="needs PostgreSQL: export DATABASE_URL=postgres://... as .ci/run does")


def _psql(db: Database, sql: str) -> str:
    out = subprocess.run(["psql", *db.pg_args(), "-d", "postgres", "-tAc", sql], env=db.pg_env(), capture_output=True,
                         text=True, check=True)
    return out.stdout


@pytest.fixture
def new_database():
    """An empty PostgreSQL database on the test server, dropped afterwards."""
    site = Database.from_settings()
    target = Database("postgresql", f"wd_restore_{uuid.uuid4().hex[:10]}", site.user, site.password, site.host, site.port)
    _psql(target, f'CREATE DATABASE "{target.name}"')
    yield target
    _psql(target, f'DROP DATABASE IF EXISTS "{target.name}" WITH (FORCE)')


def _scores(db: Database, exam_id: int) -> list[tuple]:
    """(student, state, total, max_total, item key, points) of every item of the exam, in a fixed order."""
    import psycopg

    with psycopg.connect(dbname=db.name, user=db.user or None, password=db.password or None, host=db.host or None,
                         port=db.port or None) as conn:
        return conn.execute(
            "SELECT u.username, a.state, a.total, a.max_total, i.key, i.points FROM exams_examattempt a "
            "JOIN auth_user u ON u.id = a.user_id JOIN exams_examitem i ON i.attempt_id = a.id "
            "WHERE a.exam_id = %s ORDER BY u.username, i.key", [exam_id]).fetchall()


@postgres_only
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_backup_and_restore_into_a_new_postgres_database(exam, people, new_database, tmp_path, settings):
    """Two students' submitted attempts (one all right, one half right) survive a backup and a restore
    into a new database: the same rows in every table and the same scores item by item."""
    from exams.actions.attempts import save_answers, start_attempt, submit_attempt

    for name, right in (("alice", True), ("bob", False)):
        attempt = start_attempt(exam, people[name])
        answers = {}
        for item in attempt.items.filter(kind="question").order_by("key"):
            answers[item.key] = right_answers(item) if right or not answers else {n: "999" for n in item.data["question"]["answer"]}
        save_answers(attempt.pk, people[name], answers)
        submit_attempt(attempt.pk, people[name])
    site = Database.from_settings()
    before = _scores(site, exam.pk)
    assert [row[0] for row in before].count("alice") >= 2 and len({row[2] for row in before}) == 2, before

    settings.VAR_DIR = tmp_path / "var"
    (tmp_path / "var").mkdir()
    (tmp_path / "var" / "seed_secret").write_text("s3cret\n")
    archive = tmp_path / "site.tar"
    call_command("backup", str(archive))
    manifest = read_manifest(archive)
    assert manifest["engine"] == "postgresql" and manifest["row_counts"]["exams_examattempt"] == 2
    assert manifest["var_files"] == ["seed_secret"] and manifest["packages"]
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert "database.pgdump" in names and any(n.startswith("packages/") for n in names)

    url = f"postgres://{site.user}{':' + site.password if site.password else ''}@{site.host or 'localhost'}" \
          f"{':' + site.port if site.port else ''}/{new_database.name}"
    restored_var = tmp_path / "restored-var"
    call_command("restore", str(archive), database_url=url, var_dir=str(restored_var),
                 packages_dir=str(tmp_path / "packages"))
    assert table_row_counts(new_database) == table_row_counts(site)
    assert _scores(new_database, exam.pk) == before
    assert (restored_var / "seed_secret").read_text() == "s3cret\n"
    assert (tmp_path / "packages").is_dir() and any((tmp_path / "packages").iterdir())

    with pytest.raises(CommandError, match="has .* tables; restore into an empty database"):
        call_command("restore", str(archive), database_url=url, var_dir=str(restored_var))
    call_command("restore", str(archive), database_url=url, var_dir=str(restored_var), force=True)
    assert _scores(new_database, exam.pk) == before


def _sqlite_site(path):
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE exams_examattempt (id INTEGER PRIMARY KEY, total REAL)")
        conn.executemany("INSERT INTO exams_examattempt (total) VALUES (?)", [(10.0,), (7.5,), (None,)])
        conn.execute("CREATE TABLE auth_user (id INTEGER PRIMARY KEY, username TEXT)")
        conn.execute("INSERT INTO auth_user (username) VALUES ('alice')")
    return Database("sqlite", str(path))


def test_sqlite_round_trip_with_packages_and_files(tmp_path):
    source = _sqlite_site(tmp_path / "site.sqlite3")
    packages = tmp_path / "bank"
    (packages / "tiny-add").mkdir(parents=True)
    (packages / "tiny-add" / "problem.yaml").write_text("slug: tiny-add\n")
    (packages / "__pycache__").mkdir()
    (packages / "__pycache__" / "x.pyc").write_bytes(b"\0")
    var = tmp_path / "var"
    (var / "prints" / "exam-1").mkdir(parents=True)
    (var / "prints" / "exam-1" / "a.pdf").write_bytes(b"%PDF-1.7")
    archive = tmp_path / "b.tar"
    manifest = create_backup(archive, db=source, packages=packages, var_dir=var)
    assert manifest["row_counts"] == {"auth_user": 1, "exams_examattempt": 3}
    assert manifest["var_files"] == ["prints"]

    target = Database("sqlite", str(tmp_path / "restored.sqlite3"))
    report = restore_backup(archive, db=target, packages=tmp_path / "restored-bank", var_dir=tmp_path / "rvar")
    assert report["row_counts"] == manifest["row_counts"]
    with sqlite3.connect(target.name) as conn:
        assert [r[0] for r in conn.execute("SELECT total FROM exams_examattempt ORDER BY id")] == [10.0, 7.5, None]
    assert (tmp_path / "restored-bank" / "tiny-add" / "problem.yaml").read_text() == "slug: tiny-add\n"
    assert not (tmp_path / "restored-bank" / "__pycache__").exists()
    assert (tmp_path / "rvar" / "prints" / "exam-1" / "a.pdf").read_bytes() == b"%PDF-1.7"


def test_restore_refuses_a_non_empty_database_and_checks_the_counts(tmp_path, monkeypatch):
    source = _sqlite_site(tmp_path / "site.sqlite3")
    archive = tmp_path / "b.tar"
    create_backup(archive, db=source, packages=tmp_path / "none", var_dir=tmp_path / "var")
    with pytest.raises(BackupError, match="has 2 tables"):
        restore_backup(archive, db=source, var_dir=tmp_path / "v")
    from ops import backup

    real = backup.table_row_counts
    monkeypatch.setattr(backup, "table_row_counts", lambda db: {**real(db), "auth_user": 0})
    with pytest.raises(BackupError, match="row counts differ"):
        restore_backup(archive, db=Database("sqlite", str(tmp_path / "r.sqlite3")), var_dir=tmp_path / "v")


def test_a_failed_dump_leaves_no_archive(tmp_path):
    """pg_dump of a database that does not exist fails with its message; no half archive is left."""
    db = Database("postgresql", "no_such_database_xyz", host="127.0.0.1", port="1")
    archive = tmp_path / "b.tar"
    with pytest.raises(BackupError):
        create_backup(archive, db=db, packages=tmp_path, var_dir=tmp_path)
    assert not archive.exists() and not list(tmp_path.glob("*.partial"))


def test_not_a_backup_is_refused(tmp_path):
    bogus = tmp_path / "x.tar"
    bogus.write_text("nope")
    with pytest.raises(BackupError, match="is not a WarpDrill backup"):
        read_manifest(bogus)
