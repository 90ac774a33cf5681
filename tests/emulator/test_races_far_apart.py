"""Check mode finds the races it used to miss: threads far apart, inlined memcpy/memset and struct
copies, blocks racing on global memory, and lost updates (with advice that names atomics).

The kernels are written the way public CUDA code writes them (macros for tile sizes, template
device helpers, structs in shared memory)."""
from __future__ import annotations

import numpy as np

from grader.core.backends.base import RunStatus

from .conftest import spec

TRANSPOSE_SPEC = spec("transpose", ("in", "in", "float32"), ("out", "out", "float32"), ("n", "scalar", "int32"))
TRANSPOSE = """#define TILE 32
template <typename T>
__device__ T load_tile(const T* p, int i) { return p[i]; }

__global__ void transpose(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = load_tile(in, y * n + x);
    BARRIER
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < n && y < n) out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}"""


def races(outcome) -> list:
    return [d for d in outcome.diagnostics if str(d.kind) == "race"]


def test_transpose_without_barrier_is_a_race(run):
    """A 32x32 shared-memory transpose with no barrier between the tile's write and read is a RACE
    naming both lines (racecheck reports thousands of hazards for it on the H200)."""
    n = 64
    out = run(TRANSPOSE.replace("BARRIER", ""), TRANSPOSE_SPEC, (2, 2, 1), (32, 32, 1),
              {"in": np.arange(n * n, dtype=np.float32), "out": np.zeros(n * n, np.float32), "n": n}, check=True)
    assert out.status is RunStatus.OK
    found = races(out)
    assert found, out.diagnostics
    assert {found[0].line, found[0].detail["other_line"]} == {8, 12}
    assert found[0].detail["array"] == "tile"
    assert found[0].detail["shape"] == "unordered"


def test_transpose_with_barrier_is_clean(run):
    """The same transpose with __syncthreads() is race-free over 4 blocks: reused shared arenas and
    fiber stacks do not make blocks look like they race with each other."""
    n = 64
    x = np.arange(n * n, dtype=np.float32)
    out = run(TRANSPOSE.replace("BARRIER", "__syncthreads();"), TRANSPOSE_SPEC, (2, 2, 1), (32, 32, 1),
              {"in": x, "out": np.zeros(n * n, np.float32), "n": n}, check=True)
    assert out.status is RunStatus.OK
    assert out.diagnostics == []
    assert np.array_equal(out.outputs["out"].reshape(n, n), x.reshape(n, n).T)


def test_read_of_a_slot_100_threads_away_is_a_race(run):
    """`s[t] = t; out[t] = s[t + 100];` with no barrier races although the reader has exited by
    the time the writer runs (the reader's ThreadSanitizer fiber is kept until the block ends)."""
    src = """#define N 256
__global__ void k(int* out) {
    __shared__ int s[N];
    int t = threadIdx.x;
    s[t] = t;
    out[t] = s[(t + 100) % N];
}"""
    out = run(src, spec("k", ("out", "out", "int32")), (1, 1, 1), (256, 1, 1), {"out": np.zeros(256, np.int32)},
              check=True)
    found = races(out)
    assert found, out.diagnostics
    assert {found[0].line, found[0].detail["other_line"]} == {5, 6}


def test_local_arrays_on_reused_stacks_are_not_races(run):
    """Threads of later blocks reuse earlier blocks' fiber stacks; an address-taken local array
    there is not a race (the stack's race-check history is reset with the stack)."""
    src = """__device__ void fill(float* v, int n, float x) { for (int i = 0; i < n; ++i) v[i] = x + i; }
__global__ void k(const float* in, float* out) {
    float v[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    fill(v, 8, in[i]);
    float acc = 0.0f;
    for (int j = 0; j < 8; ++j) acc += v[(j * 3 + i) % 8];
    __syncthreads();
    out[i] = acc;
}"""
    n = 8 * 64
    x = np.arange(n, dtype=np.float32)
    out = run(src, spec("k", ("in", "in", "float32"), ("out", "out", "float32")), (8, 1, 1), (64, 1, 1),
              {"in": x, "out": np.zeros(n, np.float32)}, check=True)
    assert out.status is RunStatus.OK
    assert out.diagnostics == []
    assert np.allclose(out.outputs["out"], 8 * x + 28)


def test_inlined_memcpy_into_shared_memory_is_checked(run):
    """A constant-size memcpy (64 bytes) into shared memory, then a neighbour's 64 bytes read with
    memcpy and no barrier, is a RACE: the check build keeps memcpy a call the race check sees."""
    src = """#define CHUNK 16
__global__ void k(const float* in, float* out) {
    __shared__ float s[64 * CHUNK];
    int t = threadIdx.x;
    memcpy(&s[t * CHUNK], &in[t * CHUNK], CHUNK * sizeof(float));
    memcpy(&out[t * CHUNK], &s[((t + 1) % 64) * CHUNK], CHUNK * sizeof(float));
}"""
    out = run(src, spec("k", ("in", "in", "float32"), ("out", "out", "float32")), (1, 1, 1), (64, 1, 1),
              {"in": np.ones(1024, np.float32), "out": np.zeros(1024, np.float32)}, check=True)
    found = races(out)
    assert found, out.diagnostics
    assert {found[0].line, found[0].detail["other_line"]} == {5, 6}
    assert found[0].detail["array"] == "s"


