"""The machine-wide copy of built emulator runtimes (grader/core/emulator/shared_cache.py): a fresh
checkout takes a complete runtime of the same hash instead of building it, and never a partial one."""
from __future__ import annotations

from grader.core.emulator import shared_cache

VARIANTS = ("fast", "tsan")


def runtime(folder, digest="abc", variants=VARIANTS):
    lib = folder / f"runtime-{digest}"
    (lib / "pch-fast" / "warpdrill").mkdir(parents=True)
    (lib / "pch-fast" / "warpdrill" / "prelude.hpp.gch").write_bytes(b"gch")
    for v in variants:
        (lib / f"libwdrt-{v}.a").write_bytes(v.encode())
        (lib / f".done-{v}").write_text(digest)
        (lib / f".done-pch-{v}").write_text(digest)
    return lib


def test_a_complete_shared_runtime_is_copied_into_an_empty_cache(tmp_path):
    runtime(tmp_path / "shared")
    assert shared_cache.fetch(tmp_path / "local", tmp_path / "shared", "abc", VARIANTS)
    local = tmp_path / "local" / "runtime-abc"
    assert (local / "libwdrt-tsan.a").read_bytes() == b"tsan"
    assert (local / "pch-fast" / "warpdrill" / "prelude.hpp.gch").read_bytes() == b"gch"
    assert not [p for p in (tmp_path / "local").iterdir() if p.name.startswith(".")]  # no staging folder left


def test_an_incomplete_or_other_runtime_is_not_taken(tmp_path):
    """A shared copy missing a variant, or of another hash, is left alone: the checkout builds its own."""
    runtime(tmp_path / "shared", variants=("fast",))
    runtime(tmp_path / "shared", digest="other")
    assert not shared_cache.fetch(tmp_path / "local", tmp_path / "shared", "abc", VARIANTS)
    assert not (tmp_path / "local" / "runtime-abc").exists()


def test_a_partial_local_build_is_not_overwritten(tmp_path):
    """A build under way (or interrupted) in this cache is build_runtime's to finish, under its lock."""
    runtime(tmp_path / "shared")
    (tmp_path / "local" / "runtime-abc").mkdir(parents=True)
    assert not shared_cache.fetch(tmp_path / "local", tmp_path / "shared", "abc", VARIANTS)
    assert list((tmp_path / "local" / "runtime-abc").iterdir()) == []


def test_a_finished_runtime_is_published_once_and_a_partial_one_never(tmp_path):
    lib = runtime(tmp_path / "local")
    assert shared_cache.publish(tmp_path / "local", tmp_path / "shared", "abc", VARIANTS)
    assert (tmp_path / "shared" / "runtime-abc" / "libwdrt-fast.a").read_bytes() == b"fast"
    (lib / "libwdrt-fast.a").write_bytes(b"changed")
    assert shared_cache.publish(tmp_path / "local", tmp_path / "shared", "abc", VARIANTS)  # already there: kept
    assert (tmp_path / "shared" / "runtime-abc" / "libwdrt-fast.a").read_bytes() == b"fast"
    runtime(tmp_path / "local", digest="half", variants=("fast",))
    assert not shared_cache.publish(tmp_path / "local", tmp_path / "shared", "half", VARIANTS)
    assert not (tmp_path / "shared" / "runtime-half").exists()
