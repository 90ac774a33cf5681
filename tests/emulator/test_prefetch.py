"""The check pass's variants compiled side by side (grader/core/emulator/prefetch.py)."""
from __future__ import annotations

import threading
import time

from grader.core.emulator import prefetch


class Handle:
    def __init__(self, binaries=None):
        self.binaries = dict(binaries or {})


class Backend:
    """Records which variants it was asked to build, and in which threads at once."""

    def __init__(self, fail=()):
        self.built, self.fail, self.running, self.most = [], set(fail), 0, 0
        self.lock = threading.Lock()

    def _build_variant(self, handle, variant):
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(0.2)
        with self.lock:
            self.running -= 1
        if variant in self.fail:
            raise RuntimeError("the compiler went away")
        self.built.append(variant)
        handle.binaries[variant] = f"/bin/{variant}"
        return True, [], "", False


def test_the_missing_check_variants_compile_at_the_same_time():
    backend, handle = Backend(), Handle({"fast": "/bin/fast"})
    prefetch.wait(prefetch.start(backend, handle))
    assert sorted(backend.built) == ["initcheck", "tsan"] and backend.most == 2
    assert set(handle.binaries) == {"fast", "tsan", "initcheck"}


def test_a_variant_already_built_is_not_built_again_and_a_failure_is_left_to_the_checker():
    backend, handle = Backend(fail={"initcheck"}), Handle({"tsan": "/bin/tsan"})
    prefetch.wait(prefetch.start(backend, handle))
    assert backend.built == [] and "initcheck" not in handle.binaries  # the checker builds and reports it
