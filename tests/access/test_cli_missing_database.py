"""The README's command-line tools on a database with no tables: a clear message, no traceback, no stray file."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_command_on_an_empty_var_dir_names_the_database_and_the_fix(tmp_path):
    """`manage.py submit` with WARPDRILL_VAR_DIR pointing at an empty folder says which database it opened
    and how to point it at the site's, exits 1, and leaves no empty db.sqlite3 behind."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "WARPDRILL_TESTING", "WARPDRILL_TEST_RUN_ID")}
    env["WARPDRILL_VAR_DIR"] = str(tmp_path)
    kernel = tmp_path / "k.cu"
    kernel.write_text("__global__ void k() {}\n")
    proc = subprocess.run(
        [sys.executable, "manage.py", "submit", "--user", "student", "--problem", "block-sum", str(kernel)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert f"This command looked at: {tmp_path / 'db.sqlite3'}" in proc.stderr
    assert "WARPDRILL_VAR_DIR=" in proc.stderr
    assert not (tmp_path / "db.sqlite3").exists()
