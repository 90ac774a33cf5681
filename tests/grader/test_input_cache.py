"""grader.core.input_cache: a package version's seeded inputs and expected outputs, computed once per process."""
from __future__ import annotations

import dataclasses

import numpy as np

from grader.core.input_cache import InputCache
from grader.core.judge import judge
from problems.core.package import parse_package
from tests.packages import tiny_package_files

COUNTING_HARNESS = """
import numpy as np
CALLS = {"generate": 0, "reference": 0}

def generate(case, rng):
    CALLS["generate"] += 1
    n = case["n"]
    return {"a": rng.random(n, dtype=np.float32), "b": rng.random(n, dtype=np.float32),
            "c": np.zeros(n, np.float32), "n": n}

def reference(inputs):
    CALLS["reference"] += 1
    return {"c": inputs["a"] + inputs["b"]}
"""


def _package(harness: str = COUNTING_HARNESS):
    return parse_package(tiny_package_files(**{"harness.py": harness}))


def test_the_same_seed_gives_equal_copies_and_leaves_the_generator_where_generate_would():
    cache = InputCache()
    package = _package()
    first = cache.loader()(package)
    second = cache.loader()(package)
    rng1, rng2 = np.random.default_rng(5), np.random.default_rng(5)
    a = first.generate({"n": 64}, rng1)
    b = second.generate({"n": 64}, rng2)
    assert cache.misses == 1 and cache.hits == 1
    assert np.array_equal(a["a"], b["a"]) and np.array_equal(a["b"], b["b"]) and a["n"] == b["n"] == 64
    assert a["a"] is not b["a"] and b["a"].flags.writeable  # a copy the judge may use freely
    b["a"][:] = -1  # the cached inputs stay as generated
    assert not np.array_equal(second.generate({"n": 64}, np.random.default_rng(5))["a"], b["a"])
    assert rng1.random() == rng2.random()  # both generators moved on by the same draws


def test_another_seed_case_variant_or_version_is_computed():
    cache = InputCache()
    package = _package()
    load = cache.loader()
    load(package).generate({"n": 64}, np.random.default_rng(5))
    load(package).generate({"n": 64}, np.random.default_rng(6))
    load(package).generate({"n": 65}, np.random.default_rng(5))
    load(_package(COUNTING_HARNESS + "\n# another version\n")).generate({"n": 64}, np.random.default_rng(5))
    assert (cache.misses, cache.hits) == (4, 0)


def test_the_reference_is_answered_for_equal_inputs_only():
    cache = InputCache()
    package = _package()
    h1 = cache.loader()(package)
    inputs = h1.generate({"n": 32}, np.random.default_rng(1))
    want = h1.reference({k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.items()})
    h2 = cache.loader()(package)
    again = h2.generate({"n": 32}, np.random.default_rng(1))
    got = h2.reference(again)
    assert np.array_equal(got["c"], want["c"])
    changed = dict(again, a=again["a"] + 1)
    assert np.array_equal(h2.reference(changed)["c"], changed["a"] + changed["b"])  # computed, not the cached one


def test_the_cache_stays_within_its_bytes():
    cache = InputCache(max_bytes=3 * 64 * 4 * 2)  # room for about one case's inputs and outputs
    load = cache.loader()
    package = _package()
    for seed in range(5):
        load(package).generate({"n": 64}, np.random.default_rng(seed))
    assert cache._bytes <= cache.max_bytes and len(cache._entries) <= 2


def test_a_judged_submission_gets_the_same_verdict_from_cached_inputs():
    """Two judgings of one package version through the cache: the second computes nothing and the
    verdicts and per-test results are the same."""
    from grader.core.backends.registry import get_backend

    cache = InputCache()
    files = tiny_package_files()
    package = parse_package(files)
    backend = get_backend("dummy")
    plain = judge(package, files["solution.cu"], backend)
    cached = [judge(dataclasses.replace(package, harness_loader=cache.loader()), files["solution.cu"], backend)
              for _ in range(2)]
    assert cache.hits >= cache.misses > 0
    for result in cached:
        assert result.verdict == plain.verdict
        assert [(t.name, t.verdict) for t in result.tests] == [(t.name, t.verdict) for t in plain.tests]


def test_containers_from_the_harness_are_not_shared_between_gradings():
    harness = COUNTING_HARNESS.replace('"n": n}', '"n": n, "extra": [1, 2]}')
    cache = InputCache()
    load = cache.loader()
    first = load(_package(harness)).generate({"n": 8}, np.random.default_rng(3))
    first["extra"].append(3)
    second = load(_package(harness)).generate({"n": 8}, np.random.default_rng(3))
    assert cache.hits == 1 and second["extra"] == [1, 2]
