"""The barrier rule of docs/synchronization.md on the emulator: exited threads do not count, a skip
followed by an exit is a note, live threads at two barriers are divergent, and a warp split between
two barriers says that sm_70+ hangs on it."""
from __future__ import annotations

import numpy as np

from grader.core import messages as M
from grader.core.backends.base import RunStatus
from grader.core.verdicts import DIAGNOSTIC_VERDICT

from .conftest import spec

KSPEC = spec("k", ("x", "in", "int32"), ("out", "out", "int32"))


def findings(outcome) -> list:
    """Diagnostics that carry a verdict (notes do not)."""
    return [d for d in outcome.diagnostics if DIAGNOSTIC_VERDICT.get(d.kind)]


def test_early_return_and_skip_then_exit_agree(run):
    """`if (t >= 48) return;` above the barrier and `if (t < 48) { __syncthreads(); ... }` with the
    others running off the end are the same to the rule: both complete with no finding (the second
    gets the note that the Programming Guide calls it undefined)."""
    early = """__global__ void k(const int* x, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = x[t];
    if (t >= 48) return;
    __syncthreads();
    out[t] = s[47 - t];
}"""
    inside = """__global__ void k(const int* x, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = x[t];
    if (t < 48) {
        __syncthreads();
        out[t] = s[47 - t];
    }
}"""
    inputs = {"x": np.arange(64, dtype=np.int32), "out": np.zeros(64, np.int32)}
    a = run(early, KSPEC, (1, 1, 1), (64, 1, 1), inputs)
    b = run(inside, KSPEC, (1, 1, 1), (64, 1, 1), inputs)
    assert a.status is RunStatus.OK and b.status is RunStatus.OK
    assert findings(a) == [] and findings(b) == []
    assert a.diagnostics == []
    notes = [d for d in b.diagnostics if d.detail.get("rule") == "skipped_then_exited"]
    assert [d.line for d in notes] == [6]
    assert notes[0].message.template == M.RUNTIME_SKIPPED_BARRIER_NOTE
    assert notes[0].detail["skipped_lanes"] == "0xffff0000"
    assert list(a.outputs["out"][:48]) == list(b.outputs["out"][:48]) == list(range(47, -1, -1))


WHOLE_WARPS_SKIP = """#define BLOCK 256
#define HEAD 64   // only the first two warps stage and reverse a tile

extern "C" __global__ void k(const int* x, int* out)
{
    __shared__ int tile[HEAD];
    int t = threadIdx.x;
    if (t < HEAD) {
        tile[t] = x[t];
        __syncthreads();
        out[t] = tile[HEAD - 1 - t];
    }
}"""


def test_whole_warps_that_skip_a_barrier_and_exit_get_the_note(run):
    """Warps 2-7 of a 256-thread block skip the `if` block's barrier and run off the end of the kernel
    (docs/synchronization.md row 3 with a warp-aligned condition): no finding, the right output, and
    the rule's note naming the warps, in English and in Korean."""
    import gettext
    from pathlib import Path

    inputs = {"x": np.arange(256, dtype=np.int32), "out": np.zeros(256, np.int32)}
    out = run(WHOLE_WARPS_SKIP, KSPEC, (1, 1, 1), (256, 1, 1), inputs)
    assert out.status is RunStatus.OK and findings(out) == []
    assert list(out.outputs["out"][:64]) == list(range(63, -1, -1))
    [note] = [d for d in out.diagnostics if d.detail.get("rule") == "skipped_then_exited"]
    assert note.line == 10 and note.message.template == M.RUNTIME_SKIPPED_BARRIER_WARPS_NOTE
    assert note.message.params == {"line": 10, "block": "(0,0,0)", "warps": "2-7", "thread": "(64,0,0)",
                                   "arrived": 64}
    assert note.detail["skipped_warps"] == [2, 3, 4, 5, 6, 7] and note.detail["arrived_threads"] == 64
    assert "completes on sm_70+ because exited threads are not waited for" in note.message
    mo = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as f:
        korean = gettext.GNUTranslations(f)
    text = note.message.render(korean.gettext)
    assert "warp 전체가" in text and "2-7" in text and "sm_70 이상" in text


def test_a_tail_guard_that_retires_whole_warps_is_silent(run):
    """`if (i >= n) return;` above the first barrier retires warps 2-7 (n = 64): row 2, no note."""
    src = """#define BLOCK 256
extern "C" __global__ void k(const int* x, int* out, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    if (t >= n) return;
    s[t] = x[t];
    __syncthreads();
    out[t] = s[n - 1 - t];
}"""
    kspec = spec("k", ("x", "in", "int32"), ("out", "out", "int32"), ("n", "scalar", "int32"))
    out = run(src, kspec, (1, 1, 1), (256, 1, 1), {"x": np.arange(256, dtype=np.int32),
                                                    "out": np.zeros(256, np.int32), "n": 64})
    assert out.status is RunStatus.OK and out.diagnostics == []
    assert list(out.outputs["out"][:64]) == list(range(63, -1, -1))


def test_a_tree_loop_reports_the_split_warp_not_the_whole_warps_before_it(run):
    """`if (t < stride) { ...; __syncthreads(); }` drops whole warps first (stride 128..32) and then half
    of warp 0 (stride 16): one note on the barrier's line, the split warp's, which says more."""
    src = """template <int BLOCK>
__device__ void tree_sum(int* s, int t)
{
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            __syncthreads();
        }
    }
}

__global__ void k(const int* x, int* out)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = x[t];
    __syncthreads();
    tree_sum<256>(s, t);
    if (t == 0) out[0] = s[0];
}"""
    out = run(src, KSPEC, (1, 1, 1), (256, 1, 1), {"x": np.ones(256, np.int32), "out": np.zeros(1, np.int32)})
    assert out.status is RunStatus.OK and findings(out) == [] and out.outputs["out"][0] == 256
    [note] = [d for d in out.diagnostics if d.detail.get("rule") == "skipped_then_exited"]
    assert note.line == 7 and note.message.template == M.RUNTIME_SKIPPED_BARRIER_NOTE
    assert note.detail["warp"] == 0 and note.detail["skipped_lanes"] == "0xffff0000"


