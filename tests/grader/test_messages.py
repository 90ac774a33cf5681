"""grader/core/messages.py: every template is translated, renders, and names the text it stands for.

The catalogue is read with the standard library (no Django): the compiled locale/ko .mo file.
The emulator cases run real kernels, so a change of the runtime's wording that no template
matches any more fails here instead of silently showing English.
"""
from __future__ import annotations

import gettext
import re
from pathlib import Path

import numpy as np
import pytest

from grader.core import messages as M
from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest
from grader.core.gpu import cuda_errors, nvcc
from grader.core.launch import launch_problem
from grader.core.results import Diagnostic, JudgeResult
from grader.core.verdicts import DiagnosticKind, Verdict

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES" / "django.mo"
PARAM = re.compile(r"%\((\w+)\)s")


@pytest.fixture(scope="module")
def korean() -> dict[str, str]:
    with CATALOGUE.open("rb") as f:
        return gettext.GNUTranslations(f)._catalog


@pytest.mark.parametrize("template", M.templates())
def test_every_template_has_a_korean_translation_with_its_parameters(template, korean):
    """Each template is in the compiled Korean catalogue, in Korean, with the same parameters, and renders."""
    assert korean.get(template), f"no Korean translation in {CATALOGUE.name}: {template!r}"
    names = sorted(set(PARAM.findall(template)))
    assert sorted(set(PARAM.findall(korean[template]))) == names
    # Words, not only parameters and punctuation (a list of two items is written with a comma in Korean).
    # A field term alone ("shared memory") stays English in Korean, as the interface writes it
    # (tests/architecture/test_korean_field_terms.py).
    if re.search(r"[A-Za-z]{3}", PARAM.sub("", template)) and template not in (M.AND, "shared memory"):
        assert re.search(r"[가-힣]", korean[template])
    M.Message(template.code, {name: "X" for name in names}).render(lambda s: korean.get(s, s))


def test_templates_found_by_the_module_scan():
    """templates() sees constants, tuples and dicts (a template forgotten there would escape the test above)."""
    found = M.templates()
    assert M.SUMMARY_TEST_AT_LINE in found and M.RUNTIME_GROUPS[0] in found
    assert M.KILLED_BY["signal"] in found and M.WORDS["read"] in found and len(found) > 100


def test_cuda_hints_are_the_gpu_tables_hints():
    """The translated hints are exactly those of grader/core/gpu/cuda_errors.py, under their error's name."""
    assert M.CUDA_HINT == {e.name: e.hint for e in cuda_errors.ERRORS}


def test_nested_messages_render_in_the_given_language():
    """A parameter that is a message is translated too; lists are joined with '; '."""
    nested = M.TIME_LIMIT_STOPPED(limit="2")
    table = {M.SUMMARY_TEST: "[%(test)s] %(reason)s", M.TIME_LIMIT_STOPPED: "T%(limit)s"}
    summary = M.SUMMARY_TEST(test="small", reason=nested)
    assert summary.render(lambda s: table.get(s, s)) == "[small] T2"
    words = M.RUNTIME_DEADLOCK_PROVEN(block="(0,0,0)", waiting=[M.WORDS["read"](), M.WORDS["write"]()])
    assert words == "Deadlock in block (0,0,0): read; write, and no other thread can ever arrive there."
    assert M.and_list([5, 7, 9]).render(lambda s: {M.AND: "%(before)s, %(after)s"}.get(s, s)) == "5, 7, 9"
    assert M.and_list([5, 7, 9]) == "5 and 7 and 9"


def test_diagnostic_renders_english_and_round_trips():
    """A Diagnostic carries one Message, stored as its code and parameters; its str is the English.
    A plain str where the message is (a row written by hand, a backend's text) loads as verbatim text."""
    d = Diagnostic(DiagnosticKind.TIMEOUT, message=M.TIME_LIMIT(limit="2"))
    assert d.message == "The kernel ran past the time limit of 2 s of CPU time."
    assert d.to_dict()["message"] == {"code": "TIME_LIMIT", "params": {"limit": "2"}}
    again = Diagnostic.from_dict(d.to_dict())
    assert again == d and again.message.code == "TIME_LIMIT" and again.message.params == {"limit": "2"}
    old = {"kind": "race", "message": "old words", "line": 3, "block": None, "thread": None, "test": None,
           "detail": {}}
    loaded = Diagnostic.from_dict(old)
    assert loaded.message == "old words" and loaded.message.code == ""
    result = JudgeResult.from_dict({"verdict": "ACCEPTED", "message": "All 1 test cases passed."})
    assert result.verdict is Verdict.ACCEPTED and result.message.code == ""


