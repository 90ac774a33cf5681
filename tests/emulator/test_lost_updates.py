"""Plain runs lose updates as a GPU does (issue 11): a non-atomic read-modify-write of one word by many
threads (`count[0] += 1;`, `hist[b]++`, `sum = sum + x` on shared memory, `*p += 1`) gives a wrong
result on the emulator too, while kernels without races compute exactly what they did.

The rewriter marks the updates (grader/core/emulator/rmw.py); the runtime lets other threads run
between the load and the store (src/rmw.cpp). The kernels are written as public CUDA code is:
extern "C", macros for sizes, templates, device helpers."""
from pathlib import Path

import numpy as np
import pytest

from grader.core.emulator.rewrite import rewrite, tokenize
from grader.core.emulator.rmw import rmw_edits
from grader.core.judge import judge
from grader.core.verdicts import Verdict
from problems.core.package import load_package

from .conftest import spec

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


def _marked(src: str) -> str:
    out, pos = [], 0
    for s, _, text in sorted(rmw_edits(tokenize(src))):
        out += [src[pos:s], text]
        pos = s
    return "".join(out) + src[pos:]


@pytest.mark.parametrize("line, wrapped", [
    ("count[0] += 1;", "::wd::wd_rmw(count[0]) += 1;"),
    ("hist[data[i]]++;", "::wd::wd_rmw(hist[data[i]])++;"),
    ("++hist[b];", "++::wd::wd_rmw(hist[b]);"),
    ("*p -= v;", "::wd::wd_rmw(*p) -= v;"),
    ("(*p)++;", "::wd::wd_rmw((*p))++;"),
    ("--*p;", "--::wd::wd_rmw(*p);"),
    ("s[t] = s[t] + s[t + 1];", "::wd::wd_rmw(s[t]) = s[t] + s[t + 1];"),
    ("node->n >>= 1;", "::wd::wd_rmw(node->n) >>= 1;"),
    ("a[i].x *= 2.0f;", "::wd::wd_rmw(a[i].x) *= 2.0f;"),
    ("m[r][c] |= bit;", "::wd::wd_rmw(m[r][c]) |= bit;"),
    ("*(out + i) += v;", "::wd::wd_rmw(*(out + i)) += v;"),
])
def test_the_rewriter_wraps_the_target_of_a_read_modify_write_of_memory(line, wrapped):
    assert _marked(line) == wrapped


@pytest.mark.parametrize("line", [
    "i++;", "x += 1;", "for (int k = 0; k < n; ++k) acc += v;", "ok = a[i] == a[i] + 1;", "y[i] = x[i] + 1;",
    "s[t] = s[t + 1] + 1;", "T& operator+=(const T& o);", "f(a[i]) += 1;", "v.x += 1;",
    "#define BUMP(a, i) a[i] += 1", "p = p + 1;", "b[i] = b[i];",
])
def test_the_rewriter_leaves_registers_and_expressions_that_are_no_update_alone(line):
    assert _marked(line) == line


def test_shared_and_device_variables_are_memory_by_name():
    src = """\
__device__ int hits = 0;
__device__ float scale(float v);
__global__ void k(const float* x) {
    __shared__ float sum, part[32];
    sum = sum + x[threadIdx.x];
    hits++;
    float local = 0;
    local += x[0];
}
"""
    out = _marked(src)
    assert "::wd::wd_rmw(sum) = sum + x" in out and "::wd::wd_rmw(hits)++" in out
    assert "local += x[0]" in out and "scale(float v)" in out


def test_the_marks_keep_every_line_and_reach_the_compiled_text():
    src = '#define TILE 64\nextern "C" __global__ void k(int* c) {\n    c[0] += 1;\n    c[1]++;\n}\n'
    text = rewrite(src, "k").text
    assert text.count("\n") == src.count("\n")
    assert "::wd::wd_rmw(c[0]) += 1;" in text.splitlines()[2] and "::wd::wd_rmw(c[1])++;" in text.splitlines()[3]


COUNTER = """\
#define BLOCK 256
extern "C" __global__ void count_hits(const int* flags, int* count, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n && flags[i]) count[0] += 1;
}
"""
COUNTER_SPEC = spec("count_hits", ("flags", "in", "int32"), ("count", "inout", "int32"), ("n", "scalar", "int32"))


def _count(run, src, blocks=4):
    n = 256 * blocks
    out = run(src, COUNTER_SPEC, (blocks, 1, 1), (256, 1, 1),
              {"flags": np.ones(n, np.int32), "count": np.zeros(1, np.int32), "n": n})
    assert out.status.value == "ok", out.message
    return int(out.outputs["count"][0]), n


def test_an_unguarded_counter_loses_updates_in_a_plain_run(run):
    """Every thread adds 1 to count[0] without an atomic: the total falls far short, as on a GPU
    (an H200 counts about one per warp for this kernel), and the same every run: blocks on two
    worker threads updating one word rerun on one (src/rmw.cpp), where the schedule is fixed."""
    got, n = _count(run, COUNTER, blocks=16)
    assert got < n // 4
    assert [_count(run, COUNTER, blocks=16)[0] for _ in range(4)] == [got] * 4


