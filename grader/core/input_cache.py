"""Test-case inputs and the reference's outputs, kept per package version in the grading process.

A test case's inputs are seeded (cases.case_seed: the test, the problem and the site's secret), so
every submission to one package version gets the same inputs and the same expected outputs. A
grading process (a Celery pool process) computes them once and then hands out copies: the
harness's generate() and reference() run at the first grading of each version, not at every one
(issue 17: "inputs generated once per package version and cached").

`InputCache.loader(inner)` is a ProblemPackage.harness_loader: the harness it returns answers
generate(case, rng) from the cache when the package's content hash, its variant, the case's
parameters and the generator's state are those of a call it has seen (the generator is then left
in the state that call left it in), and reference(inputs) when the inputs equal the ones the
cached generate() gave (compared element by element: a copy costs a memory pass, so does the
check). The cache holds at most `max_bytes` of arrays (least recently used first out).

Plain Python and numpy; nothing of Django's.
"""
from __future__ import annotations

import copy
import dataclasses
import json
import threading
from collections import OrderedDict
from typing import Any, Callable

import numpy as np

DEFAULT_MAX_BYTES = 128 << 20


def _copy(values: dict) -> dict:
    """Arrays copied (writable), containers deep-copied, scalars as they are."""
    return {k: (v.copy() if isinstance(v, np.ndarray) else copy.deepcopy(v) if isinstance(v, (list, dict, set))
                else v) for k, v in values.items()}


def _frozen(values: dict) -> dict:
    out = {}
    for k, v in values.items():
        if isinstance(v, np.ndarray):
            v = v.copy()
            v.flags.writeable = False
        elif isinstance(v, (list, dict, set)):
            v = copy.deepcopy(v)
        out[k] = v
    return out


def _nbytes(values: dict) -> int:
    return sum(v.nbytes for v in values.values() if isinstance(v, np.ndarray))


def _same(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    for k, v in a.items():
        w = b[k]
        if isinstance(v, np.ndarray) or isinstance(w, np.ndarray):
            if not (isinstance(v, np.ndarray) and isinstance(w, np.ndarray)) or v.dtype != w.dtype \
                    or v.shape != w.shape or not np.array_equal(v, w, equal_nan=True):
                return False
        elif type(v) is not type(w) or v != w:
            return False
    return True


@dataclasses.dataclass
class _Entry:
    inputs: dict  # what generate() returned (read-only copies)
    state_after: Any  # the generator's state after that call
    expected: dict | None = None  # what reference() returned for those inputs
    nbytes: int = 0
    cached: bool = False  # held by the cache (not evicted, not too big)


class InputCache:
    """Cached generate()/reference() results of package harnesses; thread-safe. `hits` and `misses`
    count generate() calls answered from the cache and computed."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple, _Entry] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def loader(self, inner: Callable | None = None) -> Callable:
        """A ProblemPackage.harness_loader whose harness caches `inner`'s (None: the package's own
        harness.py, as ProblemPackage.load_harness loads it)."""
        def load(package):
            from problems.core.package import Harness

            harness = dataclasses.replace(package, harness_loader=inner).load_harness()
            variant = json.dumps(package.variant or {}, sort_keys=True, default=str)
            last: dict[str, _Entry] = {}  # the entry of the latest generate(): reference() follows it
            return Harness(generate=self._generate((package.content_hash, variant), harness, last),
                           reference=self._reference(harness, last))
        return load

    def _generate(self, prefix: tuple, harness, last: dict):
        def generate(case: dict, rng):
            key = (*prefix, json.dumps(case, sort_keys=True, default=str), repr(rng.bit_generator.state))
            with self._lock:
                entry = self._entries.get(key)
                if entry is not None:
                    self._entries.move_to_end(key)
                    self.hits += 1
            if entry is not None:
                rng.bit_generator.state = entry.state_after
                last["entry"] = entry
                return _copy(entry.inputs)
            inputs = harness.generate(case, rng)
            entry = _Entry(_frozen(inputs), rng.bit_generator.state)
            entry.nbytes = _nbytes(entry.inputs)
            with self._lock:
                self.misses += 1
                if entry.nbytes <= self.max_bytes:
                    self._entries[key] = entry
                    self._bytes += entry.nbytes
                    entry.cached = True
                    self._evict()
            last["entry"] = entry
            return inputs
        return generate

    def _reference(self, harness, last: dict):
        def reference(inputs: dict):
            entry = last.get("entry")
            match = entry is not None and _same(inputs, entry.inputs)  # before reference() may write into them
            if match and entry.expected is not None:
                return _copy(entry.expected)
            expected = harness.reference(inputs)
            if match and isinstance(expected, dict):
                entry.expected = _frozen(expected)
                size = _nbytes(entry.expected)
                with self._lock:
                    entry.nbytes += size
                    if entry.cached:
                        self._bytes += size
                        self._evict()
            return expected
        return reference

    def _evict(self) -> None:
        while self._bytes > self.max_bytes and self._entries:
            _, old = self._entries.popitem(last=False)
            old.cached = False
            self._bytes -= old.nbytes
