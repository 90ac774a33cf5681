"""Compile a student's kernel to a cubin with nvcc, inside the sandbox, with a time limit and a cache.

The translation unit is the student's file behind ``#line 1 "kernel.cu"`` (so every error,
ptxas report and -lineinfo location names the student's own lines), followed by a check, in a
file of its own name, that a kernel of the expected name and parameter types exists at file
scope. The kernel stays a plain C++ function; its symbol is found in ptxas's report by name
(ptxas.find_entry), whatever the mangling.

Used by the GPU backend (cubins for the worker's GPU) and by resources.py (ptxas -v on any
machine with nvcc, GPU or not). Imports nothing of CUDA's Python packages.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..kernel import KernelSpec
from .. import gridsync, messages as M
from ..compile_limits import compile_limits, compile_stopped
from ..errors import PlatformError
from ..linkerrors import undefined_references
from ..macros import shielded
from ..results import CompileMessage, CompileResult
from .cache import CompileCache, cache_key
from .ptxas import FunctionReport, find_entry, parse_ptxas

STUDENT_FILE = "kernel.cu"  # the name the student's source carries in messages and line info
CHECK_FILE = "warpdrill_check.cu"  # the name of the signature check appended to it
PRELUDE_FILE = "warpdrill_prelude.cu"  # the name of the grid.sync() check put before it (gridsync.py)
LOG_CAP = 16 * 1024
# Template and unroll bombs end here (the GPU backend's nvcc_time_limit_s option): CPU seconds of nvcc's
# box, every process of it together, the wall clock at three times that plus 2 s (compile_limits.py).
# An ordinary kernel takes 1-2 s.
TIME_LIMIT_S = 10.0
MEMORY_BYTES = 4 << 30


class NvccUnavailableError(PlatformError):
    """nvcc is not installed (or not on PATH) on this machine."""


@dataclass
class CubinResult:
    """A compilation: the compile stage's result, and on success the cubin and its kernel's report."""

    compile: CompileResult
    arch: str  # e.g. "sm_90"
    cubin: bytes | None = None
    entry: str | None = None  # the kernel's symbol in the cubin (mangled unless extern "C")
    functions: dict[str, FunctionReport] = field(default_factory=dict)  # ptxas -v, every function
    compiler: str = "nvcc"  # "nvcc" or "nvrtc" (gpu/nvrtc.py)
    compiler_s: float | None = None  # the compiler's own seconds (NVRTC's, as its child timed it); None: not known

    @property
    def kernel(self) -> FunctionReport | None:
        return self.functions.get(self.entry) if self.entry else None


def arch_of(cc: str) -> str:
    """"9.0" -> "sm_90", "12.0" -> "sm_120"; "sm_90" and "90" are accepted as they are."""
    text = str(cc).strip().lower().removeprefix("sm_")
    if "." in text:
        major, minor = text.split(".", 1)
        text = f"{int(major)}{int(minor)}"
    if not text.isdigit():
        raise ValueError(f"not a compute capability: {cc!r}")
    return f"sm_{text}"


def cc_of(arch: str) -> str:
    """"sm_90" -> "9.0"."""
    digits = arch.lower().removeprefix("sm_").rstrip("a")
    return f"{digits[:-1]}.{digits[-1]}"


def flags(arch: str) -> list[str]:
    return [f"-arch={arch}", "-cubin", "-lineinfo", "-Xptxas", "-v"]


@functools.cache
def nvcc_path() -> str:
    path = shutil.which("nvcc") or next((p for p in ("/usr/local/cuda/bin/nvcc",) if os.path.exists(p)), None)
    if not path:
        raise NvccUnavailableError("nvcc was not found on PATH or in /usr/local/cuda/bin")
    return os.path.realpath(path)


@functools.cache
def nvcc_version() -> str:
    out = subprocess.run([nvcc_path(), "--version"], capture_output=True, text=True, timeout=60).stdout
    return out.strip().splitlines()[-1] if out.strip() else "unknown"


def signature_check(spec: KernelSpec) -> str:
    """C++ that fails to compile, with a readable message, unless `spec.name` has spec's parameters.

    Parameters match up to const/volatile on the pointee and top-level qualifiers (so `const float*
    __restrict__ a` is a valid IN parameter, and `float* a` too). The kernel's type is taken apart by
    class templates only (no function is declared: NVRTC takes no host functions). Shielded from the
    student's macros (macros.shielded): `#define T 16` in the kernel file cannot change it.
    """
    strip_types = ", ".join(
        (a.c_type.replace("const ", "") if a.is_buffer else a.c_type) for a in spec.args)
    wanted = f"__global__ void {spec.name}({spec.signature()})"
    check = (
        "namespace warpdrill_check {\n"
        "template <class T> struct strip { typedef T type; };\n"
        "template <class T> struct strip<const T> { typedef typename strip<T>::type type; };\n"
        "template <class T> struct strip<volatile T> { typedef typename strip<T>::type type; };\n"
        "template <class T> struct strip<const volatile T> { typedef typename strip<T>::type type; };\n"
        "template <class T> struct strip<T*> { typedef typename strip<T>::type* type; };\n"
        "template <class A, class B> struct same { static const bool value = false; };\n"
        "template <class A> struct same<A, A> { static const bool value = true; };\n"
        "template <class... P> struct params {};\n"
        "template <class F> struct of;\n"
        "template <class... P> struct of<void (*)(P...)> { typedef params<typename strip<P>::type...> type; };\n"
        "}\n"
        f"static_assert(warpdrill_check::same<warpdrill_check::of<decltype(&{spec.name})>::type, "
        f"warpdrill_check::params<{strip_types}> >::value,\n"
        f'  "the kernel must be declared at file scope as {wanted}");\n'
    )
    return shielded(check, keep=(spec.name,))


def translation_unit(source: str, spec: KernelSpec) -> str:
    """What nvcc compiles: the student's lines as kernel.cu, then the signature check. A file that
    calls grid.sync() gets its runtime check first (gridsync.GPU_PRELUDE) and at every call."""
    if not source.endswith("\n"):
        source += "\n"
    checked = gridsync.instrument(source)
    prelude = f'#line 1 "{PRELUDE_FILE}"\n{gridsync.GPU_PRELUDE}' if checked is not None else ""
    return f'{prelude}#line 1 "{STUDENT_FILE}"\n{checked or source}#line 1 "{CHECK_FILE}"\n{signature_check(spec)}'


_MESSAGE = re.compile(
    r"^(?P<file>[^\s()][^()]*?)\((?P<line>\d+)\): (?P<sev>catastrophic error|error|warning|remark)(?: #[\w-]+)?: (?P<msg>.*)$")
# The host preprocessor (gcc) reports missing headers in its own format: "kernel.cu:1:10: fatal error: ...".
_GCC_MESSAGE = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)? (?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")
_CONSTANT_STORE = re.compile(r"(?P<file>[^\s()]+)\((?P<line>\d+)\): Warning: Cannot store to pointer that points to "
                             r"constant memory space")
_PTXAS = re.compile(r"^ptxas (?P<sev>error|fatal|warning)\s*: (?P<msg>.*)$")


def parse_messages(log: str, spec: KernelSpec) -> list[CompileMessage]:
    """nvcc's errors and warnings, with the line in kernel.cu when they are in the student's file."""
    messages = []
    for raw in log.splitlines():
        if m := (_MESSAGE.match(raw.strip()) or _GCC_MESSAGE.match(raw.strip())):
            severity = ("error" if "error" in m.group("sev")
                        else "note" if m.group("sev") in ("remark", "note") else "warning")
            text = m.group("msg").strip()
            in_student = os.path.basename(m.group("file")) == STUDENT_FILE
            if os.path.basename(m.group("file")) == CHECK_FILE and severity == "error":
                wanted = f"__global__ void {spec.name}({spec.signature()})"
                text = M.COMPILE_MESSAGE["signature"](signature=wanted) if "static assertion" in text \
                    else M.COMPILE_MESSAGE["signature_compiler"](signature=wanted, compiler=text)
            messages.append(CompileMessage(int(m.group("line")) if in_student else None, None, severity, text))
        elif m := _PTXAS.match(raw.strip()):
            severity = "warning" if m.group("sev") == "warning" else "error"
            messages.append(CompileMessage(None, None, severity, f"ptxas: {m.group('msg').strip()}"))
    return messages


def cap(text: str, limit: int = LOG_CAP) -> str:
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore") + f"\n[log truncated: {len(data) - limit} more bytes dropped]\n"


def _start_nvcc(workdir: Path, arch: str, time_limit_s: float, box=None):
    """Start nvcc on workdir/tu.cu inside the sandbox `box` (a sandbox.Sandbox; None: sandbox.box.DEFAULT);
    returns the running box (sandbox.box.Running)."""
    from .. import sandbox

    nvcc = nvcc_path()
    cuda_root = str(Path(nvcc).parent.parent)
    binds = {} if cuda_root.startswith("/usr/") else {cuda_root: cuda_root}
    argv = [nvcc, *flags(arch), "-o", f"{sandbox.WORK_PATH}/kernel.cubin", f"{sandbox.WORK_PATH}/tu.cu"]
    return sandbox.Sandbox.of(box).start(argv, workdir, compile_limits(time_limit_s, MEMORY_BYTES),
                                         ro_binds=binds, env={"TMPDIR": "/tmp"})


def compile_cubin(source: str, spec: KernelSpec, arch: str, *, cache: CompileCache | None = None,
                  time_limit_s: float = TIME_LIMIT_S, sandbox=None) -> CubinResult:
    """Compile `source` for `arch` ("sm_90") with nvcc in `sandbox` (a sandbox.Sandbox; None: the
    default). A compile error or timeout is a result.

    Raises NvccUnavailableError when nvcc is missing and SandboxUnavailableError when the
    sandbox cannot run (both PlatformError).
    """
    return start_cubin(source, spec, arch, cache=cache, time_limit_s=time_limit_s, sandbox=sandbox).result()


def start_cubin(source: str, spec: KernelSpec, arch: str, *, cache: CompileCache | None = None,
                time_limit_s: float = TIME_LIMIT_S, sandbox=None) -> PendingCubin:
    """compile_cubin's compile (same arguments and errors), started: nvcc runs in its box (or the cache
    answers) while the caller works; `PendingCubin.result()` is compile_cubin's result. Every process
    is started here, on the calling thread (the fork hazard of issue 11: result() forks nothing)."""
    started = time.monotonic()
    tu = translation_unit(source, spec)
    key = cache_key(tu, " ".join(flags(arch)), nvcc_version(), spec.name)
    if cache is not None and (hit := cache.get(key)):
        meta, cubin = hit
        result = _from_meta(meta, cubin, arch)
        result.compile.cached = True
        result.compile.time_s = round(time.monotonic() - started, 4)
        return PendingCubin(done=result)
    workdir = Path(tempfile.mkdtemp(prefix="warpdrill-nvcc-"))
    try:
        (workdir / "tu.cu").write_text(tu)
        running = _start_nvcc(workdir, arch, time_limit_s, sandbox)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    return PendingCubin(running=running, workdir=workdir, started=started, key=key, cache=cache, spec=spec,
                        source=source, arch=arch, time_limit_s=time_limit_s)


@dataclass
class PendingCubin:
    """An nvcc compile started by start_cubin: `result()` waits for it (once), `cancel()` kills it."""

    done: CubinResult | None = None  # the result, when known (a cache hit, or result() ran)
    running: object = None  # the box (sandbox.box.Running) while nvcc runs
    workdir: Path | None = None
    started: float = 0.0
    key: str = ""
    cache: CompileCache | None = None
    spec: KernelSpec | None = None
    source: str = ""
    arch: str = ""
    time_limit_s: float = TIME_LIMIT_S

    def result(self) -> CubinResult:
        """The CubinResult (compile_cubin's); raises SandboxUnavailableError as compile_cubin does."""
        if self.done is not None:
            return self.done
        running, self.running = self.running, None
        try:
            run = running.finish()
            log = (run.stderr + run.stdout).strip()
            cubin_path = self.workdir / "kernel.cubin"
            cubin = cubin_path.read_bytes() if run.returncode == 0 and cubin_path.exists() else None
        finally:
            shutil.rmtree(self.workdir, ignore_errors=True)
        elapsed = round(time.monotonic() - self.started, 4)
        msg = compile_stopped(run, self.time_limit_s, MEMORY_BYTES)  # a limit stopped it: CPU, wall or memory
        if msg is not None:
            self.done = CubinResult(CompileResult(ok=False, messages=[CompileMessage(None, None, "error", msg)],
                                                  log=cap(log + "\n" + msg), time_s=elapsed), self.arch)
            return self.done
        meta = _meta(log, cubin is not None, self.spec, self.source)
        if self.cache is not None:
            self.cache.put(self.key, meta, cubin)
        self.done = _from_meta(meta, cubin, self.arch)
        self.done.compile.time_s = elapsed
        return self.done

    def cancel(self) -> None:
        """Kill nvcc if it still runs (its result is not wanted); nothing after result()."""
        running, self.running = self.running, None
        if running is not None:
            try:
                running.abandon()
            finally:
                shutil.rmtree(self.workdir, ignore_errors=True)


def _meta(log: str, built: bool, spec: KernelSpec, source: str = "") -> dict:
    """The cacheable description of a compilation (everything but the cubin). With the student's
    `source`, ptxas's "Unresolved extern function" names the function and the line calling it."""
    messages = parse_messages(log, spec)
    unresolved = undefined_references(log, source, (), unplaced=(spec.name,)) if source else []
    if unresolved:
        messages = [m for m in messages if "Unresolved extern function" not in m.message]
        messages += [CompileMessage(line, None, "error", message) for line, message in unresolved]
    # nvcc refuses a write to a scalar __constant__ but only warns for an element or member (the
    # store then faults on the GPU: CUDA_ERROR_LAUNCH_FAILED on the H200): refuse it too, as the
    # emulator does (emulator/declarations.py).
    for m in _CONSTANT_STORE.finditer(log):
        line = int(m.group("line")) if os.path.basename(m.group("file")) == STUDENT_FILE else None
        messages.append(CompileMessage(line, None, "error", M.COMPILE_MESSAGE["constant_store"]()))
        built = False
    functions = parse_ptxas(log)
    entry = None
    if built:
        entries = find_entry(functions, spec.name)
        if len(entries) == 1:
            entry = entries[0].symbol
        else:
            why = M.COMPILE_MESSAGE["kernel_twice" if entries else "not_a_kernel"](name=spec.name)
            messages.append(CompileMessage(None, None, "error", why))
            built = False
    if not built and not any(m.severity == "error" for m in messages):
        messages.append(CompileMessage(None, None, "error", M.COMPILE_MESSAGE["nvcc_silent"]()))
    return {
        "ok": built,
        "messages": [m.to_dict() for m in messages],
        "log": cap(log),
        "entry": entry,
        "functions": {k: vars(v) for k, v in functions.items()},
    }


def _from_meta(meta: dict, cubin: bytes | None, arch: str) -> CubinResult:
    compile_result = CompileResult(ok=bool(meta["ok"]),
                                   messages=[CompileMessage.from_dict(m) for m in meta["messages"]],
                                   log=meta["log"])
    functions = {k: FunctionReport(**v) for k, v in meta.get("functions", {}).items()}
    return CubinResult(compile=compile_result, arch=arch, cubin=cubin if meta["ok"] else None,
                       entry=meta.get("entry"), functions=functions)
