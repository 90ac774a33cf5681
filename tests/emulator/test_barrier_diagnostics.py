"""Which barrier the emulator blames, and what it leaves out (docs/emulator.md, `__syncthreads`).

Real emulator runs of the kernels a QA pass graded: a conditional barrier beside a correct one in
a loop, and a conditional barrier with no barrier before it. The assertions are on kinds, lines
and detail fields, not on English wording (messages.py owns the templates).
"""
from __future__ import annotations

import numpy as np
import pytest

from grader.core.backends.base import RunStatus

from .conftest import kinds, spec

BLOCK_SUM = spec("block_sum", ("x", "in", "float32"), ("out", "out", "float32"), ("n", "scalar", "int32"))
MIN_SPEC = spec("subtract_block_min", ("x", "in", "int32"), ("out", "out", "int32"), ("n", "scalar", "int32"))

# block-sum with the real bug on line 8 and the correct barrier on line 12.
HALF_WARP_BARRIER_BEFORE_CORRECT = """__global__ void block_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? x[i] : 0.0f;
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < 16) __syncthreads();
        if (t < stride) {
            s[t] += s[t + stride];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}"""

# The correct barrier first (line 8), the half-warp one after it (line 12).
HALF_WARP_BARRIER_AFTER_CORRECT = """__global__ void block_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? x[i] : 0.0f;
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (t < stride) {
            s[t] += s[t + stride];
        }
        if (threadIdx.x < 16) __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}"""

# spin-wait-deadlock: thread 0 computes m, only lanes 0-15 wait (line 14), everyone reads m (line 15).
HALF_WARP_BARRIER_THEN_READ = """__global__ void subtract_block_min(const int* x, int* out, int n)
{
    __shared__ int m;
    int t = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int i = start + t;

    if (t == 0) {
        int end = min(start + (int)blockDim.x, n);
        int v = x[start];
        for (int k = start + 1; k < end; ++k) v = min(v, x[k]);
        m = v;
    }
    if (t < 16) __syncthreads();
    if (i < n) out[i] = x[i] - m;
}"""


def _block_sum(run, source, threads, check=False):
    n = threads
    return run(source, BLOCK_SUM, (1, 1, 1), (threads, 1, 1),
               {"x": np.ones(n, np.float32), "out": np.zeros(1, np.float32), "n": n}, check=check)


def _divergent(outcome):
    return [d for d in outcome.diagnostics if d.kind.value == "divergent_barrier"]


@pytest.mark.parametrize("threads", [256, 128])
def test_half_warp_barrier_beside_a_correct_one_blames_only_the_half_warp_barrier(run, threads):
    """`if (threadIdx.x < 16) __syncthreads();` on line 8 with the loop's correct barrier on line 12:
    one DIVERGENT_BARRIER on line 8, saying lanes 0-15 of warp 0 wait there while lanes 16-31 went on
    to line 12 (which every thread reaches). Line 12 is never reported as skipped: lanes 16-31 exit
    early only because the groups pass barriers out of step (128 threads: they exit while lanes 0-15
    wait at line 12, which the old rule reported as "skipped it and exited")."""
    out = _block_sum(run, HALF_WARP_BARRIER_BEFORE_CORRECT, threads)
    found = _divergent(out)
    assert [d.line for d in found] == [8], [d.message for d in found]
    d = found[0]
    assert d.detail["other_line"] == 12 and d.detail["reached_by_all"] == [12]
    assert d.detail["warp"] == 0
    assert d.detail["arrived_lanes"] == "0x0000ffff" and d.detail["passed_lanes"] == "0xffff0000"
    assert d.thread == (0, 0, 0) and d.detail["other_thread"] == [16, 0, 0]
    assert "skipped_lanes" not in d.detail


def test_half_warp_barrier_after_a_correct_one_blames_the_later_line(run):
    """The same bug below the correct barrier: the report names line 12 (the half-warp barrier), not
    line 8, although line 8 is the lower line and the one the threads meet at first."""
    out = _block_sum(run, HALF_WARP_BARRIER_AFTER_CORRECT, 256)
    found = _divergent(out)
    assert [d.line for d in found] == [12], [d.message for d in found]
    assert found[0].detail["other_line"] == 8 and found[0].detail["passed_lanes"] == "0xffff0000"