def test_inlined_memset_of_12_bytes_is_checked(run):
    """memset of a 12-byte struct in shared memory by thread 0 while others read it is a RACE."""
    src = """struct Acc { float sum, min, max; };
__global__ void k(float* out) {
    __shared__ Acc acc;
    if (threadIdx.x == 0) memset(&acc, 0, sizeof(Acc));
    out[threadIdx.x] = acc.sum;
}"""
    out = run(src, spec("k", ("out", "out", "float32")), (1, 1, 1), (64, 1, 1), {"out": np.zeros(64, np.float32)},
              check=True)
    found = races(out)
    assert found, out.diagnostics
    assert {found[0].line, found[0].detail["other_line"]} == {4, 5}


def test_struct_copy_into_shared_memory_is_checked(run):
    """A 64-byte struct copied into shared memory and read by another thread with no barrier is a RACE."""
    src = """struct Row { float v[16]; };
__global__ void k(const Row* in, Row* out) {
    __shared__ Row rows[32];
    int t = threadIdx.x;
    rows[t] = in[t];
    out[t] = rows[31 - t];
}"""
    out = run(src, spec("k", ("in", "in", "float32"), ("out", "out", "float32")), (1, 1, 1), (32, 1, 1),
              {"in": np.ones(32 * 16, np.float32), "out": np.zeros(32 * 16, np.float32)}, check=True)
    found = races(out)
    assert found, out.diagnostics
    assert {found[0].line, found[0].detail["other_line"]} == {5, 6}


def test_block_reading_what_another_block_wrote_is_a_race_between_blocks(run):
    """Block 1 reads global memory block 0 writes, with no atomics: a RACE between blocks whose
    advice names atomics or two kernels, not a barrier."""
    src = """__global__ void k(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 0) data[i] = 1.0f;
    else if (i < n) data[i] = data[i - blockDim.x] + 1.0f;
}"""
    out = run(src, spec("k", ("data", "inout", "float32"), ("n", "scalar", "int32")), (2, 1, 1), (64, 1, 1),
              {"data": np.zeros(128, np.float32), "n": 128}, check=True)
    found = races(out)
    assert found, out.diagnostics
    d = found[0]
    assert {d.line, d.detail["other_line"]} == {3, 4}
    assert d.detail["shape"] == "between_blocks"
    assert {d.block, d.detail["other_block"]} == {(0, 0, 0), (1, 0, 0)}
    assert "atomics" in d.message and "next" in d.message


def test_blocks_writing_disjoint_global_memory_are_clean(run):
    """Blocks that each write their own part of a buffer (a grid-stride scale) do not race."""
    src = """__global__ void scale(float* x, int n, float a) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] *= a;
}"""
    n = 1000
    out = run(src, spec("scale", ("x", "inout", "float32"), ("n", "scalar", "int32"), ("a", "scalar", "float32")),
              (3, 1, 1), (128, 1, 1), {"x": np.ones(n, np.float32), "n": n, "a": 2.0}, check=True)
    assert out.status is RunStatus.OK
    assert out.diagnostics == []


def test_histogram_without_atomics_is_a_lost_update(run):
    """`hist[bin]++` by many threads with no atomics: a lost-update RACE whose advice is atomicAdd."""
    src = """#define BINS 8
__global__ void histogram(const int* in, int* hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) hist[in[i] % BINS]++;
}"""
    out = run(src, spec("histogram", ("in", "in", "int32"), ("hist", "inout", "int32"), ("n", "scalar", "int32")),
              (4, 1, 1), (64, 1, 1), {"in": np.arange(256, dtype=np.int32), "hist": np.zeros(8, np.int32), "n": 256},
              check=True)
    found = races(out)
    assert found, out.diagnostics
    d = found[0]
    assert d.line == 4 and d.detail["other_line"] == 4
    assert d.detail["shape"] == "lost_update"
    assert "atomicAdd" in d.message and d.detail["array"] == "hist"


def test_histogram_with_atomics_is_clean(run):
    """The same histogram with atomicAdd is race-free and exact."""
    src = """#define BINS 8
__global__ void histogram(const int* in, int* hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[in[i] % BINS], 1);
}"""
    out = run(src, spec("histogram", ("in", "in", "int32"), ("hist", "inout", "int32"), ("n", "scalar", "int32")),
              (4, 1, 1), (64, 1, 1), {"in": np.arange(256, dtype=np.int32), "hist": np.zeros(8, np.int32), "n": 256},
              check=True)
    assert out.status is RunStatus.OK
    assert out.diagnostics == []
    assert list(out.outputs["hist"]) == [32] * 8
