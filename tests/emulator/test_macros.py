"""The student's macros never reach the code the judge generates (grader/core/macros.py).

The identifiers are enumerated from the generated text itself: the harness of a kernel with every
argument kind, what rewrite.py writes into the student's code, and the replacement lists of every
macro the emulator's headers define. A name added to any of them later is covered by these tests
without anyone listing it.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec
from grader.core.emulator import jobs
from grader.core.emulator.rewrite import RESERVED_NAME, rewrite
from grader.core.emulator.toolchain import INCLUDE_DIR
from grader.core.macros import identifiers, shielded

from .conftest import spec

# C++ keywords and GCC's spellings of them: a student who redefines one changes their own code
# too, so generated code may use them (the harness is shielded from them all the same).
KEYWORDS = frozenset("""
alignas alignof asm auto bool break case catch char char16_t char32_t class const constexpr const_cast continue
decltype default delete do double dynamic_cast else enum explicit export extern false float for friend goto if
inline int long mutable namespace new noexcept nullptr operator private protected public register
reinterpret_cast return short signed sizeof static static_assert static_cast struct switch template this
thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
__restrict __VA_ARGS__ __LINE__ __COUNTER__
""".split())
# CUDA's own names that a header macro forwards to (atomicAdd_block -> atomicAdd): redefining them
# breaks the kernel on nvcc as well.
CUDA_NAMES = frozenset({"atomicAdd", "atomicCAS", "atomicExch"})

EVERY_ARG = KernelSpec("k", tuple(
    ArgSpec(f"x{i}", role, dtype) for i, (role, dtype) in enumerate([
        (ArgRole.IN, "float32"), (ArgRole.OUT, "float32"), (ArgRole.INOUT, "int32"), (ArgRole.SCALAR, "int32"),
        (ArgRole.SCALAR, "float32"), (ArgRole.SCALAR, "float64"), (ArgRole.SCALAR, "uint32"),
        (ArgRole.SCALAR, "int64"), (ArgRole.SCALAR, "uint64"), (ArgRole.IN, "uint8")])))

# Every rewrite rule at work: static shared arrays and scalars, extern shared, `return;`, `main`.
REWRITTEN = """\
__global__ void k(int* o) {
    __shared__ float a[4][5], b;
    extern __shared__ int d[];
    if (threadIdx.x > 64) return;
    o[0] = 1;
}
int main() { return 0; }
"""


def macro_bodies() -> dict[str, set[str]]:
    """{macro name: identifiers of its replacement list, parameters excluded} for every #define
    in the emulator's headers that is still defined when the student's code begins (a helper
    macro #undef'd in its own header is expanded before any student macro exists)."""
    bodies: dict[str, set[str]] = {}
    for path in sorted(INCLUDE_DIR.rglob("*")):
        if not path.is_file():
            continue
        text = re.sub(r"\\\n", " ", path.read_text())
        undone = set(re.findall(r"^\s*#\s*undef\s+(\w+)", text, re.M))
        for m in re.finditer(r"^\s*#\s*define\s+(\w+)(\(([^)]*)\))?(.*)$", text, re.M):
            if m.group(1) in undone:
                continue
            params = {p.strip() for p in (m.group(3) or "").split(",")} - {"...", ""}
            bodies[m.group(1)] = set(identifiers(m.group(4))) - params
    return bodies


def inserted_identifiers() -> set[str]:
    """Identifiers rewrite.py writes into REWRITTEN that the student did not write."""
    return set(identifiers(rewrite(REWRITTEN, "k").text)) - set(identifiers(REWRITTEN))


def code_lines(text: str) -> str:
    """Generated text without its directive lines (the shield's own push/undef/pop)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _may_appear(name: str) -> bool:
    return name in KEYWORDS or name in CUDA_NAMES or bool(RESERVED_NAME.match(name))


def test_what_the_runtime_writes_into_the_students_code_uses_only_names_no_macro_can_change():
    """Macro expansions and rewrites run inside the student's code, where push_macro cannot reach:
    they may name only keywords and `wd`/`wd_`/`WD_` names, which the rewriter refuses to the student."""
    bodies = macro_bodies()
    assert {"threadIdx", "__syncthreads", "__shfl_down_sync", "printf", "for", "while"} <= set(bodies)
    leaks = {f"{macro}: {name}" for macro, names in bodies.items() for name in names
             if not _may_appear(name) and name not in bodies}
    inserted = inserted_identifiers()
    assert {"wd_shared_var", "wd_dynamic_shared", "wd_kernel_exit", "wd_student_main"} <= inserted
    leaks |= {f"rewrite: {name}" for name in inserted if not _may_appear(name)}
    assert not leaks


def test_the_reserved_names_are_refused_to_the_student():
    """The names generated code relies on cannot be defined by the student, in any case."""
    for src in ("#define wd_shared_var 1\n", "#define WD_SITE 1\n", "#define __LINE__ 7\n", "#undef __COUNTER__\n",
                "int wd = 0;\n"):
        problems = rewrite(src + "__global__ void k(int* o) { o[0] = 1; }\n", "k").problems
        assert problems and problems[0].line == 1, src


def test_a_kernel_that_defines_every_identifier_of_the_harness_still_runs(run):
    """Every identifier of the generated harness (keywords and type names included) is #defined
    to junk after the kernel, and the usual suspects (T, A, B, P, N, TILE) before it: the harness
    is shielded, so the kernel compiles and computes the right answer."""
    harness_names = [n for n in identifiers(code_lines(jobs.harness_source(EVERY_ARG))) if n != "k"]
    assert {"T", "AnyPtr", "a", "float", "void", "static", "__builtin_memcpy"} <= set(harness_names)
    junk = "\n".join(f"#define {n} )junk(" for n in harness_names if not RESERVED_NAME.match(n))
    src = f"""\
#define T 16
#define A 1024
#define B (A / T)
#define P 3
#define N 7
#define TILE 16
__global__ void k(const float* x0, float* x1, int* x2, int x3, float x4, double x5, unsigned x6,
                  long long x7, unsigned long long x8, const unsigned char* x9)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < x3) {{ x1[i] = x0[i] * x4 + (float)(x5 + x6 + x7 + x8 + x9[i] + T + B + P + N + TILE); x2[i] += 1; }}
}}
{junk}
"""
    n = 100
    inputs = {"x0": np.arange(n, dtype=np.float32), "x1": np.zeros(n, np.float32), "x2": np.arange(n, dtype=np.int32),
              "x3": n, "x4": 2.0, "x5": 0.5, "x6": 1, "x7": 2, "x8": 3, "x9": np.ones(n, np.uint8)}
    out = run(src, EVERY_ARG, (1, 1, 1), (128, 1, 1), inputs)
    extra = 0.5 + 1 + 2 + 3 + 1 + 16 + 64 + 3 + 7 + 16
    assert np.allclose(out.outputs["x1"], np.arange(n) * 2.0 + extra)
    assert np.array_equal(out.outputs["x2"], np.arange(n) + 1)


def test_a_kernel_that_defines_the_runtimes_internal_names_still_runs(run):
    """The names the runtime's macros used to expand to (detail, thread_idx, tick, shfl, ...) are
    ordinary names for the student now: a kernel #defining all of them before using barriers,
    warp shuffles, shared memory, printf and loops compiles and is correct."""
    internal = ["detail", "t_ctx", "thread_idx", "block_idx", "block_dim", "grid_dim", "block_barrier",
                "thread_fence", "kernel_exit", "warp_op", "shfl", "kShflDown", "kSyncWarp", "kBallot",
                "mask_or_full", "width_or_32", "active_mask", "tick", "device_printf", "shared_var", "dynamic_shared",
                "uint3", "dim3"]
    defines = "\n".join(f"#define {n} )junk(" for n in internal)
    src = f"""\