def test_half_warp_barrier_in_check_mode_keeps_the_race_it_causes(run):
    """In check mode the lanes that skipped line 8 also race: they read s[t + stride] (line 10)
    with no barrier after the load (line 6). That race is real and stays; the barrier report is
    still the single one on line 8."""
    out = _block_sum(run, HALF_WARP_BARRIER_BEFORE_CORRECT, 256, check=True)
    assert [d.line for d in _divergent(out)] == [8]
    races = [d for d in out.diagnostics if d.kind.value == "race"]
    assert races and {races[0].line, races[0].detail.get("other_line")} <= {6, 10}


def test_if_else_barriers_still_name_both_lines(run):
    """A barrier in each branch of `if (t < stride)` (block-sum/wrong/divergent_barrier.cu): neither
    is reached by every thread, so the report stays the two-line one, with its sites."""
    src = """__global__ void block_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = x[t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            __syncthreads();
        } else {
            __syncthreads();
        }
    }
    if (t == 0) out[0] = s[0];
}"""
    out = _block_sum(run, src, 256)
    found = _divergent(out)
    assert len(found) == 1 and found[0].line == 10
    assert {s["line"] for s in found[0].detail["sites"]} == {10, 12}
    assert "reached_by_all" not in found[0].detail


def test_half_warp_barrier_skipped_then_a_read_is_a_note_and_the_race(run):
    """spin-wait-deadlock's `if (t < 16) __syncthreads();` (line 14) with an unsynchronised read of m
    (line 15): lanes 16-31 skip the barrier and go on to read what it should have ordered. By the
    barrier rule (docs/synchronization.md) the skip itself is a NOTE (exited threads are not waited
    for); the read it leaves unordered is the finding: the race on m (line 15 against line 12)."""
    n = 100
    x = np.arange(n, dtype=np.int32)
    inputs = {"x": x, "out": np.zeros(n, np.int32), "n": n}
    out = run(HALF_WARP_BARRIER_THEN_READ, MIN_SPEC, (1, 1, 1), (256, 1, 1), inputs, check=True)
    assert out.status is RunStatus.OK
    assert _divergent(out) == []
    notes = [d for d in out.diagnostics if d.kind.value == "note" and d.detail.get("rule") == "skipped_then_exited"]
    assert [d.line for d in notes] == [14]
    assert notes[0].detail["arrived_lanes"] == "0x0000ffff" and notes[0].detail["skipped_lanes"] == "0xffff0000"
    assert "sm_70+" in notes[0].message and notes[0].message.template
    races = [d for d in out.diagnostics if d.kind.value == "race"]
    assert [(d.line, d.detail.get("other_line")) for d in races] == [(15, 12)]


def test_tail_guard_return_above_the_first_barrier_stays_legal(run):
    """`if (i >= n) return;` above the only barrier splits warp 3 (n = 100), but those lanes leave
    before the barrier's line: no diagnostic."""
    src = """__global__ void k(const int* x, int* out, int n) {
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t >= n) return;
    s[t] = x[t];
    __syncthreads();
    out[t] = s[n - 1 - t];
}"""
    kspec = spec("k", ("x", "in", "int32"), ("out", "out", "int32"), ("n", "scalar", "int32"))
    n = 100
    out = run(src, kspec, (1, 1, 1), (128, 1, 1),
              {"x": np.arange(n, dtype=np.int32), "out": np.zeros(n, np.int32), "n": n})
    assert out.status is RunStatus.OK
    assert out.diagnostics == []
    assert out.outputs["out"].tolist() == list(range(n - 1, -1, -1))