def test_every_code_names_its_template_and_messages_survive_pickling():
    """Codes are the constants' names (or dict name and key); a Message pickles as its code and parameters."""
    import pickle

    assert M.CATALOGUE["SOURCE_TOO_LARGE"] == M.SOURCE_TOO_LARGE and M.SOURCE_TOO_LARGE.code == "SOURCE_TOO_LARGE"
    assert M.RUNTIME_FAULT["assert"].code == "RUNTIME_FAULT.assert" and M.RUNTIME_FAULTS[7] == M.RUNTIME_FAULT["assert"]
    message = M.SUMMARY_TEST(test="a", reason=M.RUNTIME_FAULT["assert"]())
    again = pickle.loads(pickle.dumps(message))
    assert again.code == "SUMMARY_TEST" and again.params["reason"].code == "RUNTIME_FAULT.assert"
    assert M.Message.from_dict(message.to_dict()).to_dict() == message.to_dict()
    with pytest.raises(KeyError):
        M.SOURCE_TOO_LARGE()  # a parameter the template writes is missing


@pytest.mark.parametrize("launch", [
    LaunchConfig((1, 1, 1), (0, 1, 1)),
    LaunchConfig((1, 1, 1), (2048, 1, 1)),
    LaunchConfig((1, 1, 1), (1, 1, 128)),
    LaunchConfig((1, 70000, 1), (32, 1, 1)),
    LaunchConfig((1, 1, 1), (32, 1, 1), -1),
    LaunchConfig((1, 1, 1), (32, 1, 1), 64 * 1024),
])
def test_launch_refusals_are_catalogue_messages(launch):
    """Every refusal grader/core/launch.py writes has a template."""
    reason = launch_problem(launch)
    assert reason.code.startswith("LAUNCH_REASON.") and reason.render() == reason


def test_signature_check_message_is_a_catalogue_message():
    """nvcc's failed static_assert of the signature check becomes our translatable message."""
    spec = KernelSpec("add", (ArgSpec("c", ArgRole.OUT, "float32"), ArgSpec("n", ArgRole.SCALAR, "int32")))
    log = f'{nvcc.CHECK_FILE}(14): error: static assertion failed with "the kernel must be declared ..."'
    [message] = nvcc.parse_messages(log, spec)
    assert message.message.template == M.COMPILE_MESSAGES[0]
    assert message.message.params == {"signature": "__global__ void add(float* c, int n)"}
    assert message.message == "the kernel must be declared at file scope as __global__ void add(float* c, int n)"


def test_emulator_static_check_messages_are_catalogue_messages():
    """What the emulator's rewriter refuses (grader/core/emulator/rewrite.py) comes back as our templates."""
    from grader.core.emulator.rewrite import rewrite

    source = ("#pragma GCC dependency \"x\"\n__global__ void k(int* out) {\n  asm(\"nop\");\n  goto end;\n"
              "  FILE* f = fopen(\"x\", \"r\");\n  out[0] <: 0 :> = 1;\nend:;\n}\n")
    problems = rewrite(source, "k").problems
    assert len(problems) >= 4
    for p in problems:
        assert p.message.template in M.COMPILE_MESSAGES and p.message.code.startswith("COMPILE_MESSAGE.")


# ---- the emulator's runtime texts, from real runs ----

ONE_ARG = KernelSpec("k", (ArgSpec("out", ArgRole.OUT, "int32"),))
RUNTIME_CASES = {
    "skipped barrier": ("""__global__ void k(int* out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = 1;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            __syncthreads();
        }
    }
    if (t == 0) out[0] = s[0];
}""", 256, DiagnosticKind.NOTE),  # the barrier rule's note (docs/synchronization.md, row 4)
    "two barriers": ("""__global__ void k(int* out) {
    int t = threadIdx.x;
    if (t % 2) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[t] = 1;
}""", 64, DiagnosticKind.DIVERGENT_BARRIER),
    "deadlock": ("""__global__ void k(int* out) {
    int t = threadIdx.x;
    if (t < 16) __syncwarp();
    else __syncthreads();
    out[t] = 1;
}""", 32, DiagnosticKind.DEADLOCK),
    "warp mask": ("""__global__ void k(int* out) {
    if (threadIdx.x >= 24) return;
    out[threadIdx.x] = __shfl_down_sync(0xffffffff, (int)threadIdx.x, 8);
}""", 32, DiagnosticKind.WARP_MASK),
    "out of bounds": ("""__global__ void k(int* out) {
    out[threadIdx.x + 64] = 1;
}""", 64, DiagnosticKind.OUT_OF_BOUNDS),
}


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.emulator import EmulatorBackend

    backend = EmulatorBackend()
    if backend.check():
        pytest.skip("the emulator cannot run here: " + "; ".join(backend.check()))
    return backend


@pytest.mark.parametrize("case", list(RUNTIME_CASES))
def test_emulator_runtime_messages_have_templates(case, emulator):
    """The runtime's English for each kind of finding matches a template, and Korean differs from it."""
    source, threads, kind = RUNTIME_CASES[case]
    build = emulator.compile(source, ONE_ARG)
    try:
        assert build.compile.ok, build.compile.log
        outcome = emulator.run(build, RunRequest(LaunchConfig((1, 1, 1), (threads, 1, 1)),
                                                 {"out": np.zeros(threads, np.int32)}, time_limit_s=5.0))
    finally:
        emulator.close(build)
    found = [d for d in outcome.diagnostics if d.kind is kind]
    assert found, outcome
    for d in found:
        assert d.message.template in M.RUNTIME_MESSAGES, d.message


