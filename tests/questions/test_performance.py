"""Roofline and Little's-law families on named GPUs. The answers are recomputed here from the figures the
prompt prints (so the key and the text cannot drift apart), by searching rather than by the closed forms."""
import re
from collections import Counter

import pytest

from problems.core.gpus import gpu

from .familycheck import assert_family_basics, questions


def test_basics():
    assert_family_basics("performance.roofline")
    assert_family_basics("performance.littles_law")


def printed(q, pattern):
    text = " ".join(b["text"] for b in q.render("en")["prompt"] if b["kind"] == "p")
    return int(re.search(pattern, text).group(1))


def test_roofline_from_the_printed_figures():
    for d in (1, 2):
        verdicts = Counter()
        for q in questions("performance.roofline", d):
            peak, bw = printed(q, r"peak FP32 (\d+) GFLOP/s"), printed(q, r"bandwidth (\d+) GB/s")
            flops, nbytes = ((q.params["flops"], q.params["bytes"]) if d == 1 else (2 * q.params["degree"], 8))
            ai = flops / nbytes
            assert q.answer["ai"] == pytest.approx(ai, rel=1e-5)
            assert q.answer["gflops"] == pytest.approx(min(peak, ai * bw), rel=1e-5)
            assert q.answer["bound"] == ("compute" if ai * bw >= peak else "memory")
            verdicts[q.answer["bound"]] += 1
        assert max(verdicts.values()) / 300 <= 0.65, verdicts  # two options: neither is a safe guess
    for q in questions("performance.roofline", 3, range(60)):
        peak, bw = printed(q, r"peak FP32 (\d+) GFLOP/s"), printed(q, r"bandwidth (\d+) GB/s")
        assert q.answer["tile"] == next(T for T in range(1, 10_000) if T / 4 * bw >= peak)


def test_littles_law_by_counting_warps():
    fits = Counter()
    for d in (1, 2, 3):
        for q in questions("performance.littles_law", d, range(100 if d < 3 else 60)):
            g = gpu(q.params["gpu"])
            bw, lat = printed(q, r"bandwidth (\d+) GB/s"), q.params["latency"]
            in_flight = bw * lat  # (1e9 B/s) × (1e-9 s)
            if d == 1:
                assert q.answer["total"] == in_flight
                assert q.answer["per_sm"] == pytest.approx(in_flight / g.sm_count, rel=1e-6)
                continue
            per_warp = 128 * q.params.get("ilp", 1)
            warps = next(w for w in range(1, 100_000) if w * per_warp * g.sm_count >= in_flight)
            assert q.answer["warps"] == warps
            if d == 2:
                assert q.answer["fits"] == ("yes" if warps <= g.capability.max_warps_per_sm else "no")
                fits[q.answer["fits"]] += 1
            else:
                frac = min(1.0, q.params["resident"] * per_warp * g.sm_count / in_flight)
                assert q.answer["fraction"] == pytest.approx(frac, abs=1e-6)
    assert set(fits) == {"yes", "no"}