#include <cstdio>
{defines}
#define BLOCK_SIZE 64
__global__ void k(const float* x, float* y, int n)
{{
    __shared__ float partial[BLOCK_SIZE];
    extern __shared__ float scratch[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float v = i < n ? x[i] : 0.0f;
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
    if ((t & 31) == 0) partial[t / 32] = v;
    scratch[t] = v;
    __syncthreads();
    if (t == 0) {{
        float s = 0.0f;
        int w = 0;
        while (w < (int)(blockDim.x / 32)) s += partial[w++];
        y[blockIdx.x] = s;
        if (blockIdx.x == 0) printf("block 0: %g\\n", s);
    }}
    if (t >= n) return;
}}
"""
    n = 256
    x = np.arange(n, dtype=np.float32)
    out = run(src, spec("k", ("x", "in", "float32"), ("y", "out", "float32"), ("n", "scalar", "int32")),
              (4, 1, 1), (64, 1, 1), {"x": x, "y": np.zeros(4, np.float32), "n": n}, shared=64 * 4)
    assert np.allclose(out.outputs["y"], x.reshape(4, 64).sum(axis=1))


def test_shielded_undefines_every_identifier_and_restores_it_after():
    """shielded() pushes and #undefs each name it finds (not in comments, strings or numbers) and
    pops them in reverse order; the kept name is left alone."""
    text = 'template <class T> int f(T v) { return v + 0x1fULL; } // C comment\nconst char* s = "B";\n'
    out = shielded(text, keep=("f",))
    names = re.findall(r'#pragma push_macro\("(\w+)"\)\n#undef \1\n', out)
    assert names == ["template", "class", "T", "int", "v", "return", "const", "char", "s"]
    assert out.index(text) > out.rindex("#undef")
    assert re.findall(r'#pragma pop_macro\("(\w+)"\)', out) == names[::-1]


def test_the_harness_is_shielded_from_every_name_it_uses():
    """Every identifier of the harness but the kernel's name is pushed and #undef'd before it."""
    text = jobs.harness_source(EVERY_ARG)
    used = set(identifiers(code_lines(text))) - {"k"}
    undone = set(re.findall(r"#undef (\w+)", text))
    assert used and used <= undone


def test_header_sources_are_found():
    """The enumeration reads the real headers (a moved include dir must not make it vacuous)."""
    assert Path(INCLUDE_DIR, "warpdrill", "prelude.hpp").is_file() and len(macro_bodies()) > 30
