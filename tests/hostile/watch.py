"""What must not change while untrusted code runs: files outside the box, and processes."""
from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from grader.core import sandbox

MARKER = "wd_hostile_marker"  # the name hostile cases try to create everywhere
SETTLE_S = 15.0  # how long sandboxes started by the pipeline's helper threads may take to end
TMP_KEY = "tmp owned by the sandbox user"
WORKER_TMP_PREFIXES = ("wd-cc-", "wd-emu-", "wd-probe-", "a2l-", "warpdrill-", "tmp")  # tempfile names the backends use


def descendants(pid: int | None = None) -> set[int]:
    """Every live process below `pid` (default: this one), read from /proc."""
    root = pid or os.getpid()
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":  # a zombie is already dead; its parent reaps it
            parent[int(entry)] = int(fields[1])
    found, frontier = set(), {root}
    while frontier:
        children = {p for p, pp in parent.items() if pp in frontier and p not in found}
        found |= children
        frontier = children
    return found


def _files(folder: Path) -> dict[str, tuple]:
    out = {}
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
        out[str(path.relative_to(folder))] = (st.st_mode, st.st_size, st.st_mtime_ns, digest)
    return out


def _owned_in_tmp(uid: int) -> set[str]:
    names = set()
    for entry in os.scandir("/tmp"):
        try:
            if entry.stat(follow_symlinks=False).st_uid == uid:
                names.add(entry.name)
        except OSError:
            pass
    return names


class Watch:
    """A snapshot of what untrusted code must leave alone; `assert_unchanged` compares with now.

    - a canary folder outside the project: every file's mode, size, mtime and content;
    - the project's var/ folder: its listing and mtime, and the database file's size and mtime;
    - /tmp: entries owned by the sandbox user (as root) and marker files;
    - processes: nothing new below this one.
    """

    def __init__(self, repo: Path, canary_dir: Path, extra_markers: list[Path] | None = None):
        self.repo, self.canary_dir = repo, canary_dir
        self.markers = [canary_dir / MARKER, repo / MARKER, repo / "var" / MARKER, *(extra_markers or [])]
        ids = sandbox.box.DEFAULT.ids()
        self.sandbox_uid = ids[0] if ids else None
        self.before = self._state()
        self.processes = descendants()

    def _state(self) -> dict:
        var = self.repo / "var"
        db = var / "db.sqlite3"
        return {
            "canary": _files(self.canary_dir),
            "var listing": sorted(os.listdir(var)) if var.exists() else None,
            "var mtime": var.stat().st_mtime_ns if var.exists() else None,
            "db": (db.stat().st_size, db.stat().st_mtime_ns) if db.exists() else None,
            TMP_KEY: _owned_in_tmp(self.sandbox_uid) if self.sandbox_uid else set(),
            "markers": [str(m) for m in self.markers if os.path.lexists(m)],
        }

    def assert_unchanged(self) -> None:
        now = self._state()
        # Other workers' sandboxes (tests running alongside) hand their own temporary work folders
        # to the sandbox user too; only a new entry of another name would come from a box.
        new_tmp = {n for n in now.pop(TMP_KEY) - self.before[TMP_KEY] if not n.startswith(WORKER_TMP_PREFIXES)}
        assert not new_tmp, f"new files in /tmp owned by the sandbox user: {sorted(new_tmp)}"
        for key, value in self.before.items():
            if key != TMP_KEY:
                assert now[key] == value, f"{key} changed: {value!r} -> {now[key]!r}"
        # The pipeline's background resource report (nvcc in its own box) may still be finishing.
        deadline = time.monotonic() + SETTLE_S
        while (left := descendants() - self.processes) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"processes left behind: {[Path(f'/proc/{p}/cmdline').read_bytes() for p in left if Path(f'/proc/{p}').exists()]}"