def test_warp_split_between_two_barriers_says_sm70_hangs(run):
    """`if (t % 2) { ...; __syncthreads(); } else { __syncthreads(); }`: live threads at two barriers,
    lanes of one warp on both sides. SYNC_ERROR with both lines, and the message says that sm_70+
    hangs on it unless the branch is predicated (what the H200 did)."""
    src = """__global__ void k(const int* x, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t % 2) {
        s[t] = x[t];
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[t] = t;
}"""
    out = run(src, KSPEC, (1, 1, 1), (64, 1, 1), {"x": np.arange(64, dtype=np.int32), "out": np.zeros(64, np.int32)})
    found = [d for d in out.diagnostics if str(d.kind) == "divergent_barrier"]
    assert len(found) == 1
    d = found[0]
    assert {d.line, d.detail["other_line"]} == {6, 8}
    assert d.detail["split_warp"] == 0
    assert "on sm_70+ this hangs" in d.message
    assert d.message.template == M.RUNTIME_DIVERGENT_BARRIERS_SPLIT


def test_whole_warps_at_two_barriers_are_divergent_without_the_hang_sentence(run):
    """The same with the condition `t < 32` in a 64-thread block: each warp waits at one barrier, so
    the report names both lines but not a hang (the H200 completes this shape)."""
    src = """__global__ void k(const int* x, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = x[t];
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[t] = t;
}"""
    out = run(src, KSPEC, (1, 1, 1), (64, 1, 1), {"x": np.arange(64, dtype=np.int32), "out": np.zeros(64, np.int32)})
    found = [d for d in out.diagnostics if str(d.kind) == "divergent_barrier"]
    assert len(found) == 1
    assert found[0].detail["split_warp"] == -1
    assert "hangs" not in found[0].message
    assert found[0].message.template == M.RUNTIME_DIVERGENT_BARRIERS


def test_same_value_stores_to_one_word_are_a_note_not_a_race(run):
    """Every matching thread storing 1 to one flag (racecheck: 0 hazards) is accepted with a note;
    a store that races with a read stays a race."""
    src = """__global__ void k(const int* x, int* out) {
    int t = threadIdx.x;
    if (x[t] % 3 == 0) out[0] = 1;
}"""
    out = run(src, KSPEC, (1, 1, 1), (64, 1, 1), {"x": np.arange(64, dtype=np.int32), "out": np.zeros(1, np.int32)},
              check=True)
    assert out.status is RunStatus.OK
    assert findings(out) == []
    notes = [d for d in out.diagnostics if d.detail.get("shape") == "same_line_writes"]
    assert notes and notes[0].line == 3


def test_different_values_stored_to_one_word_then_read_is_a_race(run):
    """Every thread storing its own id to one shared word and reading it back with no barrier
    between is a race naming the write and the read (TSan alone reported only the stores'
    write-after-write pair, a note): the runtime watches the word and checks its reads."""
    src = """__global__ void k(const int* x, int* out) {
    __shared__ int s[1];
    s[0] = threadIdx.x;
    int k = s[0];
    out[threadIdx.x] = k + x[threadIdx.x] * 0;
}"""
    out = run(src, KSPEC, (1, 1, 1), (64, 1, 1), {"x": np.arange(64, dtype=np.int32), "out": np.zeros(64, np.int32)},
              check=True)
    races = [d for d in findings(out) if str(d.kind) == "race"]
    assert races, out.diagnostics
    pairs = {tuple(sorted((d.line, d.detail["other_line"]))) for d in races}
    assert (3, 4) in pairs
    assert not [d for d in out.diagnostics if d.detail.get("shape") == "same_line_writes"]


def test_different_values_stored_to_one_word_unread_is_a_race(run):
    """Stores of different values to one word that nobody reads: which one remains is undefined, a
    race (only stores of one value are the harmless note)."""
    src = """__global__ void k(const int* x, int* out) {
    int t = threadIdx.x;
    if (x[t] % 3 == 0) out[0] = t;
}"""
    out = run(src, KSPEC, (1, 1, 1), (64, 1, 1), {"x": np.arange(64, dtype=np.int32), "out": np.zeros(1, np.int32)},
              check=True)
    races = [d for d in findings(out) if str(d.kind) == "race"]
    assert races and races[0].line == 3 and races[0].detail["shape"] == "different_values"
    assert not [d for d in out.diagnostics if d.detail.get("shape") == "same_line_writes"]


def test_same_value_stores_then_read_after_a_barrier_stay_a_note(run):
    """The flag idiom: matching threads store 1, a barrier, then everyone reads the flag. The
    stores are the note and the read is ordered: no race."""
    src = """__global__ void k(const int* x, int* out) {
    __shared__ int found;
    int t = threadIdx.x;
    if (t == 0) found = 0;
    __syncthreads();
    if (x[t] % 3 == 0) found = 1;
    __syncthreads();
    out[t] = found;
}"""
    out = run(src, KSPEC, (1, 1, 1), (64, 1, 1), {"x": np.arange(64, dtype=np.int32), "out": np.zeros(64, np.int32)},
              check=True)
    assert out.status is RunStatus.OK
    assert findings(out) == []
    assert [d for d in out.diagnostics if d.detail.get("shape") == "same_line_writes"]
