"""Warp-divergence families, checked by simulating every thread of the launch with NumPy."""
import numpy as np
import pytest

from practice.core.questions import generate

from .familycheck import assert_family_basics, questions


@pytest.mark.parametrize("family_id", ["divergence.boundary_warps", "divergence.branch_cost"])
def test_basics(family_id):
    assert_family_basics(family_id)


def _warp_stats(active):
    """active: bool array (..., warps, 32) -> (warps, divergent, idle)."""
    n = active.sum(axis=-1)
    return n.size, int(((n > 0) & (n < 32)).sum()), int((n == 0).sum())


def _c_condition(src):
    """The condition as the student reads it (C integer arithmetic on threadIdx.x >= 0), evaluated per thread."""
    expr = src.replace("threadIdx.x", "t").replace("/", "//")
    return lambda t: eval(expr, {}, {"t": t})  # noqa: S307 (our own generated text)


def test_1d_guard_by_simulation():
    """n = 1000 with 256-thread blocks: 32 warps, only warp 31 (i = 992..1023) diverges."""
    for q in questions("divergence.boundary_warps", 1, range(150)):
        n, b = q.params["n"], q.params["block"]
        blocks = -(-n // b)
        i = np.arange(blocks * b).reshape(-1, 32)
        warps, div, _ = _warp_stats(i < n)
        assert q.answer["warps"] == warps and q.answer["divergent"] == div
        assert q.answer["efficiency"] == pytest.approx(n / (warps * 32), abs=1e-6)


def test_2d_guard_by_simulation():
    for q in questions("divergence.boundary_warps", 2, range(60)):
        w, h, bx, by = (q.params[k] for k in ("w", "h", "bx", "by"))
        gx, gy = -(-w // bx), -(-h // by)
        ty, tx = np.divmod(np.arange(bx * by), bx)  # thread order inside a block: x fastest
        x = (np.arange(gx)[None, :, None] * bx + tx[None, None, :])
        y = (np.arange(gy)[:, None, None] * by + ty[None, None, :])
        active = ((x < w) & (y < h)).reshape(gy, gx, -1, 32)
        assert (q.answer["warps"], q.answer["divergent"], q.answer["idle"]) == _warp_stats(active)


def test_threadidx_conditions_by_simulation():
    seen = set()
    for q in questions("divergence.boundary_warps", 3, range(300)):
        src = q.render("en")["prompt"][1]["text"].split("if (", 1)[1].rsplit(") {", 1)[0]
        cond = _c_condition(src)
        taken = np.array([bool(cond(t)) for t in range(q.params["block"])]).reshape(-1, 32)
        n = taken.sum(axis=1)
        assert q.answer["divergent"] == int(((n > 0) & (n < 32)).sum())
        eff = taken.sum() / (32 * (n > 0).sum()) if (n > 0).any() else 1.0
        assert q.answer["efficiency"] == pytest.approx(eff, abs=1e-6)
        seen.add(q.answer["divergent"] == 0)
    assert seen == {True, False}  # warp-aligned conditions appear as well as divergent ones


def test_branch_cost_by_simulation():
    """Each warp pays every path one of its lanes takes; useful work counts lanes on their own path."""
    for d in (1, 2, 3):
        for q in questions("divergence.branch_cost", d, range(100)):
            src = q.render("en")["prompt"][1]["text"]
            conds = [line.split("if (", 1)[1].rsplit(") {", 1)[0] for line in src.splitlines() if "if (" in line]
            outer = _c_condition(conds[0])
            inner = _c_condition(conds[1]) if len(conds) > 1 else None
            a, b = q.params["a"], q.params["b"]
            cycles = useful = 0
            for w in range(q.params["block"] // 32):
                lanes = range(32 * w, 32 * w + 32)
                if inner is None:
                    path_a = [t for t in lanes if outer(t)]
                    path_b = [t for t in lanes if not outer(t)] if "else" in src else []
                else:
                    path_a = [t for t in lanes if outer(t) and inner(t)]
                    path_b = [t for t in lanes if outer(t) and not inner(t)]
                cycles += a * bool(path_a) + b * bool(path_b)
                useful += a * len(path_a) + b * len(path_b)
            assert q.answer["cycles"] == cycles
            assert q.answer["efficiency"] == pytest.approx(useful / (32 * cycles) if cycles else 1.0, abs=1e-6)


def test_seed_guard_example():
    """The seed's guard `if (i < N)` with N a multiple of 32 but not of the block: idle warps, no divergence."""
    fam = generate("divergence.boundary_warps", 0, 1)
    from practice.core.questions import family

    q = family("divergence.boundary_warps").build({"kind": "1d", "n": 1024 + 64, "block": 256, "difficulty": 1})
    assert q.answer["warps"] == 40 and q.answer["divergent"] == 0
    assert fam.params["kind"] == "1d"