# ---- the GPU backend's texts, without a GPU ----

def test_gpu_fault_and_sanitizer_findings_have_templates():
    """A CUDA fault's hint and compute-sanitizer's findings are built from templates (English unchanged)."""
    from grader.core.backends.gpu import GpuBackend
    from grader.core.gpu.sanitizer import Tool, parse_report

    backend = GpuBackend(arch="sm_90")
    try:
        outcome = backend._outcome({"status": "fault", "error": "CUDA_ERROR_ILLEGAL_ADDRESS",
                                    "message": "cuCtxSynchronize failed: an illegal memory access was encountered"},
                                   {}, None, None)
    finally:
        backend.shutdown()
    [fault] = outcome.diagnostics
    assert fault.message.template == M.CUDA_ERROR and fault.message.startswith("CUDA_ERROR_ILLEGAL_ADDRESS: A thread")

    memcheck = ("========= Invalid __global__ write of size 4 bytes\n"
                "=========     at k(float *)+0x90 in /box/kernel.cu:7\n"
                "=========     by thread (31,0,0) in block (4,0,0)\n"
                "=========     Address 0x7f00 is 4 bytes after the nearest allocation at 0x7e00 of size 256 bytes\n")
    [oob] = parse_report(Tool.MEMCHECK, memcheck).diagnostics
    assert oob.message.template == M.OUT_OF_BOUNDS_NEAR
    assert oob.message == "Out-of-bounds __global__ write of 4 bytes: 4 bytes after a 256-byte buffer."
    racecheck = ("========= Error: Race reported between Write access at 0x1f0 in /box/kernel.cu:12:k(float *)\n"
                 "=========     and Read access at 0x200 in /box/kernel.cu:14:k(float *) [4 hazards]\n")
    [race] = parse_report(Tool.RACECHECK, racecheck).diagnostics
    assert race.message.template == M.SHARED_RACE_LINES
    assert race.message == "Shared-memory race: a write (line 12) and a read (line 14) are not ordered by a barrier."


@pytest.mark.parametrize("source, threads, code, params", [
    ("__global__ void k(int* out) {\n    out[threadIdx.x + 64] = 1;\n}", 64, "RUNTIME_FAULT.global_out_of_bounds",
     {"array": "out", "index": 64, "last": 63}),
    ("__global__ void k(int* out) {\n    int* p = 0;\n    out[0] = p[threadIdx.x];\n}", 64, "RUNTIME_FAULT.null_pointer",
     {}),
    ("__global__ void k(int* out) {\n    volatile int zero = 0;\n    out[threadIdx.x] = 7 / zero;\n}", 64,
     "RUNTIME_FAULT.division_by_zero", {}),
    ("__global__ void k(int* out) {\n    volatile int go = 1;\n    while (go) { }\n}", 32, "RUNTIME_TIMEOUT",
     {"line": 3, "limit": 1}),
    (RUNTIME_CASES["skipped barrier"][0], 256, "RUNTIME_SKIPPED_BARRIER_NOTE", {"line": 9, "warp": 0}),
    (RUNTIME_CASES["two barriers"][0], 64, "RUNTIME_DIVERGENT_BARRIERS_SPLIT", {"line": 4, "other_line": 6}),
    (RUNTIME_CASES["deadlock"][0], 32, "RUNTIME_DEADLOCK_PROVEN", {}),
    (RUNTIME_CASES["warp mask"][0], 32, "RUNTIME_WARP_EXITED", {"line": 3}),
])
def test_the_runtime_writes_its_messages_as_codes(source, threads, code, params, emulator):
    """A fault, a time limit and the skipped-barrier note come from the runtime as a code and parameters
    (numbers as numbers): nothing reads the runtime's English back; their English is the catalogue's."""
    assert not hasattr(M, "runtime_message") and not hasattr(M, "recognise")
    build = emulator.compile(source, ONE_ARG)
    try:
        assert build.compile.ok, build.compile.log
        outcome = emulator.run(build, RunRequest(LaunchConfig((1, 1, 1), (threads, 1, 1)),
                                                 {"out": np.zeros(threads, np.int32)}, time_limit_s=1.0))
    finally:
        emulator.close(build)
    [found] = [d for d in outcome.diagnostics if d.message.code == code]
    assert params.items() <= found.message.params.items()


def test_the_catalogue_has_no_regular_expressions():
    """messages.py never parses a sentence back into its parts: it imports no regular-expression module. Its one
    import, practice.core.korean's fill, reads a translated template's placeholders (to choose the Korean particle
    written after one), never a filled-in sentence."""
    import ast

    tree = ast.parse(Path(M.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "typing", "practice.core.korean"}, imported