def test_the_same_counter_with_atomic_add_is_exact(run):
    got, n = _count(run, COUNTER.replace("count[0] += 1;", "atomicAdd(&count[0], 1);"))
    assert got == n


def test_a_shared_histogram_in_a_template_helper_loses_counts(run):
    src = """\
#define TILE 128
#define BINS 16
template <int B>
__device__ __forceinline__ void count_into(unsigned int* local, const unsigned char* data, int i)
{
    local[data[i] % B]++;
}

__global__ void hist(const unsigned char* data, unsigned int* out, int n)
{
    __shared__ unsigned int local[BINS];
    if (threadIdx.x < BINS) local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n) count_into<BINS>(local, data, i);
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&out[threadIdx.x], local[threadIdx.x]);
}
"""
    n = 1024
    data = (np.arange(n) % 3).astype(np.uint8)  # three hot bins
    out = run(src, spec("hist", ("data", "in", "uint8"), ("out", "inout", "uint32"), ("n", "scalar", "int32")),
              (n // 128, 1, 1), (128, 1, 1), {"data": data, "out": np.zeros(16, np.uint32), "n": n})
    counts = out.outputs["out"]
    assert counts[3:].sum() == 0 and counts.sum() < n // 2


def test_a_shared_sum_written_as_sum_equals_sum_plus_x_loses_terms(run):
    src = """\
__global__ void block_total(const float* x, float* out, int n)
{
    __shared__ float sum;
    if (threadIdx.x == 0) sum = 0.0f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) sum = sum + x[i];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
"""
    n = 512
    out = run(src, spec("block_total", ("x", "in", "float32"), ("out", "out", "float32"), ("n", "scalar", "int32")),
              (2, 1, 1), (256, 1, 1), {"x": np.ones(n, np.float32), "out": np.zeros(2, np.float32), "n": n})
    assert (out.outputs["out"] < 64).all(), out.outputs["out"]


def test_a_counter_bumped_through_a_pointer_in_a_device_function_loses_updates(run):
    src = """\
__device__ void bump(int* p) { *p += 1; }
extern "C" __global__ void count_hits(const int* flags, int* count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flags[i]) bump(count);
}
"""
    got, n = _count(run, src)
    assert got < n // 4


def test_kernels_without_races_compute_exactly_what_they_did(run):
    """Per-thread updates of memory (saxpy into y, a tree reduction in shared memory, a local
    accumulator array, a counter under a spin lock taken by one thread per warp) are marked too:
    their results are exact."""
    src = """\
#define TILE 256
__device__ int lock = 0;
template <typename T>
__device__ void add_to(T* y, int i, T a, const T* x) { y[i] += a * x[i]; }

extern "C" __global__ void mixed(const float* x, float* y, float* sums, int* locked_count, int n)
{
    __shared__ float s[TILE];
    int t = threadIdx.x;
    int i = blockIdx.x * TILE + t;
    if (i < n) add_to<float>(y, i, 2.0f, x);
    float acc[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; ++k) acc[k] += (i < n ? x[i] : 0.0f) * k;
    s[t] = acc[1];
    __syncthreads();
    for (int stride = TILE / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = s[0];
    if ((t & 31) == 0) {
        while (atomicCAS(&lock, 0, 1) != 0) {}
        __threadfence();
        locked_count[0] += 1;
        __threadfence();
        atomicExch(&lock, 0);
    }
}
"""
    n = 1024
    x = np.arange(n, dtype=np.float32) % 7
    y = np.ones(n, np.float32)
    out = run(src, spec("mixed", ("x", "in", "float32"), ("y", "inout", "float32"), ("sums", "out", "float32"),
                        ("locked_count", "inout", "int32"), ("n", "scalar", "int32")),
              (4, 1, 1), (256, 1, 1), {"x": x, "y": y, "sums": np.zeros(4, np.float32),
                                       "locked_count": np.zeros(1, np.int32), "n": n})
    assert out.status.value == "ok", out.message
    assert np.array_equal(out.outputs["y"], 1 + 2 * x)
    assert np.array_equal(out.outputs["sums"], x.reshape(4, 256).sum(axis=1))
    assert out.outputs["locked_count"][0] == 4 * 256 // 32


def test_a_problem_without_the_race_check_fails_a_lost_update_and_the_check_pass_names_atomics(backend):
    """The bank's histogram with `local[data[i]]++` in shared memory: WRONG_ANSWER from the test cases
    alone (a problem whose checks omit the race check), SYNC_ERROR with the atomics advice with them."""
    package = load_package(BANK / "histogram-atomics")
    source = (BANK / "histogram-atomics" / "wrong" / "shared_increment_without_atomic.cu").read_text()
    plain = judge(package, source, backend, run_checks=False)
    assert plain.verdict is Verdict.WRONG_ANSWER, plain.message
    checked = judge(package, source, backend)
    assert checked.verdict is Verdict.SYNC_ERROR
    assert any("atomic" in d.message for d in checked.diagnostics), [d.message for d in checked.diagnostics]
