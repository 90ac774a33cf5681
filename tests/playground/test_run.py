"""The playground's run: previews of outputs, and real runs on the emulator that report a race, an
out-of-bounds write, a compile error and printf output with their lines (no database)."""
import numpy as np
import pytest

from grader.core.backends.base import RunOutcome, RunStatus
from grader.core.backends.dummy import DummyBackend
from playground.core.run import PlaygroundRequest, PlaygroundResult, preview, run_playground
from playground.core.spec import parse_arguments, parse_launch

RACY = """\
__global__ void racy(int* out, int n) {
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    total += 1;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
"""

OUT_OF_BOUNDS = """\
__global__ void past_the_end(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * i;
}
"""

PRINTS = """\
#include <cstdio>
__global__ void hello(int* out) {
    out[threadIdx.x] = threadIdx.x * 10;
    if (threadIdx.x == 1) printf("thread %d says hi\\n", threadIdx.x);
}
"""


def request(source, rows, grid="1", block="32", shared=""):
    args = parse_arguments(rows)
    from playground.core.spec import kernel_name

    return PlaygroundRequest(source, kernel_name(source), args, parse_launch(grid, block, shared, args))


def test_a_1d_output_is_shown_in_rows_of_16_and_a_2d_one_as_its_corner():
    one, two = parse_arguments([{"name": "a", "kind": "output", "dtype": "int32", "size": "1000"},
                                {"name": "b", "kind": "output", "dtype": "float32", "size": "40x40"}])
    before = np.zeros(1000, dtype=np.int32)
    after = np.arange(1000, dtype=np.int32)
    p = preview(one, before, after)
    assert len(p.rows) == 32 and p.rows[1][:2] == ["16", "17"] and p.row_starts[:3] == [0, 16, 32]
    assert p.truncated and p.changed == 999 and (p.min, p.max) == ("0", "999")
    matrix = np.full((40, 40), np.nan, dtype=np.float32)
    matrix[0, :3] = [1.5, 2, 3]
    q = preview(two, np.zeros((40, 40), np.float32), matrix)
    assert len(q.rows) == 32 and len(q.rows[0]) == 16 and q.rows[0][:4] == ["1.5", "2", "3", "nan"]
    assert q.nan_count == 1597 and q.changed == 1600 and q.max == "3"


def test_the_dummy_backend_result_round_trips_and_inputs_are_not_shown():
    def run_fn(source, spec, req):
        assert [a.role for a in spec.args] == ["in", "inout", "scalar"]
        assert req.check is False and req.inputs["y"].tolist() == [0, 1, 2, 3]
        return RunOutcome(RunStatus.OK, outputs={"x": req.inputs["x"], "y": req.inputs["y"] * 2}, log="hi\n")

    req = request("__global__ void k(const int* x, int* y, int n) {}",
                  [{"name": "x", "kind": "input", "dtype": "int32", "size": "4", "init": "range"},
                   {"name": "y", "kind": "output", "dtype": "int32", "size": "4", "init": "range"},
                   {"name": "n", "kind": "scalar", "value": "4"}], block="4")
    result = run_playground(req, DummyBackend(run_fn))
    assert result.ending == "ok" and [o.name for o in result.outputs] == ["y"]
    assert result.outputs[0].rows == [["0", "2", "4", "6"]] and result.outputs[0].changed == 3 and result.log == "hi\n"
    assert PlaygroundResult.from_dict(result.to_dict()).to_dict() == result.to_dict()


@pytest.fixture(scope="module")
def emulator():
    from grader.core.backends.registry import get_backend

    backend = get_backend("emulator")
    problems = backend.check()
    if problems:
        pytest.skip("; ".join(problems))
    return backend


@pytest.mark.slow
def test_a_racy_kernel_shows_the_race_on_its_lines(emulator):
    req = request(RACY, [{"name": "out", "kind": "output", "dtype": "int32", "size": "2"},
                         {"name": "n", "kind": "scalar", "value": "2"}], grid="2", block="64")
    result = run_playground(req, emulator)
    assert result.ending == "ok", result.to_dict()
    races = [d for d in result.diagnostics if d.kind == "race"]
    assert races and races[0].line == 5, [d.to_dict() for d in result.diagnostics]
    assert result.outputs[0].name == "out"


@pytest.mark.slow
def test_an_out_of_bounds_write_is_a_fault_with_its_line_and_a_compile_error_is_a_result(emulator):
    req = request(OUT_OF_BOUNDS, [{"name": "out", "kind": "output", "size": "100"},
                                  {"name": "n", "kind": "scalar", "value": "100"}], grid="4", block="32")
    result = run_playground(req, emulator)
    assert any(d.kind == "out_of_bounds" and d.line == 3 for d in result.diagnostics), result.to_dict()
    broken = run_playground(request("__global__ void k(int* out) { out[0] = nope; }",
                                    [{"name": "out", "kind": "output", "size": "1"}]), emulator)
    assert broken.ending == "compile_error" and not broken.compile.ok
    assert any(m.line == 1 for m in broken.compile.messages)


@pytest.mark.slow
def test_printf_output_and_values_come_back(emulator):
    result = run_playground(request(PRINTS, [{"name": "out", "kind": "output", "dtype": "int32", "size": "4"}],
                                    block="4"), emulator)
    assert result.ending == "ok" and "thread 1 says hi" in result.log
    assert result.outputs[0].rows == [["0", "10", "20", "30"]]


@pytest.mark.slow
def test_the_write_map_names_the_thread_of_every_element(emulator):
    from grader.core.writemap.model import NEVER
    from grader.core.writemap.store import decode, render_stored

    source = ("__global__ void reversed(int* out, int n) {\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i < n - 1) out[n - 1 - i] = i;\n}\n")  # skips the last thread: out[0] is never written
    result = run_playground(request(source, [{"name": "out", "kind": "output", "dtype": "int32", "size": "8"},
                                             {"name": "n", "kind": "scalar", "value": "8"}], grid="2", block="4"),
                            emulator)
    assert [m["output"] for m in result.writemaps] == ["out"], result.to_dict()
    wm = decode(result.writemaps[0])[0]
    assert wm.writer.tolist() == [NEVER, 6, 5, 4, 3, 2, 1, 0]
    assert "never written" in render_stored(result.writemaps[0])


def test_a_check_pass_without_outputs_is_completed_by_a_plain_run():
    """The GPU's compute-sanitizer pass reports findings only: a plain run gives the values and printf."""
    from grader.core.results import Diagnostic
    from grader.core.verdicts import DiagnosticKind

    class Sanitizing(DummyBackend):
        supports_sanitizers = True

    calls = []

    def run_fn(source, spec, req):
        calls.append(req.check)
        if req.check:
            return RunOutcome(RunStatus.OK, diagnostics=[Diagnostic(DiagnosticKind.RACE, "a race", line=2)])
        return RunOutcome(RunStatus.OK, outputs={"y": req.inputs["y"] + 1}, log="printed\n")

    req = request("__global__ void k(int* y) {}", [{"name": "y", "kind": "output", "dtype": "int32", "size": "2"}],
                  block="2")
    result = run_playground(req, Sanitizing(run_fn))
    assert calls == [True, False]
    assert result.outputs[0].rows == [["1", "1"]] and result.log == "printed\n"
    assert [(d.kind, d.line) for d in result.diagnostics] == [("race", 2)]
