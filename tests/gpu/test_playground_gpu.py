"""The playground on a real GPU: values and printf come back from a plain run, races from
compute-sanitizer's racecheck with their lines (skipped without PyCUDA and an NVIDIA device)."""
from __future__ import annotations

import pytest

from playground.core.run import PlaygroundRequest, run_playground
from playground.core.spec import kernel_name, parse_arguments, parse_launch

from .conftest import require_gpu

pytestmark = pytest.mark.gpu

RACY = """\
#include <cstdio>
__global__ void count(int* out, int n) {
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    total += 1;
    __syncthreads();
    if (threadIdx.x == 0) { out[blockIdx.x] = total; printf("block %d\\n", blockIdx.x); }
}
"""


@pytest.fixture(scope="module")
def gpu():
    require_gpu()
    from grader.core import sandbox

    mp = pytest.MonkeyPatch()
    if not sandbox.box.DEFAULT.works():
        mp.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(allow_unsafe=True))  # the H200 test machine has no bubblewrap
    from grader.core.backends.gpu import GpuBackend

    backend = GpuBackend()
    yield backend
    backend.shutdown()
    mp.undo()


def test_a_racy_kernel_on_the_gpu_shows_its_values_printf_and_race(gpu):
    args = parse_arguments([{"name": "out", "kind": "output", "dtype": "int32", "size": "2"},
                            {"name": "n", "kind": "scalar", "value": "2"}])
    result = run_playground(PlaygroundRequest(RACY, kernel_name(RACY), args, parse_launch("2", "64", "", args)), gpu)
    assert result.ending == "ok" and result.backend == "gpu" and result.device, result.to_dict()
    assert result.outputs and result.outputs[0].name == "out" and len(result.outputs[0].rows[0]) == 2
    assert "block 0" in result.log and "block 1" in result.log
    races = [d for d in result.diagnostics if d.kind == "race"]
    assert races and 6 in {d.line for d in races} | {d.detail.get("other_line") for d in races}, result.to_dict()
    assert result.resources is not None and result.resources.registers is not None
