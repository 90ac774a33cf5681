"""The files between the backend and the emulator binary: harness, job file, result file.

Python writes the inputs as raw .bin files and a small text job file into the run's work
directory; the binary writes `result.json` (status and diagnostics), `<file>.out` for every
OUT/INOUT buffer and `printf.log`, and nothing more than `disk_allowance` in all. The kernel's printf goes to a capped buffer, never to stdout,
so it cannot forge a result.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import messages as M
from ..kernel import ArgInit, ArgRole, KernelSpec, LaunchConfig
from ..macros import shielded
from ..results import Diagnostic
from ..verdicts import DiagnosticKind
from . import writemap as wm

# Bytes OUT buffers are filled with before the launch: all-ones is a NaN for floats and -1 for
# signed integers; 0xCD is the classic "uninitialised" pattern for the rest.
FLOAT_POISON = 0xFF
INT_POISON = 0xCD


def harness_source(spec: KernelSpec, coro: bool = False) -> str:
    """C++ appended after the student's code: stores the launch's arguments, calls the kernel.

    Shielded from the student's macros (macros.shielded): every identifier it uses but the
    kernel's name is #undef'd around it, so `#define T 16` or `#define float double` in the
    kernel file cannot change it. `coro`: the student's code has the kernel's coroutine copy (coro.py),
    which `wd_user_coro` starts for coro mode."""
    lines = ["namespace wd { namespace detail { struct AnyPtr { void* p; template <class T> operator T*() const { return static_cast<T*>(p); } }; } }"]
    params, call = [], []
    for i, arg in enumerate(spec.args):
        if arg.is_buffer:
            lines.append(f"static void* wd_a{i};")
            params.append(f"wd_a{i} = a[{i}];")
            call.append(f"::wd::detail::AnyPtr{{wd_a{i}}}")
        else:
            ctype = arg.c_type
            lines.append(f"static {ctype} wd_a{i};")
            params.append(f"__builtin_memcpy(&wd_a{i}, a[{i}], sizeof(wd_a{i}));")
            call.append(f"wd_a{i}")
    lines.append('extern "C" void wd_user_setup(void* const* a) { ' + " ".join(params) + " }")
    lines.append('extern "C" void wd_user_thread() { ' + f"{spec.name}({', '.join(call)});" + " }")
    if coro:
        lines.append('extern "C" void* wd_user_coro() { return ' + f"{coro_name(spec.name)}({', '.join(call)}).frame;" + " }")
    else:
        lines.append('extern "C" void* wd_user_coro() { return nullptr; }')
    return shielded("\n".join(lines) + "\n", keep=(spec.name, coro_name(spec.name)))


def coro_name(kernel_name: str) -> str:
    """The name of the kernel's coroutine copy (coro.py)."""
    return f"wd_coro_{kernel_name}"


def write_job(
    workdir: Path,
    spec: KernelSpec,
    launch: LaunchConfig,
    inputs: dict,
    *,
    fibers: bool,
    workers: int,
    start_aligned: bool,
    time_limit_s: float,
    vector_aligned: bool = False,
    writemap: bool = False,
    coro: bool = False,
) -> dict[str, tuple[str, tuple, np.dtype]]:
    """Write inputs and job.txt into `workdir`. Returns {arg name: (file, shape, dtype)} of outputs.

    `start_aligned`: buffers start at a page (underflows fault); else they end at one (overflows
    fault), each starting on its element size, or on 16 bytes when `vector_aligned` (the kernel uses
    16-byte vector types, as cudaMalloc's 256-byte alignment allows): the at most 15 bytes between
    such a buffer's end and the page are filled with 0xFF (NaN for floats) and a write there is
    reported as an out-of-bounds write when the run ends.

    `coro` (without `fibers`): the block's threads are the kernel's coroutine copy (coro.py).

    `writemap`: also create each output's write-map side file (`<file>.wm`, writemap.side_file_bytes)
    and name it in the job, for the writemap variant to record into (outputs past the cap are skipped)."""
    job = [
        f"mode {'fibers' if fibers else 'coro' if coro else 'fast'}",
        f"workers {workers}",
        f"align {'start' if start_aligned else 'end16' if vector_aligned else 'end'}",
        "grid {} {} {}".format(*launch.grid),
        "block {} {} {}".format(*launch.block),
        f"shared {launch.shared_bytes}",
        f"time_limit {time_limit_s}",
        f"cooperative {int(launch.cooperative)}",
        f"coresident {int(launch.coresident)}",
    ]
    outputs = {}
    for i, arg in enumerate(spec.args):
        dtype = np.dtype(arg.dtype)
        value = inputs[arg.name]
        if arg.is_buffer:
            array = np.asarray(value)
            file = f"a{i}.bin"
            if arg.role is ArgRole.OUT:
                poison = 0 if arg.init is ArgInit.ZEROS else FLOAT_POISON if dtype.kind == "f" else INT_POISON
                np.full(array.size * dtype.itemsize, poison, dtype=np.uint8).tofile(workdir / file)
            else:
                np.ascontiguousarray(array, dtype=dtype).tofile(workdir / file)
            if arg.role in (ArgRole.OUT, ArgRole.INOUT):
                outputs[arg.name] = (file, array.shape, dtype)
            job.append(f"buffer {arg.name} {arg.role} {dtype.itemsize} {array.size} {file}")
            if writemap and arg.name in outputs and wm.recordable(array.size, launch):
                with open(workdir / f"{file}.wm", "wb") as side:
                    side.truncate(wm.side_file_bytes(array.size))  # sparse zeros: nothing written yet
                job.append(f"writemap {arg.name} {file}.wm")
        else:
            job.append(f"scalar {arg.name} {np.array(value).astype(dtype).tobytes().hex()}")
    (workdir / "job.txt").write_text("\n".join(job) + "\n")
    return outputs


