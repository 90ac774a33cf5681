"""A compile cache on disk: the result of compiling one translation unit with one set of flags.

Keys are sha256(translation unit, flags, compiler version), so a resubmitted source, the same
solution run by many students, or `validate_problem` after `judge` compile once. Entries are
written atomically (a temporary file, then rename), so concurrent workers on one volume never
see half an entry; a corrupt entry is a miss. Compile errors are cached too (they are
deterministic); compile timeouts are not (they depend on the machine's load).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections import OrderedDict
from pathlib import Path

MEMORY_ITEMS = 256  # entries kept in the process, in front of the disk


# The form of the stored compile messages: entries of an older form (English only) are not reused.
MESSAGES_FORM = "messages-as-codes"


def cache_key(*parts: str) -> str:
    digest = hashlib.sha256(MESSAGES_FORM.encode() + b"\0")
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


# The checkout's root: the site's var/ lies under it (config/settings.py's VAR_DIR).
REPO_ROOT = Path(__file__).resolve().parents[3]
# Entries quote the student's source lines (compiler messages): only the worker's user may read them.
CACHE_DIR_MODE = 0o700


def default_cache_dir(cache_root: str | Path | None = None) -> Path:
    """`cache_root`/gpu (the site's cache folder: config/settings.py's WARPDRILL_CACHE_DIR, handed to
    the backends as their cache_root option), else var/cache/gpu under the repository root: the
    site's own var/, never a machine-wide temporary folder that other users could read or plant
    entries in."""
    return (Path(cache_root) if cache_root else REPO_ROOT / "var" / "cache") / "gpu"


class CompileCache:
    """Maps a key to (metadata dict, cubin bytes or None)."""

    def __init__(self, root: str | Path | None = None):
        self.root = Path(root) if root else default_cache_dir()
        self._memory: OrderedDict[str, tuple[dict, bytes | None]] = OrderedDict()

    def _make_private(self, folder: Path) -> None:
        """Create `folder` (a shard under the root) and the root itself with mode 0700; a root that
        exists already is narrowed to 0700 when this process owns it. Raises OSError."""
        if not self.root.is_dir():
            self.root.mkdir(parents=True, exist_ok=True, mode=CACHE_DIR_MODE)
        st = self.root.stat()
        if st.st_uid == os.geteuid() and st.st_mode & 0o077:
            os.chmod(self.root, CACHE_DIR_MODE)
        folder.mkdir(exist_ok=True, mode=CACHE_DIR_MODE)

    def _paths(self, key: str) -> tuple[Path, Path]:
        folder = self.root / key[:2]
        return folder / f"{key}.json", folder / f"{key}.cubin"

    def get(self, key: str) -> tuple[dict, bytes | None] | None:
        if key in self._memory:
            self._memory.move_to_end(key)
            return self._memory[key]
        meta_path, cubin_path = self._paths(key)
        try:
            meta = json.loads(meta_path.read_text())
            cubin = cubin_path.read_bytes() if meta.get("has_cubin") else None
        except (OSError, ValueError):
            return None
        if meta.get("has_cubin") and hashlib.sha256(cubin).hexdigest() != meta.get("cubin_sha256"):
            return None
        self._remember(key, (meta, cubin))
        return meta, cubin

    def put(self, key: str, meta: dict, cubin: bytes | None) -> None:
        meta = dict(meta, has_cubin=cubin is not None)
        if cubin is not None:
            meta["cubin_sha256"] = hashlib.sha256(cubin).hexdigest()
        self._remember(key, (meta, cubin))
        meta_path, cubin_path = self._paths(key)
        try:
            self._make_private(meta_path.parent)
            if cubin is not None:
                self._write(cubin_path, cubin)
            self._write(meta_path, json.dumps(meta).encode())  # last: the entry exists once this lands
        except OSError:
            pass  # a read-only or full cache volume costs speed, never a grading

    @staticmethod
    def _write(path: Path, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _remember(self, key: str, value: tuple[dict, bytes | None]) -> None:
        self._memory[key] = value
        self._memory.move_to_end(key)
        while len(self._memory) > MEMORY_ITEMS:
            self._memory.popitem(last=False)
