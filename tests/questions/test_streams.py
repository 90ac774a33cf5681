"""performance.streams: timelines replayed by a small event simulation written here (engines as FIFO queues
of the issued operations, each operation waiting for its chunk's previous stage)."""
import pytest

from .familycheck import assert_family_basics, questions


def test_basics():
    assert_family_basics("performance.streams")


def simulate(n, h, k, d, engines):
    """Issue breadth-first; engines: 'two' (H2D, D2H separate) or 'one' (one copy engine). Returns the end."""
    ops = [("in", i) for i in range(n)] + [("k", i) for i in range(n)] + [("out", i) for i in range(n)]
    engine_of = {"in": "copy_in", "k": "compute", "out": "copy_out" if engines == "two" else "copy_in"}
    duration = {"in": h, "k": k, "out": d}
    prev_stage = {"k": "in", "out": "k"}
    free, done = {}, {}
    for op in ops:  # each engine takes its operations in issue order
        kind, i = op
        start = max(free.get(engine_of[kind], 0), done.get((prev_stage.get(kind), i), 0))
        done[op] = start + duration[kind]
        free[engine_of[kind]] = done[op]
    return max(done.values())


def test_timelines_by_simulation():
    for q in questions("performance.streams", 1, range(100)):
        n, h, k, d = (q.params[x] for x in ("n", "h", "k", "d"))
        assert q.answer["one_stream"] == pytest.approx(n * (h + k + d))
        assert q.answer["streams"] == pytest.approx(simulate(n, h, k, d, "two"))
    for q in questions("performance.streams", 2, range(100)):
        n = q.params["n"]
        h = q.params["mb"] * 1e6 / (q.params["gbps"] * 1e9) / n * 1e6
        k = q.params["k_total"] / n
        total = simulate(n, h, k, h, "two")
        assert q.answer["copy_us"] == pytest.approx(h, rel=1e-6)
        assert q.answer["total_us"] == pytest.approx(total, rel=1e-6)
        assert q.answer["speedup"] == pytest.approx((2 * h * n + q.params["k_total"]) / total, rel=1e-6)
    differ = 0
    for q in questions("performance.streams", 3, range(100)):
        n, h, k, d = (q.params[x] for x in ("n", "h", "k", "d"))
        assert q.answer["two_engines"] == pytest.approx(simulate(n, h, k, d, "two"))
        assert q.answer["one_engine"] == pytest.approx(simulate(n, h, k, d, "one"))
        differ += q.answer["one_engine"] != q.answer["two_engines"]
    assert differ > 50  # the shared engine usually costs time
