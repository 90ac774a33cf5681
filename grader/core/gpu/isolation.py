"""How a GPU or compiler child process is started: in the judge's sandbox (grader.core.sandbox's
bubblewrap box, `gpu=True` for the GPU's device nodes and /sys entries), or (development machines
without bubblewrap) directly, when WARPDRILL_ALLOW_UNSAFE_SANDBOX=1.

grader.core.sandbox runs a command to completion; these children live on between jobs, so their
command line comes from Sandbox.build_command and they are started by pool.Child, with the same
layers as every other box: namespaces, no network, the sandbox user (as root), read-only /usr,
no /etc, no project, rlimits set by prlimit and the seccomp filter. What a CUDA process needs
besides: the /dev/nvidia* nodes and /sys (gpu=True), the dynamic loader's cache
(/etc/ld.so.cache: the CUDA libraries under /usr/local/cuda are found through it) and
/etc/alternatives (where /usr/local/cuda often points), the Python
environment read-only, and this package's folder alone, read-only, as the code to run. A child
sees one work folder of its own, read-write, at /box (its result FIFO and the sanitizer's log).
A GPU child has no address-space limit (a CUDA context maps tens of GiB of virtual memory); a
compiler child has one.
"""
from __future__ import annotations

import glob
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from .. import sandbox
from ..sandbox import seccomp

PACKAGE_DIR = Path(__file__).resolve().parent  # grader/core/gpu
PROJECT_ROOT = PACKAGE_DIR.parent.parent.parent
CODE_PATH = "/opt/warpdrill"  # where the child's code appears inside the sandbox
CHILD_MODULE = "grader.core.gpu.child"
GPU_NODES = ("/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset")
PASSED_ENV = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "NVIDIA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "CUDA_HOME")
LOADER_CACHE = "/etc/ld.so.cache"
# /usr/local/cuda is often a link through the alternatives system (/etc/alternatives/cuda).
ETC_READ = (LOADER_CACHE, "/etc/alternatives")
# Limits of a child's box. Its processes and threads: CUDA starts a few threads, compute-sanitizer
# a few dozen. Open files: a context opens the device nodes many times over.
CHILD_PROCESSES = 256
CHILD_OPEN_FILES = 1024
CHILD_FILE_BYTES = 256 << 20  # the sanitizer's log is the largest file a child writes
CHILD_TMP_BYTES = 256 << 20  # /tmp and /dev/shm (compute-sanitizer talks to its target through /dev/shm)
COMPILER_MEMORY_BYTES = 4 << 30  # address space of a compiler child (template bombs end here)


@dataclass
class Launch:
    """A child's command line, environment and working folder, and where it finds its work folder."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    box: str  # the work folder's path as the child sees it
    user: int | None = None  # host uid and gid to start it as (a root worker's sandbox user)
    group: int | None = None
    pass_fds: tuple[int, ...] = ()  # the seccomp filter; the starter closes them once started


def sandboxed(box: sandbox.Sandbox | None = None) -> bool:
    """True when children run in bubblewrap (`box`; None: sandbox.box.DEFAULT); raises SandboxUnavailableError
    when neither bubblewrap nor unsafe mode is there."""
    return sandbox.Sandbox.of(box).sandboxed()


def compute_sanitizer() -> str | None:
    """The compute-sanitizer executable, or None."""
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    for candidate in ("/usr/local/cuda/bin/compute-sanitizer", "/usr/local/cuda/compute-sanitizer/compute-sanitizer"):
        if os.path.exists(candidate):
            return candidate
    return None


def gpu_nodes() -> list[str]:
    return [p for p in (*GPU_NODES, *sorted(glob.glob("/dev/nvidia[0-9]*"))) if os.path.exists(p)]


def _python_dirs() -> list[str]:
    """Folders outside /usr that the Python running the judge needs (a venv, PYTHONPATH entries)."""
    prefix = os.path.realpath(sys.prefix)
    dirs = {prefix, os.path.realpath(sys.base_prefix)}
    dirs.update(os.path.realpath(p) for p in sys.path if p and os.path.isdir(p))
    project = str(PROJECT_ROOT)

    def wanted(d: str) -> bool:
        if d == "/usr" or d.startswith("/usr/") or d == "/" or project.startswith(d + "/") or d == project:
            return False
        # Of the project, only a virtual environment inside it (never its code or settings).
        return not d.startswith(project + "/") or d == prefix or d.startswith(prefix + "/")

    keep = [d for d in dirs if wanted(d)]
    # Drop folders inside others already kept.
    return sorted(d for d in keep if not any(d != o and d.startswith(o + "/") for o in keep))


def _library_dirs() -> list[str]:
    """LD_LIBRARY_PATH's folders outside /usr (CUDA libraries installed elsewhere, e.g. under /opt)."""
    dirs = []
    for entry in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep):
        real = os.path.realpath(entry) if entry else ""
        if real and os.path.isdir(real) and not (real == "/usr" or real.startswith("/usr/")) and real != "/":
            if not (real == str(PROJECT_ROOT) or real.startswith(str(PROJECT_ROOT) + "/")):
                dirs.append(real)
    return sorted(set(dirs))


