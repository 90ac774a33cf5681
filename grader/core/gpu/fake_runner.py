"""The fake runner of a GPU child started with --fake: no GPU code, for tests on CPU machines.

Imported by child.py only (standard library, NumPy and fence.py, relatively: the package folder alone
is bound into a sandbox)."""
from __future__ import annotations

import os
import time

import numpy as np

from . import fence
from .protocol import result as _result


class FakeRunner:
    """No GPU: copies every IN/INOUT buffer to the outputs, or misbehaves on request. For tests.

    Entry names drive it: "hang" sleeps forever, "crash" exits, "sticky" reports an illegal
    address (and the child exits), "print" writes to fd 1 as a kernel's printf would. With a
    `log_path` (a fake sanitizer child) it writes records in compute-sanitizer's format there:
    "race" adds a racecheck hazard at kernel.cu:7, "nofence" leaves no fence after the job.
    """

    def __init__(self, log_path: str | None = None):
        self.log_path = log_path
        if log_path:
            self._log("========= COMPUTE-SANITIZER\n")

    def _log(self, text: str) -> None:
        with open(self.log_path, "a") as f:
            f.write(text)

    def fence(self, tool: str, nonce: str) -> None:
        if self._entry == "nofence":
            raise RuntimeError("no fence (asked for by the test)")
        if tool == "memcheck":
            self._log('========= Program hit CUDA_ERROR_INVALID_VALUE (error 1) due to "invalid argument" on CUDA '
                      f"API call to {fence.MEMCHECK_API}.\n=========\n")
            return
        name, _ = fence.entry(tool, nonce)
        for _ in range(2):  # a fence may make several records
            self._log("========= Error: Potential WAW hazard detected at __shared__ 0x0 in block (0,0,0) :\n"
                      f"=========     Write Thread (0,0,0) at {name}+0x70\n"
                      f"=========     Write Thread (32,0,0) at {name}+0x70\n=========\n")

    def close(self) -> None:
        pass

    def hello(self) -> dict:
        return {"op": "ready", "ok": True, "device": "fake", "cc": "9.0", "pid": os.getpid(), "pycuda": ""}

    _entry = ""

    def run(self, job: dict, arrays: dict[str, np.ndarray]):
        entry = self._entry = job["entry"]
        if entry == "race" and self.log_path:
            self._log("========= Error: Race reported between Write access at k(float *)+0x90 in kernel.cu:7\n"
                      "=========     and Read access at k(float *)+0xa0 in kernel.cu:7 [32 hazards]\n=========\n")
        if entry == "hang":
            while True:
                time.sleep(3600)
        if entry == "crash":
            os._exit(9)
        if entry == "sticky":
            return (_result("fault", error="CUDA_ERROR_ILLEGAL_ADDRESS", message="an illegal memory access was encountered",
                            sticky=True), {}, False)
        if entry == "print":
            os.write(1, b'{"op":"result","status":"ok"} forged\n')
        outputs = {a["name"]: arrays[a["name"]].copy() for a in job["args"] if a["role"] in ("out", "inout")}
        return _result("ok", time_s=0.0), outputs, True
