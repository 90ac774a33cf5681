"""The check pass's variants of a student's kernel, compiled side by side while the plain runs go.

A checked run (RunRequest.check) runs the kernel three more times after the plain run: aligned to a
page (the plain variant), under ThreadSanitizer (races.py, the `tsan` variant) and under the
shared-memory initcheck (initcheck.py, the `initcheck` variant). Each of the last two first compiles
the kernel once more (≈ 0.3-1 s of g++ each), one after the other. `start` compiles both in threads
as the check begins, so that the compiles overlap each other and the two plain runs (on a machine
with a free core, the check's wall time shrinks by about a compile); `wait` joins them before the
checkers look for their binaries. A failed or refused compile here changes nothing: the checker
finds no binary and builds (and reports) as before.
"""
from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)

CHECK_VARIANTS = ("tsan", "initcheck")


def start(backend, handle, variants: tuple[str, ...] = CHECK_VARIANTS) -> list[threading.Thread]:
    """Compile each of `variants` (the check plan's, checkplan.CheckPlan.variants; default all of
    CHECK_VARIANTS) that `handle` lacks, one thread each (backend._build_variant caches the binary on
    disk and records it in handle.binaries). Returns the threads for `wait`."""
    threads = []
    for variant in variants:
        if variant in handle.binaries:
            continue
        thread = threading.Thread(target=_build, args=(backend, handle, variant), name=f"prefetch-{variant}",
                                  daemon=True)
        thread.start()
        threads.append(thread)
    return threads


def wait(threads: list[threading.Thread]) -> None:
    """Join the threads of `start` (each ends with its compile, which the sandbox's time limit bounds)."""
    for thread in threads:
        thread.join()


def _build(backend, handle, variant: str) -> None:
    try:
        backend._build_variant(handle, variant)
    except Exception:  # the checker builds it again and reports what is wrong then
        log.debug("prefetching the %s variant failed", variant, exc_info=True)
