"""The precompiled prelude (issue #17): built once per runtime in the site's cache, and used by the
student's compile in the sandbox; without it a compile still works (the header is parsed)."""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from tests.sandbox.run import run_box
from grader.core.emulator import toolchain

from .conftest import spec

KERNEL = "__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x * 2; }\n"


def _cc_step(variant: str) -> list[str]:
    """The g++ step of compile_argv alone, with -H (every header opened, a .gch marked '!' when used)."""
    script = toolchain.compile_argv(variant, "k.cpp", "k.bin")[2].split(" && ")[0]
    return ["/bin/sh", "-c", script + " -H"]


def test_the_prelude_is_precompiled_in_the_cache_and_used_by_the_sandboxed_compile(backend):
    runtime = backend.runtime("fast")
    gch = runtime.lib_dir / "pch-fast" / "warpdrill" / "prelude.hpp.gch"
    assert gch.is_file() and gch.stat().st_size > 1 << 20
    assert backend.cache_dir in gch.parents  # the site's cache (var/), never a shared temp folder
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "k.cpp").write_text(KERNEL)
        res = run_box(_cc_step("fast"), Path(tmp), 60.0, memory_bytes=4 << 30,
                                    ro_binds={str(toolchain.INCLUDE_DIR): toolchain.SANDBOX_INCLUDE,
                                              str(runtime.lib_dir): toolchain.SANDBOX_LIB})
    assert res.returncode == 0, res.stderr
    assert f"! {toolchain.pch_dir('fast')}/warpdrill/prelude.hpp.gch" in res.stderr
    assert "detail/loops.hpp" not in res.stderr  # no header of the prelude was parsed again


def test_a_kernel_compiles_and_runs_the_same_without_the_precompiled_prelude(backend, run, monkeypatch):
    with_pch = run(KERNEL, spec("k", ("out", "out", "int32")), (1, 1, 1), (32, 1, 1), {"out": np.zeros(32, np.int32)})
    monkeypatch.setattr(toolchain, "pch_dir", lambda variant: "/wd/no-pch")
    without = run(KERNEL + "// no pch\n", spec("k", ("out", "out", "int32")), (1, 1, 1), (32, 1, 1),
                  {"out": np.zeros(32, np.int32)})
    assert with_pch.status.value == without.status.value == "ok"
    np.testing.assert_array_equal(with_pch.outputs["out"], np.arange(32) * 2)
    np.testing.assert_array_equal(without.outputs["out"], with_pch.outputs["out"])
