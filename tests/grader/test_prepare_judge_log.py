"""`manage.py prepare_judge` says when each emulator variant STARTS building, not only when it is done:
make dev's banner points to its log (var/log/runtime.log), and a first build takes minutes on a busy
machine. A variant already built gets no "building" line."""
from __future__ import annotations

import io

from django.core.management import call_command

from grader.core.emulator import toolchain
from grader.management.commands import prepare_judge


class FakeEmulator:
    """The emulator backend's face prepare_judge sees; `runtime` records what the log said before it."""

    name = "emulator"
    cxx = toolchain.DEFAULT_CXX

    def __init__(self, cache_dir, out):
        self.cache_dir, self.out, self.seen = cache_dir, out, {}

    def runtime(self, variant):
        self.seen[variant] = self.out.getvalue()
        lib = self.cache_dir / f"runtime-{toolchain.runtime_hash(self.cxx)}"
        lib.mkdir(parents=True, exist_ok=True)
        (lib / f".done-{variant}").write_text("x")


def test_each_variant_is_logged_when_its_build_starts(tmp_path, monkeypatch):
    out = io.StringIO()
    backend = FakeEmulator(tmp_path, out)
    lib = tmp_path / f"runtime-{toolchain.runtime_hash(backend.cxx)}"
    lib.mkdir()
    (lib / ".done-tsan").write_text("x")  # built already: no "building" line for it
    monkeypatch.setattr(prepare_judge, "get_backend", lambda name=None: backend)
    call_command("prepare_judge", backend="emulator", stdout=out)
    for variant in toolchain.VARIANTS:
        started = f": building {variant} ("
        if variant == "tsan":
            assert started not in out.getvalue()
        else:
            assert started in backend.seen[variant], (variant, backend.seen[variant])
    assert "emulator backend ready" in out.getvalue()
