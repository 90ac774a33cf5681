"""The emulator's precompiled prelude: `warpdrill/prelude.hpp` compiled once per runtime hash and variant.

Parsing the prelude (≈ 23,000 preprocessed lines) was most of a student compile's CPU time (README,
"Emulator compile"); g++ takes the .gch from the first include directory instead, and falls back to
the header when the .gch does not fit the compile's flags.
"""
from __future__ import annotations

import fcntl
import logging
import os
import shutil
import tempfile
from pathlib import Path

from ..sandbox import Limits, Sandbox
from . import toolchain

logger = logging.getLogger("grader.core.backends.emulator")


def build(box: Sandbox, cache_dir: Path, variant: str, runtime: toolchain.Runtime, cxx: str, time_limit_s: float) -> None:
    """Precompile the prelude for `variant` into `runtime.lib_dir/pch-<variant>/` (once per runtime hash,
    under the runtime's lock in `cache_dir`), inside the sandbox `box` so the header paths the .gch
    records are the ones a student's compile sees (`time_limit_s` seconds at most). It only saves time
    (≈ 0.1 s of CPU per compile): when it cannot be built, compiles parse the header as before and a
    warning is logged. Never raises for a failed build."""
    out = runtime.lib_dir / f"pch-{variant}"
    done = runtime.lib_dir / f".done-pch-{variant}"
    if done.exists() or toolchain.missing_compiler(cxx):
        return
    with open(cache_dir / f"runtime-{runtime.hash}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if done.exists():
            return
        with tempfile.TemporaryDirectory(prefix="wd-pch-") as tmp:
            res = box.run(toolchain.pch_argv(variant, "prelude.hpp.gch", cxx), Path(tmp), Limits(time_limit_s, 4 << 30),
                          ro_binds={str(toolchain.INCLUDE_DIR): toolchain.SANDBOX_INCLUDE})
            gch = Path(tmp) / "prelude.hpp.gch"
            if res.returncode != 0 or not gch.exists():
                logger.warning("the emulator's precompiled prelude (%s) did not build: %s", variant,
                               (res.stderr + res.stdout)[-500:])
                return
            (out / "warpdrill").mkdir(parents=True, exist_ok=True)
            staging = out / "warpdrill" / f".prelude.hpp.gch.{os.getpid()}"
            shutil.copyfile(gch, staging)
            os.replace(staging, out / "warpdrill" / "prelude.hpp.gch")
        done.write_text(runtime.hash)