# What a run may write to its work directory beyond its `<file>.out` files: printf.log (capped
# at 64 KiB by the runtime), result.json and ThreadSanitizer's reports (tsan.<pid>).
RUN_DISK_SLACK_BYTES = 64 << 20


def disk_allowance(outputs: dict[str, tuple[str, tuple, np.dtype]]) -> int:
    """Bytes a run may add to its work directory: one `.out` copy of every OUT/INOUT buffer
    (`outputs` as write_job returns it), its write-map side file (filled in by a writemap run),
    plus RUN_DISK_SLACK_BYTES. The sandbox stops a run past it."""
    total = RUN_DISK_SLACK_BYTES
    for _file, shape, dtype in outputs.values():
        count = int(np.prod(shape, dtype=np.int64))
        total += count * np.dtype(dtype).itemsize + wm.side_file_bytes(count)
    return total


class OutputFileError(ValueError):
    """An output buffer's `.out` file is missing, not a plain file, or not its buffer's size.

    The runtime writes every one before it reports `ok`; code in the run's process (a student's
    execve, a forged result file) can end the run first, so this is the student's runtime error.
    str() is the buffer's name.
    """


def read_outputs(workdir: Path, outputs: dict) -> dict[str, np.ndarray]:
    """OUT/INOUT buffers as the kernel left them. Raises OutputFileError for a missing or
    wrong-sized file (never FileNotFoundError or numpy's reshape error, which read as platform faults)."""
    result = {}
    for name, (file, shape, dtype) in outputs.items():
        path = workdir / f"{file}.out"
        expected = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
        if path.is_symlink() or not path.is_file() or path.stat().st_size != expected:
            raise OutputFileError(name)
        result[name] = np.fromfile(path, dtype=dtype).reshape(shape)
    return result


def _codes(value) -> set[str]:
    """Every code of a message and of the messages nested in its parameters (lists included)."""
    if isinstance(value, list):
        return set().union(*(_codes(v) for v in value))
    if isinstance(value, M.Message):
        return {value.code}.union(*(_codes(v) for v in value.params.values()))
    return set()


def runtime_said(d: dict) -> M.Message:
    """The message of one diagnostic of the result file: its "code" and "params" (the runtime's
    JsonObject) when they name a message of the runtime's, else its English "message" as the runtime
    wrote it, shown as it is. The file is written in a process
    the student's code shares: a code outside the runtime's, or parameters that do not fit it, count
    as not given."""
    code, params = d.get("code"), d.get("params")
    if isinstance(code, str) and isinstance(params, dict) and code in M.RUNTIME_CODES:
        try:
            said = M.Message.from_dict({"code": code, "params": params})
            if _codes(said) <= M.RUNTIME_CODES:
                return said
        except (KeyError, ValueError, TypeError):
            pass
    return M.Message.verbatim(str(d.get("message", "")))


def diagnostics_from(result: dict, test: str) -> list[Diagnostic]:
    """Diagnostic objects from the result file's list (unknown kinds become notes)."""
    diags = []
    for d in result.get("diagnostics", []):
        try:
            kind = DiagnosticKind(d.get("kind"))
        except ValueError:
            kind = DiagnosticKind.NOTE
        diags.append(Diagnostic(
            kind=kind,
            message=runtime_said(d),
            line=d.get("line"),
            block=tuple(d["block"]) if d.get("block") else None,
            thread=tuple(d["thread"]) if d.get("thread") else None,
            test=test or None,
            detail=d.get("detail") or {},
        ))
    return diags
