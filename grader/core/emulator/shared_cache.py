"""A copy of built emulator runtimes shared by the checkouts of one machine, found by the runtime's hash.

The runtime (`<cache>/runtime-<hash>/`: the libraries and precompiled preludes of every variant)
takes ≈ 40 s of two cores to build and depends only on what its hash covers (the sources, the
headers, the flags, the compiler's version). A fresh clone of the same commit, or a second site,
would build the very same files again: `fetch` copies them from a machine-wide folder
(`~/.cache/warpdrill/emulator` in platform/bootstrap.sh) instead, and `publish` puts a finished
runtime there. Both copy into a temporary folder and rename it into place, so a reader never sees a
half-copied runtime; a runtime is complete when every variant's `.done-<variant>` marker (and the
precompiled prelude's `.done-pch-<variant>`) is there.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def _complete(lib_dir: Path, variants) -> bool:
    return all((lib_dir / f".done-{v}").exists() and (lib_dir / f".done-pch-{v}").exists() for v in variants)


def _copy_into(source: Path, target: Path) -> None:
    """Copy the folder `source` to `target` (absent), through a temporary sibling and a rename."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        shutil.copytree(source, staging / "copy", symlinks=True)
        os.rename(staging / "copy", target)
    except OSError:
        if not target.exists():
            raise
        # Another process put the same runtime there first: its copy is as good as ours.
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def fetch(cache_dir: Path, shared_dir: Path, digest: str, variants) -> bool:
    """Copy the runtime `digest` from `shared_dir` into `cache_dir` when this cache lacks it and the
    shared copy is complete for every one of `variants`. Returns True when this cache now holds a
    complete runtime (copied or already there). Raises OSError only when the copy itself fails."""
    local, shared = cache_dir / f"runtime-{digest}", shared_dir / f"runtime-{digest}"
    if _complete(local, variants):
        return True
    if local.exists() or not _complete(shared, variants):
        return False  # a partial local build is finished by build_runtime, under its lock
    _copy_into(shared, local)
    return _complete(local, variants)


def publish(cache_dir: Path, shared_dir: Path, digest: str, variants) -> bool:
    """Copy the complete runtime `digest` of `cache_dir` into `shared_dir` unless it is there already.
    Returns True when the shared folder holds it afterwards; False when the local one is incomplete."""
    local, shared = cache_dir / f"runtime-{digest}", shared_dir / f"runtime-{digest}"
    if not _complete(local, variants):
        return False
    if not shared.exists():
        _copy_into(local, shared)
    return _complete(shared, variants)
