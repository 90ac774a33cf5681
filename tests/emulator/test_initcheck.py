"""Check mode: reads of __shared__ memory no thread of the block wrote (the emulator's initcheck)."""
from __future__ import annotations

import numpy as np

from grader.core import messages as M
from grader.core.backends.base import RunStatus

from .conftest import spec

# A block sum that forgets to zero its shared accumulator (a classic first reduction).
BLOCK_SUM = """__global__ void block_sum(const int* x, int* y, int n) {
    __shared__ int total;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&total, x[i]);
    __syncthreads();
    if (threadIdx.x == 0) y[blockIdx.x] = total;
}"""
BLOCK_SUM_SPEC = spec("block_sum", ("x", "in", "int32"), ("y", "out", "int32"), ("n", "scalar", "int32"))

# A shared-memory histogram that forgets to zero its per-block bins.
HISTOGRAM = """__global__ void histogram(const int* data, int* bins, int n) {
    __shared__ int local[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    %(zero)s
    __syncthreads();
    if (i < n) atomicAdd(&local[data[i] %% 16], 1);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}"""
HISTOGRAM_SPEC = spec("histogram", ("data", "in", "int32"), ("bins", "inout", "int32"), ("n", "scalar", "int32"))


def uninitialized(outcome) -> list:
    return [d for d in outcome.diagnostics if str(d.kind) == "uninitialized"]


def test_block_sum_without_zeroing_names_the_accumulator_and_its_line(run):
    """The atomicAdd into the never-zeroed accumulator is the first read: line 4, `total[0]`, found by the
    check pass; the output is wrong (the poison plus the sum) and the note says why."""
    x = np.arange(128, dtype=np.int32)
    out = run(BLOCK_SUM, BLOCK_SUM_SPEC, (2, 1, 1), (64, 1, 1), {"x": x, "y": np.zeros(2, np.int32), "n": 128},
              check=True)
    assert out.status is RunStatus.OK
    assert list(out.outputs["y"]) == [x[:64].sum() - 1, x[64:].sum() - 1]  # 0xFFFFFFFF is -1
    found = uninitialized(out)
    assert len(found) == 1, out.diagnostics
    d = found[0]
    assert (d.line, d.detail["array"], d.detail["index"], d.detail["space"]) == (4, "total", 0, "shared")
    assert d.check and d.block == (0, 0, 0)
    assert d.message.template == M.SHARED_UNINITIALIZED_READ
    assert d.message.startswith("Shared `total[0]` read before any thread wrote it, line 4")


def test_histogram_without_zeroing_local_bins_is_reported(run):
    """The histogram that forgets `local[t] = 0` reads its bins on line 6 before anyone wrote them."""
    data = np.arange(256, dtype=np.int32)
    src = HISTOGRAM % {"zero": ""}
    out = run(src, HISTOGRAM_SPEC, (4, 1, 1), (64, 1, 1), {"data": data, "bins": np.zeros(16, np.int32), "n": 256},
              check=True)
    assert out.status is RunStatus.OK
    assert not np.array_equal(out.outputs["bins"], np.full(16, 16, np.int32))  # wrong: poison in every bin
    found = uninitialized(out)
    assert [(d.line, d.detail["array"]) for d in found] == [(6, "local")], out.diagnostics
    assert d_message_names_local(found[0])


def d_message_names_local(d) -> bool:
    return d.message.startswith(f"Shared `local[{d.detail['index']}]` read before any thread wrote it, line 6")


def test_histogram_that_zeroes_its_bins_has_no_note(run):
    """The same histogram with `if (threadIdx.x < 16) local[threadIdx.x] = 0;` is right and reported clean."""
    data = np.arange(256, dtype=np.int32)
    src = HISTOGRAM % {"zero": "if (threadIdx.x < 16) local[threadIdx.x] = 0;"}
    out = run(src, HISTOGRAM_SPEC, (4, 1, 1), (64, 1, 1), {"data": data, "bins": np.zeros(16, np.int32), "n": 256},
              check=True)
    assert out.status is RunStatus.OK
    assert list(out.outputs["bins"]) == [16] * 16
    assert out.diagnostics == []


def test_each_block_must_write_its_own_shared_memory(run):
    """Block 0 writes s[0] only when blockIdx.x == 0: block 1 reads a byte its own threads never wrote (the
    written flags are per block, as shared memory is), and a plain run reports nothing (check pass only)."""
    src = """__global__ void k(int* out) {
    __shared__ int s[1];
    if (blockIdx.x == 0 && threadIdx.x == 0) s[0] = 7;
    __syncthreads();
    out[blockIdx.x] = s[0];
}"""
    args = {"out": np.zeros(2, np.int32)}
    kspec = spec("k", ("out", "out", "int32"))
    out = run(src, kspec, (2, 1, 1), (32, 1, 1), args, check=True)
    found = uninitialized(out)
    assert [(d.line, d.block, d.detail["index"]) for d in found] == [(5, (1, 0, 0), 0)], out.diagnostics
    plain = run(src, kspec, (2, 1, 1), (32, 1, 1), args, check=False)
    assert uninitialized(plain) == []


def test_a_right_output_is_not_failed_by_the_note(run):
    """A read of unwritten shared memory whose value does not reach the output is reported (line 4), and the
    run's verdict is still ACCEPTED: the output comparison decides (verdicts.DIAGNOSTIC_VERDICT)."""
    from grader.core.verdicts import Verdict, case_verdict, submission_verdict

    src = """__global__ void k(int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int before = s[t];
    s[t] = t;
    __syncthreads();
    out[t] = s[63 - t] + (before == 123456789);
}"""
    out = run(src, spec("k", ("out", "out", "int32")), (1, 1, 1), (64, 1, 1), {"out": np.zeros(64, np.int32)},
              check=True)
    found = uninitialized(out)
    assert [(d.line, d.detail["array"]) for d in found] == [(4, "s")], out.diagnostics
    verdict, _message, mismatch = case_verdict(out, {"out": np.arange(63, -1, -1, dtype=np.int32)}, 0, 0)
    assert (verdict, mismatch) == (Verdict.ACCEPTED, None)
    assert submission_verdict([], found) is Verdict.ACCEPTED