def interpreter() -> str:
    """The Python that runs the judge, by a path the box holds: its folder resolved (a virtual
    environment reached through a symlinked folder is bound at its real place, _python_dirs), its
    own name not (the virtual environment is found from that path, not from the /usr interpreter
    it links to)."""
    return os.path.join(os.path.realpath(os.path.dirname(sys.executable)), os.path.basename(sys.executable))


def child_launch(workdir: Path, child_args: list[str], prefix: list[str] | None = None, *,
                 gpu: bool = True, box: sandbox.Sandbox | None = None) -> Launch:
    """How to start `python -m grader.core.gpu.child CHILD_ARGS`, behind `prefix` (compute-sanitizer).

    `child_args` and `prefix` name the work folder as "{box}"; it is replaced by the path the
    child sees. `gpu=False` (the compiler child) gives the box no GPU device nodes and an
    address-space limit. `box` is the worker's sandbox (None: sandbox.box.DEFAULT). Raises
    SandboxUnavailableError (see sandboxed()).
    """
    box_config = sandbox.Sandbox.of(box)
    python = interpreter()
    env = {"PATH": "/usr/local/cuda/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1",
           # NVRTC keeps a cache of ptxas results; a cached compile prints no ptxas report.
           "CUDA_CACHE_DISABLE": "1"}
    env.update({k: os.environ[k] for k in PASSED_ENV if k in os.environ})
    extra_path = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if not box_config.sandboxed():
        box = str(workdir)
        env["PYTHONPATH"] = os.pathsep.join([str(PROJECT_ROOT), *extra_path])
        argv = [*(prefix or []), python, "-m", CHILD_MODULE, *child_args]
        return Launch([a.replace("{box}", box) for a in argv], env, box, box)
    box = sandbox.WORK_PATH
    code = f"{CODE_PATH}/grader"
    binds = {folder: folder for folder in (*_python_dirs(), *_library_dirs())}
    binds.update({path: path for path in ETC_READ if os.path.exists(path)})
    binds.update({
        str(PROJECT_ROOT / "grader" / "__init__.py"): f"{code}/__init__.py",
        str(PROJECT_ROOT / "grader" / "core" / "__init__.py"): f"{code}/core/__init__.py",
        str(PACKAGE_DIR): f"{code}/core/gpu",
    })
    env["PYTHONPATH"] = os.pathsep.join([CODE_PATH, *extra_path])
    limits = sandbox.Limits(time_s=0.0, cpu_s=sandbox.UNLIMITED, memory_bytes=None if gpu else COMPILER_MEMORY_BYTES,
                            file_bytes=CHILD_FILE_BYTES, processes=CHILD_PROCESSES,
                            open_files=CHILD_OPEN_FILES, tmp_bytes=CHILD_TMP_BYTES)
    box_config.prepare(workdir, binds)
    argv = [a.replace("{box}", box) for a in [*(prefix or []), python, "-m", CHILD_MODULE, *child_args]]
    filter_fd = seccomp.program_fd()
    command = box_config.build_command(argv, workdir, limits, ro_binds=binds, env=env, gpu=gpu, seccomp_fd=filter_fd)
    return Launch(command.argv, {}, "/", box, command.user, command.group, command.pass_fds)
