"""Lanes of one warp in different warp operations (docs/synchronization.md rows 12c and 12d).

The PTX ISA's shfl.sync, vote.sync and bar.warp.sync make a lane wait until every non-exited lane of
its mask has executed the operation "with the same qualifiers and same membermask"; only sm_6x also
needs the same instruction in convergence. So on the emulator, as the ISA says for sm_70+:
- a vote beside a shuffle (or shfl.down beside shfl.bfly, or another mask) never completes: DEADLOCK,
  naming both groups of lanes, their lines and masks;
- two __syncwarp() calls with the same mask satisfy each other (the Programming Guide: "a
  corresponding __syncwarp()"): no finding;
- the same vote reached through two calls completes, but the Guide asks for "the same intrinsic":
  a WARP_MASK finding (SYNC_ERROR);
- lanes held by others of their mask in another operation, released when those exit: a finding.
None of this was measured on a GPU yet (docs/gpu-validation.md, "To measure on the H200").
"""
from __future__ import annotations

import gettext
from pathlib import Path

import numpy as np

from grader.core import messages as M
from grader.core.backends.base import RunStatus

from .conftest import spec

KSPEC = spec("k", ("x", "in", "float32"), ("y", "out", "float32"))
MO = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES" / "django.mo"


def inputs(n: int = 64) -> dict:
    return {"x": np.linspace(-1, 1, n, dtype=np.float32), "y": np.zeros(n, np.float32)}


VOTE_BESIDE_SHUFFLE = """#define FULL_MASK 0xffffffffu

extern "C" __global__ void k(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    float v = x[i];
    if (lane < 16) {
        unsigned positive = __ballot_sync(FULL_MASK, v > 0.0f);
        y[i] = (float)__popc(positive);
    } else {
        y[i] = __shfl_down_sync(FULL_MASK, v, 1);
    }
}"""


def test_a_vote_beside_a_shuffle_of_the_same_mask_is_a_deadlock_naming_both_groups(run):
    """Lanes 0-15 vote and lanes 16-31 shuffle, both with the full mask: neither operation can
    complete. DEADLOCK (proven), with each group's lanes, line and mask, in English and Korean."""
    out = run(VOTE_BESIDE_SHUFFLE, KSPEC, (1, 1, 1), (64, 1, 1), inputs())
    assert out.status is RunStatus.DEADLOCK
    [d] = [d for d in out.diagnostics if str(d.kind) == "deadlock"]
    assert d.message.template == M.RUNTIME_DEADLOCK_WARP_OPS
    assert d.detail["proven"] is True and d.detail["rule"] == "warp_operations_never_meet"
    assert {d.line, d.detail["other_line"]} == {9, 12}
    lanes = {d.message.params["line"]: d.message.params["lanes"], d.detail["other_line"]: d.message.params["other_lanes"]}
    assert lanes == {9: "0x0000ffff", 12: "0xffff0000"}
    assert d.message.params["mask"] == d.message.params["other_mask"] == "0xffffffff"
    assert "on sm_70+ this hangs" in d.message
    with MO.open("rb") as f:
        korean = d.message.render(gettext.GNUTranslations(f).gettext)
    assert "교착 상태" in korean and "0x0000ffff" in korean and "sm_70 이상" in korean


def test_two_shuffle_modes_never_meet_either(run):
    """shfl.down in one half and shfl.bfly (__shfl_xor_sync) in the other: different qualifiers, a deadlock."""
    src = """template <typename T>
__device__ T pair_sum(T v, int lane)
{
    if (lane < 16) return v + __shfl_down_sync(0xffffffffu, v, 1);
    return v + __shfl_xor_sync(0xffffffffu, v, 1);
}

__global__ void k(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = pair_sum<float>(x[i], threadIdx.x % 32);
}"""
    out = run(src, KSPEC, (1, 1, 1), (32, 1, 1), inputs(32))
    assert out.status is RunStatus.DEADLOCK
    [d] = [d for d in out.diagnostics if str(d.kind) == "deadlock"]
    assert d.message.template == M.RUNTIME_DEADLOCK_WARP_OPS and {d.line, d.detail["other_line"]} == {4, 5}


def test_two_syncwarp_calls_with_the_same_mask_meet(run):
    """Each half of a warp stages a value, passes its own __syncwarp() call and reads the other half's
    slot: the calls satisfy each other (sm_70+, the Programming Guide), the output is right, no finding."""
    src = """#define BLOCK 64
__global__ void k(const float* x, float* y)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    if (t % 32 < 16) {
        s[t] = 2.0f * x[t];
        __syncwarp();
        y[t] = s[t ^ 16];
    } else {
        s[t] = 2.0f * x[t];
        __syncwarp();
        y[t] = s[t ^ 16];
    }
}"""
    data = inputs()
    out = run(src, KSPEC, (1, 1, 1), (64, 1, 1), data, check=True)
    assert out.status is RunStatus.OK and out.diagnostics == []
    np.testing.assert_array_equal(out.outputs["y"], 2 * data["x"][np.arange(64) ^ 16])


def test_the_same_vote_through_two_calls_completes_with_a_warp_mask_finding(run):
    """Lanes 0-15 and 16-31 reach two different `__ballot_sync(FULL_MASK, ...)` calls: the PTX ISA's wait
    is met (same operation and mask), the vote holds every lane, and the Guide's "same intrinsic" rule
    makes it a WARP_MASK finding naming both lines."""
    src = """#define FULL_MASK 0xffffffffu
__global__ void k(const float* x, float* y)
{
    int t = threadIdx.x;
    unsigned votes;
    if (t < 16) votes = __ballot_sync(FULL_MASK, x[t] > 0.0f);
    else votes = __ballot_sync(FULL_MASK, x[t] > 0.0f);
    y[t] = (float)__popc(votes);
}"""
    data = inputs(32)
    out = run(src, KSPEC, (1, 1, 1), (32, 1, 1), data)
    assert out.status is RunStatus.OK
    [d] = [d for d in out.diagnostics if str(d.kind) == "warp_mask"]
    assert d.message.template == M.RUNTIME_WARP_MISMATCH and {d.line, d.detail["other_line"]} == {6, 7}
    assert set(out.outputs["y"]) == {float((data["x"] > 0).sum())}


def test_lanes_held_by_another_mask_complete_when_those_lanes_exit_with_a_finding(run):
    """Lanes 16-31 vote among themselves (mask 0xffff0000) and exit; lanes 0-15 vote with the full mask.
    Their vote waits while lanes 16-31 are in the other one and completes once they have exited (the
    ISA counts only non-exited lanes), but the Guide's rule was broken: a WARP_MASK finding."""
    src = """__global__ void k(const float* x, float* y)
{
    int t = threadIdx.x;
    if (t >= 16) {
        y[t] = (float)__popc(__ballot_sync(0xffff0000u, x[t] > 0.0f));
        return;
    }
    y[t] = (float)__popc(__ballot_sync(0xffffffffu, x[t] > 0.0f));
}"""
    data = inputs(32)
    out = run(src, KSPEC, (1, 1, 1), (32, 1, 1), data)
    assert out.status is RunStatus.OK
    [d] = [d for d in out.diagnostics if str(d.kind) == "warp_mask"]
    assert d.line == 8 and d.detail["other_line"] == 5 and d.detail["held"] is True
    assert d.detail["other_mask"] == "0xffff0000"
    assert list(out.outputs["y"][:16]) == [float((data["x"][:16] > 0).sum())] * 16
