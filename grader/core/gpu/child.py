"""The GPU child: a process that owns one CUDA context and runs kernels from cubins, one job at a time.

    python -m grader.core.gpu.child (--result-path FIFO | --listen SOCKET) [--sanitizer TOOL]
                                    [--sync MODE] [--memcheck-on-error MODE]
                                    [--fake [--fake-log PATH] | --compiler]

Started by the judge (pool.py) with `subprocess`, never forked from a process that touched CUDA.
It creates its context at start, says "ready", then reads jobs (protocol frames) on stdin and
answers on the FIFO at --result-path; a child shared by the pool processes of a worker (shared.py)
listens on the unix socket --listen instead and serves one connection at a time, each one a job
stream that starts with the hello. The kernel's printf goes to fd 1, which is redirected to an
in-memory file and returned, capped, as the job's log: it can never reach the result channel.
After a sticky CUDA error (illegal address, trap, ...) the context is unusable, so the child
answers and exits; the judge starts a fresh one. `--sanitizer TOOL` is a child that runs under
compute-sanitizer's TOOL: after each job, before answering, it leaves the job's fence in the
tool's log (fence.py), so that the judge can cut the one log of many jobs into their reports.
`--fake` runs no GPU code (tests on CPU); with `--sanitizer` it writes the records a real tool
would (a fence, a race for the entry "race") to `--fake-log`.
`--compiler` makes a compiler child instead: no CUDA context, NVRTC loaded once, "compile" jobs
(nvrtc.py); a compile that never ends is killed from outside like a hung kernel.

This module imports only the standard library, NumPy and (in the real runner) PyCUDA and, for a
cooperative launch, cuda-bindings' driver API, with
relative imports, so that the package folder alone can be bound into a sandbox.
"""
from __future__ import annotations

import argparse
import ctypes
import hashlib
import os
import signal
import sys
import time

import numpy as np

from . import fence, protocol
from .child_settings import MEMCHECK_ON_ERROR_MODES, SYNC_MODES, context_flags, context_works
from .cuda_errors import classify, is_platform_fault
from .fake_runner import FakeRunner
from .protocol import result as _result
from .gridreport import GridSyncReport

LOG_CAP = 16 * 1024  # bytes of the kernel's printf output returned per job
# Cubins kept loaded: the test cases of one submission share one, and a child shared by the pool
# processes of a worker (shared.py) serves several submissions' cases in turn.
MAX_MODULES = 16
DEFAULT_DYNAMIC_SHARED_BYTES = 48 * 1024  # above this a kernel needs the opt-in attribute
POISON_BYTE = 0xFF  # OUT buffers start as NaN / -1, as in the emulator


