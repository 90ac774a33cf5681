"""How a GPU child process is started: inside bubblewrap with only the GPU's device nodes, or
(development machines and the H200 test machine, which have no bubblewrap) directly, when
WARPDRILL_ALLOW_UNSAFE_SANDBOX=1.

grader.sandbox runs a command to completion; the GPU child lives on between jobs, so its
bubblewrap command line is built here, with the sandbox's layout (read-only /usr, private /tmp,
no network, no /etc, no project) plus what a CUDA process needs: the /dev/nvidia* nodes, /sys
read-only (the driver reads PCI topology there), the Python environment read-only, and this
package's folder alone, read-only, as the code to run. The child sees one work folder of its
own, read-write, at /box (its result FIFO and the sanitizer's log).
"""
from __future__ import annotations

import glob
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from ... import sandbox
from ..errors import SandboxUnavailableError

PACKAGE_DIR = Path(__file__).resolve().parent  # grader/core/gpu
PROJECT_ROOT = PACKAGE_DIR.parent.parent.parent
CODE_PATH = "/opt/warpdrill"  # where the child's code appears inside the sandbox
CHILD_MODULE = "grader.core.gpu.child"
GPU_NODES = ("/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset")
PASSED_ENV = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "NVIDIA_VISIBLE_DEVICES", "LD_LIBRARY_PATH")


@dataclass
class Launch:
    """A child's command line, environment and working folder, and where it finds its work folder."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    box: str  # the work folder's path as the child sees it


def sandboxed() -> bool:
    """True when children run in bubblewrap; raises when neither bubblewrap nor unsafe mode is there."""
    if sandbox.bwrap_works():
        return True
    if os.environ.get(sandbox.UNSAFE_ENV) == "1":
        return False
    raise SandboxUnavailableError(
        f"bubblewrap cannot run on this GPU worker; set {sandbox.UNSAFE_ENV}=1 only on a trusted test machine")


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


def child_launch(workdir: Path, child_args: list[str], prefix: list[str] | None = None) -> Launch:
    """How to start `python -m grader.core.gpu.child CHILD_ARGS`, behind `prefix` (compute-sanitizer).

    `child_args` and `prefix` name the work folder as "{box}"; it is replaced by the path the
    child sees. Raises SandboxUnavailableError (see sandboxed()).
    """
    python = sys.executable  # not resolved: a virtual environment is found from this path
    env = {"PATH": "/usr/local/cuda/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
    env.update({k: os.environ[k] for k in PASSED_ENV if k in os.environ})
    extra_path = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if not sandboxed():
        box = str(workdir)
        env["PYTHONPATH"] = os.pathsep.join([str(PROJECT_ROOT), *extra_path])
        argv = [*(prefix or []), python, "-m", CHILD_MODULE, *child_args]
        return Launch([a.replace("{box}", box) for a in argv], env, box, box)
    box = sandbox.WORK_PATH
    code = f"{CODE_PATH}/grader"
    cmd = [sandbox.BWRAP, "--unshare-all", "--die-with-parent", "--new-session",
           "--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
           "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/dev/shm",
           "--ro-bind-try", "/sys", "/sys"]
    for node in gpu_nodes():
        cmd += ["--dev-bind", node, node]
    for folder in _python_dirs():
        cmd += ["--ro-bind", folder, folder]
    cmd += ["--ro-bind", str(PROJECT_ROOT / "grader" / "__init__.py"), f"{code}/__init__.py",
            "--ro-bind", str(PROJECT_ROOT / "grader" / "core" / "__init__.py"), f"{code}/core/__init__.py",
            "--ro-bind", str(PACKAGE_DIR), f"{code}/core/gpu",
            "--bind", str(workdir), box, "--chdir", box, "--clearenv"]
    env["PYTHONPATH"] = os.pathsep.join([CODE_PATH, *extra_path])
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    argv = [*cmd, "--", *(prefix or []), python, "-m", CHILD_MODULE, *child_args]
    return Launch([a.replace("{box}", box) for a in argv], {}, str(workdir), box)