def test_return_after_a_half_warp_barrier_is_a_note_and_its_race(run):
    """Lanes 16-31 skip `if (t < 16) __syncthreads();` and leave by a `return;` below it: the same as
    exiting before it, so the plain run gives only the barrier rule's NOTE on line 5. Lanes 0-15 then
    read what lanes 16-31 wrote on line 4 before skipping the barrier: the check pass reports that race."""
    src = """__global__ void k(const int* x, int* out, int n) {
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = x[t];
    if (t < 16) __syncthreads();
    if (t >= 16) return;
    out[t] = s[31 - t];
}"""
    kspec = spec("k", ("x", "in", "int32"), ("out", "out", "int32"), ("n", "scalar", "int32"))
    inputs = {"x": np.arange(32, dtype=np.int32), "out": np.zeros(16, np.int32), "n": 32}
    out = run(src, kspec, (1, 1, 1), (32, 1, 1), inputs)
    assert out.status is RunStatus.OK
    assert [(str(d.kind), d.line) for d in out.diagnostics] == [("note", 5)]
    out = run(src, kspec, (1, 1, 1), (32, 1, 1), inputs, check=True)
    races = [d for d in out.diagnostics if d.kind.value == "race"]
    assert [tuple(sorted((d.line, d.detail["other_line"]))) for d in races] == [(4, 7)]


def test_whole_warps_skipping_a_barrier_beside_a_correct_one_blame_it_without_lane_masks(run):
    """`if (threadIdx.x < 128) __syncthreads();` beside the correct barrier: no warp is split, so the
    report on line 8 names an example thread of each group (0 waits, 128 went on to line 12)."""
    out = _block_sum(run, HALF_WARP_BARRIER_BEFORE_CORRECT.replace("threadIdx.x < 16", "threadIdx.x < 128"), 256)
    found = _divergent(out)
    assert [d.line for d in found] == [8]
    assert found[0].thread == (0, 0, 0) and found[0].detail["other_thread"] == [128, 0, 0]
    assert found[0].detail["other_line"] == 12 and "warp" not in found[0].detail


def test_rewrite_records_the_line_of_each_return_in_the_kernel_only():
    """`return;` in the kernel's body records its line; a device function's returns, and a
    declaration of the kernel before its definition, are left alone; no line is added."""
    from grader.core.emulator.rewrite import rewrite

    src = """__device__ int f(int a) { if (a) return a; return 0; }
__global__ void k(int* out);
__device__ void g() { return; }
__global__ void k(int* out) {
    if (threadIdx.x > 3) return;
    out[threadIdx.x] = f(1);
}"""
    text = rewrite(src, "k").text
    lines = text.split("\n")
    assert len(lines) == len(src.split("\n"))
    assert "kernel_exit(__LINE__)" in lines[4]
    assert "kernel_exit" not in "\n".join(lines[:4])



def test_the_named_divergent_barrier_is_a_translatable_message(run):
    """The report that names the one divergent barrier, as the runtime writes it, is one of the judge's message
    templates, so a Korean page shows it in Korean."""
    from grader.core import messages as M

    message = _divergent(_block_sum(run, HALF_WARP_BARRIER_BEFORE_CORRECT, 256))[0].message
    template, params = message.template, message.params
    # Lanes 0-15 of warp 0 wait at line 8 while lanes 16-31 are at line 12: a warp split between two
    # barriers, so the message adds that sm_70+ hangs on it (docs/synchronization.md, row 8).
    assert template == M.RUNTIME_DIVERGENT_BARRIER_PASSED_SPLIT
    assert "on sm_70+ this hangs" in message
    assert (params["line"], params["other_line"], params["passed"]) == (8, 12, "0xffff0000")
    warps = M.RUNTIME_DIVERGENT_BARRIER_PASSED_WARPS(line=8, block="(0,0,0)", thread="(0,0,0)", other_thread="(128,0,0)",
                                                     other_line=12)
    assert warps == ("Divergent __syncthreads() on line 8: in block (0,0,0) threads such as (0,0,0) wait at it while "
                     "threads such as (128,0,0) went past it to the barrier on line 12. Every thread reaches the barrier "
                     "on line 12, only some reach the one on line 8: the condition around a barrier must be the same "
                     "for the whole block.")