def _die_with_parent() -> None:
    """Ask the kernel to SIGKILL us when our parent dies (a hung kernel must not outlive the judge)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class PrintfCapture:
    """fd 1 redirected to an in-memory file; `take()` returns and clears what the kernel printed."""

    def __init__(self):
        self.fd = os.memfd_create("kernel-printf")
        os.dup2(self.fd, 1)
        self.libc = ctypes.CDLL(None)

    def take(self) -> tuple[str, int]:
        """(text, bytes dropped) printed since the last call; the device's printf buffer is
        flushed to fd 1 by the driver at synchronisation, then C stdio holds it until fflush."""
        self.libc.fflush(None)
        size = os.lseek(1, 0, os.SEEK_END)
        data = os.pread(1, min(size, LOG_CAP), 0)
        os.ftruncate(1, 0)
        os.lseek(1, 0, os.SEEK_SET)
        return data.decode("utf-8", "replace"), max(0, size - LOG_CAP)


class LaunchError(RuntimeError):
    """The driver API refused a launch made without PyCUDA (a cooperative launch); the message names
    the CUresult, which cuda_errors.classify reads."""


def _check(cu, err, call: str) -> None:
    """Raise LaunchError naming the CUresult unless `err` is CUDA_SUCCESS."""
    if err != cu.CUresult.CUDA_SUCCESS:
        raise LaunchError(f"{call} failed: {getattr(err, 'name', err)}")


class CudaRunner:
    """Runs jobs on device 0 (the worker's CUDA_VISIBLE_DEVICES picks the GPU) with PyCUDA."""

    def __init__(self, sync: str = "blocking", keeps_context_on_error: bool = False):
        """`sync`: how the thread waits for a kernel (child_settings.SYNC_MODES); `keeps_context_on_error`:
        the child runs under memcheck with --destroy-on-device-error kernel, so a fault it is told of is
        sticky only if the context then fails a probe (child_settings.context_works)."""
        import pycuda.driver as drv  # imported here only: the judge's own process never loads CUDA

        self.keeps_context_on_error = keeps_context_on_error
        self.drv = drv
        drv.init()
        self.device = drv.Device(0)
        self.context = self.device.make_context(flags=context_flags(drv, sync))
        self.modules: dict[str, object] = {}
        self._cooperative: dict[tuple[str, str], tuple] = {}  # (cubin digest, entry) -> (CUmodule, CUfunction)
        self._fence_out = None  # 4 bytes the fence kernels write to (allocated on first use)
        self.grid_report = GridSyncReport(drv)  # a trapped grid.sync() check's line (gridsync.py)

    def hello(self) -> dict:
        import pycuda

        major, minor = self.device.compute_capability()
        return {"op": "ready", "ok": True, "device": self.device.name(), "cc": f"{major}.{minor}",
                "pid": os.getpid(), "pycuda": pycuda.VERSION_TEXT}

    def close(self) -> None:
        """Destroy the context cleanly (a sanitizer child asked to finish exits after this)."""
        self.modules.clear()
        self.context.pop()
        self.context.detach()

    def fence(self, tool: str, nonce: str) -> None:
        """Make `tool` report this job's fence (fence.py). Raises drv.Error or RuntimeError when
        the fence could not be made: the log then cannot be cut, and the child must end."""
        if tool == "memcheck":
            libcuda = ctypes.CDLL("libcuda.so.1")  # the driver PyCUDA already loaded
            if libcuda.cuCtxSetLimit(ctypes.c_int(fence.INVALID_LIMIT), ctypes.c_size_t(0)) == 0:
                raise RuntimeError("cuCtxSetLimit accepted an invalid limit: no fence")
            return
        name, block = fence.entry(tool, nonce)
        if self._fence_out is None:
            self._fence_out = self.drv.mem_alloc(4)
        module = self.drv.module_from_buffer(fence.ptx(tool, nonce).encode())
        module.get_function(name)(self._fence_out, block=block, grid=(1, 1, 1))
        self.context.synchronize()
        del module  # unloaded: a fresh one is JIT-compiled per job (its name carries the nonce)

    def _function(self, cubin: np.ndarray, entry: str):
        digest = hashlib.sha256(cubin.tobytes()).hexdigest()
        module = self.modules.get(digest)
        if module is None:
            if len(self.modules) >= MAX_MODULES:
                self.modules.pop(next(iter(self.modules)))  # PyCUDA unloads it when collected
            module = self.drv.module_from_buffer(cubin.tobytes())
            self.grid_report.arm(module)
            self.modules[digest] = module
        return module.get_function(entry)


    def run(self, job: dict, arrays: dict[str, np.ndarray]) -> tuple[dict, dict[str, np.ndarray], bool]:
        """(reply header, outputs, context still healthy)."""
        drv = self.drv
        allocations = []
        try:
            func = self._function(arrays["__cubin__"], job["entry"])
            params = []
            for arg in job["args"]:
                if arg["role"] == "scalar":
                    params.append(np.dtype(arg["dtype"]).type(job["scalars"][arg["name"]]))
                    continue
                host = arrays[arg["name"]]
                if host.nbytes == 0:
                    params.append(np.intp(0))  # an empty buffer is NULL: any access faults
                    continue
                dev = drv.mem_alloc(host.nbytes)
                allocations.append((arg, host, dev))
                if arg["role"] == "out":  # `init: zeros` buffers start zeroed (the kernel accumulates)
                    drv.memset_d8(dev, 0 if arg.get("init") == "zeros" else POISON_BYTE, host.nbytes)
                else:
                    drv.memcpy_htod(dev, host)
                params.append(dev)
            self.context.synchronize()
        except drv.Error as exc:
            return self._failure(exc, "setup", allocations)
        started = time.perf_counter()
        try:
            self._launch(func, params, job, arrays["__cubin__"])
        except (drv.Error, LaunchError) as exc:
            return self._failure(exc, "launch", allocations)
        try:
            self.context.synchronize()
        except drv.Error as exc:
            failure = self._failure(exc, "run", allocations, time.perf_counter() - started)
            if line := self.grid_report.take_line():
                failure[0]["grid_sync_line"] = line
            return failure
        elapsed = time.perf_counter() - started
        outputs = {}
        try:
            for arg, host, dev in allocations:
                if arg["role"] in ("out", "inout"):
                    out = np.empty_like(host)
                    drv.memcpy_dtoh(out, dev)
                    outputs[arg["name"]] = out
            for arg in job["args"]:
                if arg["role"] in ("out", "inout") and arg["name"] not in outputs:
                    outputs[arg["name"]] = np.empty_like(arrays[arg["name"]])  # empty buffers
        except drv.Error as exc:
            return self._failure(exc, "copy", allocations, elapsed)
        self._free(allocations)
        return _result("ok", time_s=elapsed), outputs, True

    def _launch(self, func, params: list, job: dict, cubin: np.ndarray) -> None:
        """Launch as the job says: dynamic shared memory above 48 KiB with the opt-in attribute set to
        what the launch asks for (the judge refused more than the problem allows), and a
        cooperative launch through the driver API (PyCUDA has none). Raises drv.Error or LaunchError."""
        shared = int(job["shared"])
        if not job.get("cooperative"):
            if shared > DEFAULT_DYNAMIC_SHARED_BYTES:
                func.set_attribute(self.drv.function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, shared)
            func(*params, block=tuple(job["block"]), grid=tuple(job["grid"]), shared=shared)
            return
        from cuda.bindings import driver as cu  # the driver API, in the context PyCUDA made current

        function = self._cooperative_function(cu, cubin, job["entry"])
        if shared > DEFAULT_DYNAMIC_SHARED_BYTES:
            _check(cu, cu.cuFuncSetAttribute(
                function, cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared)[0],
                "cuFuncSetAttribute")
        # kernelParams: an array of N pointers, each to the bytes of one argument.
        values = [np.array([int(p)], dtype=np.uint64) if isinstance(p, self.drv.DeviceAllocation)
                  else np.array([p], dtype=np.asarray(p).dtype) for p in params]
        pointers = np.array([v.ctypes.data for v in values], dtype=np.uint64)
        _check(cu, cu.cuLaunchCooperativeKernel(function, *job["grid"], *job["block"], shared, cu.CUstream(0),
                                                pointers.ctypes.data if values else 0)[0],
               "cuLaunchCooperativeKernel")

    def _cooperative_function(self, cu, cubin: np.ndarray, entry: str):
        """The kernel as a driver-API CUfunction (PyCUDA's Function exposes no handle): the cubin loaded
        once more with cuModuleLoadData, kept while it is among the last MAX_MODULES used."""
        key = (hashlib.sha256(cubin.tobytes()).hexdigest(), entry)
        found = self._cooperative.get(key)
        if found is None:
            if len(self._cooperative) >= MAX_MODULES:
                module, _ = self._cooperative.pop(next(iter(self._cooperative)))
                cu.cuModuleUnload(module)
            image = np.ascontiguousarray(cubin, dtype=np.uint8)
            err, module = cu.cuModuleLoadData(image.ctypes.data)
            _check(cu, err, "cuModuleLoadData")
            err, function = cu.cuModuleGetFunction(module, entry.encode())
            _check(cu, err, "cuModuleGetFunction")
            self.grid_report.arm_cooperative(cu, module, _check)  # its grid.sync() checks let the call through
            found = self._cooperative[key] = (module, function)
        return found[1]

    def _free(self, allocations) -> None:
        """Zero, then free, every buffer: the warm child serves the next submission, whose
        out-of-bounds reads must not find this one's (possibly hidden) test data."""
        for _, host, dev in allocations:
            try:
                self.drv.memset_d8(dev, 0, host.nbytes)
                dev.free()
            except Exception:
                pass

    def _failure(self, exc, phase: str, allocations, elapsed: float = 0.0):
        message = str(exc)
        err = classify(message)
        if is_platform_fault(message) or (err is None and phase == "setup"):
            return _result("internal", message=f"CUDA failed during {phase}: {message}"), {}, False
        sticky = err.sticky if err else True  # an error we do not know: do not trust the context
        if sticky and self.keeps_context_on_error and phase == "run" and context_works(self.drv, self.context):
            sticky = False  # memcheck ended only the kernel: the context still runs work
        if not sticky:
            self._free(allocations)
        status = "launch_error" if phase == "launch" else "fault"
        return (_result(status, error=err.name if err else "", message=message, time_s=elapsed, sticky=sticky),
                {}, not sticky)


class CompilerRunner:
    """Compiles translation units with NVRTC (nvrtc.py); touches no GPU, so it runs anywhere."""

    op = "compile"

    def __init__(self):
        from . import nvrtc

        self.nvrtc = nvrtc
        self.version = nvrtc.warm_up()  # loads the library now, not during the first submission

    def close(self) -> None:
        pass

    def hello(self) -> dict:
        return {"op": "ready", "ok": True, "device": "nvrtc", "nvrtc": self.version, "pid": os.getpid()}

    def run(self, job: dict, arrays: dict[str, np.ndarray]):
        reply = self.nvrtc.compile_in_process(job["tu"], job["arch"])
        outputs = {"cubin": np.frombuffer(reply.cubin, dtype=np.uint8)} if reply.cubin else {}
        return (_result("ok" if reply.ok else "error", compile_log=reply.log, result=reply.result,
                        nvrtc=reply.version, time_s=reply.time_s), outputs, True)


def _serve(args, runner, capture: PrintfCapture, read_fd: int, write_fd: int) -> str:
    """Answer the jobs read from `read_fd` on `write_fd`. Returns "eof" at the end of the job stream,
    "finish" when asked to finish (a "finish" op, or an op this runner does not serve), "end" after a
    job that left this child unusable (a sticky error, a broken fence)."""
    while True:
        try:
            job, arrays = protocol.read_frame(read_fd)
        except (EOFError, ConnectionError):
            return "eof"
        if job.get("op") != getattr(runner, "op", "run"):
            return "finish"
        try:
            reply, outputs, healthy = runner.run(job, arrays)
        except Exception as exc:  # a bug of ours or a malformed job: never the student's fault
            reply, outputs, healthy = _result("internal", message=f"child: {type(exc).__name__}: {exc}"), {}, False
        if args.sanitizer and healthy:
            # Before answering: once the judge has the answer, the fence is already in the log.
            try:
                runner.fence(args.sanitizer, str(job.get("fence", "")))
                reply["fenced"] = True
            except Exception as exc:  # the log cannot be cut: this child ends after answering
                reply["fence_error"] = f"{type(exc).__name__}: {exc}"
                healthy = False
        reply["log"], reply["log_dropped"] = capture.take()
        reply["job"] = job.get("job")
        try:
            protocol.write_frame(write_fd, reply, outputs)
        except (BrokenPipeError, ConnectionError):  # a listening child's client gave up on the job
            pass
        if not healthy:
            return "end"


def _listen(args, runner, capture: PrintfCapture, server) -> str:
    """A shared child (--listen): one connection at a time, each greeted with the hello, then served
    as the job stream of a warm child (pool.SocketChild). Returns as _serve does, never "eof"."""
    while True:
        conn, _ = server.accept()
        with conn:
            try:
                protocol.write_frame(conn.fileno(), runner.hello())
            except (BrokenPipeError, ConnectionError):
                continue
            how = _serve(args, runner, capture, conn.fileno(), conn.fileno())
        if how != "eof":
            return how


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.core.gpu.child")
    channel = parser.add_mutually_exclusive_group(required=True)
    channel.add_argument("--result-path", help="FIFO the judge reads results from (jobs come on stdin)")
    channel.add_argument("--listen", help="a unix socket to create: jobs and results on its connections")
    parser.add_argument("--sanitizer", choices=("memcheck", "racecheck", "synccheck"),
                        help="runs under this compute-sanitizer tool: fence its log after each job")
    parser.add_argument("--sync", choices=SYNC_MODES, default="blocking", help="how to wait for a kernel (child_settings.py)")
    parser.add_argument("--memcheck-on-error", choices=MEMCHECK_ON_ERROR_MODES, default="context",
                        help="what memcheck was told to end on a precise error (child_settings.py)")
    parser.add_argument("--fake", action="store_true", help="run no GPU code (tests)")
    parser.add_argument("--fake-log", help="with --fake --sanitizer: write the tool's records here")
    parser.add_argument("--compiler", action="store_true", help="compile with NVRTC instead of running kernels")
    args = parser.parse_args(argv)
    _die_with_parent()
    server = None
    if args.listen:  # bound before the context exists: a client's connection waits for the hello
        import socket

        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(args.listen)
        server.listen(16)
    else:
        result_fd = os.open(args.result_path, os.O_WRONLY)
    capture = PrintfCapture()
    try:
        runner = (CompilerRunner() if args.compiler else FakeRunner(args.fake_log if args.sanitizer else None)
                  if args.fake else CudaRunner(args.sync, args.sanitizer == "memcheck" and args.memcheck_on_error == "kernel"))
    except Exception as exc:  # no GPU, no PyCUDA, driver error: the platform's fault
        message = f"{type(exc).__name__}: {exc}"
        if server is None:
            protocol.write_frame(result_fd, {"op": "ready", "ok": False, "message": message})
        print(message, file=sys.stderr)
        return 3
    if server is None:
        protocol.write_frame(result_fd, runner.hello())
        how = _serve(args, runner, capture, 0, result_fd)
    else:
        how = _listen(args, runner, capture, server)
    if args.sanitizer and how != "end":  # asked to finish: end the context cleanly, the tool then ends its log
        try:
            runner.close()
        except Exception:
            pass
    sys.stderr.flush()
    # Skip interpreter teardown: PyCUDA's context cleanup can fail noisily on a context that a
    # sticky error broke, and the driver frees everything of a process that exits.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
