"""Run an untrusted command inside bubblewrap, with rlimits, a wall-clock limit and capped output.

The sandbox sees a read-only /usr (plus the /bin, /lib, /lib64 links of a merged-/usr system),
the binds the caller names, one work directory bound read-write at `WORK_PATH`, a private /tmp,
/proc and a minimal /dev, an empty environment but for PATH/HOME/LANG, no network and no other
namespace shared with the host. It never sees /etc, the project, its settings or its database.

This module is deliberately small; hardening (seccomp, cgroups) comes later. If bubblewrap is
missing or cannot create namespaces, `run_sandboxed` raises SandboxUnavailableError, unless the
environment sets WARPDRILL_ALLOW_UNSAFE_SANDBOX=1, in which case it runs the command directly
(for development machines only) and logs a loud warning every time.
"""
from __future__ import annotations

import logging
import os
import resource
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from grader.core.errors import SandboxUnavailableError

logger = logging.getLogger(__name__)

# WARPDRILL_BWRAP points elsewhere only in fault tests (a missing path makes the sandbox
# unavailable: every grading attempt is then a platform fault, never a verdict).
BWRAP = os.environ.get("WARPDRILL_BWRAP", "/usr/bin/bwrap")
WORK_PATH = "/box"  # where the work directory appears inside the sandbox
OUTPUT_CAP = 64 * 1024  # bytes of stdout/stderr kept, each
UNSAFE_ENV = "WARPDRILL_ALLOW_UNSAFE_SANDBOX"


@dataclass
class SandboxResult:
    """How a sandboxed command ended."""

    returncode: int  # exit status; negative: killed by that signal (as subprocess reports it)
    stdout: str  # captured standard output, capped at OUTPUT_CAP with a note when truncated
    stderr: str  # captured standard error, capped the same way
    timed_out: bool  # True when the wall-clock limit killed the process group
    time_s: float  # wall-clock seconds from start to exit
    sandboxed: bool = True  # False only under WARPDRILL_ALLOW_UNSAFE_SANDBOX=1 without bwrap


def _read_capped(path: Path) -> str:
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            data = f.read(OUTPUT_CAP)
    except OSError:
        return ""
    text = data.decode("utf-8", errors="replace")
    if size > OUTPUT_CAP:
        text += f"\n[output truncated: {size - OUTPUT_CAP} more bytes dropped]\n"
    return text


def _limits(time_limit_s: float, memory_bytes: int, file_bytes: int, cpu_s: float | None):
    cpu = int(cpu_s if cpu_s is not None else time_limit_s) + 2

    def apply() -> None:  # runs in the child between fork and exec
        os.setsid()
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


_probe_cache: bool | None = None


def bwrap_works() -> bool:
    """True when bubblewrap exists and can create its namespaces here (probed once)."""
    global _probe_cache
    if _probe_cache is None:
        if not Path(BWRAP).exists():
            _probe_cache = False
        else:
            try:
                probe = subprocess.run(
                    [BWRAP, "--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr",
                     "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
                     "--symlink", "usr/lib64", "/lib64", "/usr/bin/true"],
                    capture_output=True, timeout=20,
                )
                _probe_cache = probe.returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                _probe_cache = False
    return _probe_cache


def _bwrap_argv(argv: list[str], workdir: Path, ro_binds: dict[str, str], env: dict[str, str]) -> list[str]:
    cmd = [
        BWRAP, "--unshare-all", "--die-with-parent", "--new-session",
        "--ro-bind", "/usr", "/usr",
        "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
        "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
        "--bind", str(workdir), WORK_PATH, "--chdir", WORK_PATH,
        "--clearenv",
    ]
    for host, inside in ro_binds.items():
        cmd += ["--ro-bind", str(host), inside]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return cmd + ["--"] + argv


def run_sandboxed(
    argv: list[str],
    workdir: Path,
    time_limit_s: float,
    memory_bytes: int = 2 << 30,
    *,
    ro_binds: dict[str, str] | None = None,
    env: dict[str, str] | None = None,
    file_bytes: int = 256 << 20,
    cpu_s: float | None = None,
) -> SandboxResult:
    """Run `argv` (paths as seen inside the sandbox) with `workdir` bound read-write at WORK_PATH.

    Preconditions: `workdir` exists and holds only what the command may read and write.
    `ro_binds` maps host paths to paths inside the sandbox (read-only). Limits: wall clock
    `time_limit_s` (the whole process group is killed), address space `memory_bytes`, files
    written `file_bytes` each, CPU seconds `cpu_s` (default: the wall-clock limit) plus 2.
    Raises SandboxUnavailableError when bubblewrap cannot run and unsafe mode is off.
    """
    workdir = Path(workdir)
    full_env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    full_env.update(env or {})
    sandboxed = bwrap_works()
    if sandboxed:
        cmd = _bwrap_argv(argv, workdir, ro_binds or {}, full_env)
        run_env: dict[str, str] = {}
        cwd = workdir
    elif os.environ.get(UNSAFE_ENV) == "1":
        logger.warning("UNSAFE: bubblewrap is unavailable; running untrusted code WITHOUT a sandbox (%s=1)", UNSAFE_ENV)
        cmd, cwd = _unsafe_argv(argv, workdir, ro_binds or {}), workdir
        run_env = {k: v.replace(WORK_PATH + "/", f"{workdir}/") for k, v in full_env.items()}
    else:
        raise SandboxUnavailableError(
            f"bubblewrap ({BWRAP}) is missing or cannot create namespaces on this worker; "
            f"set {UNSAFE_ENV}=1 only on a development machine"
        )
    out_path, err_path = workdir / ".sandbox.stdout", workdir / ".sandbox.stderr"
    start = time.monotonic()
    timed_out = False
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=cwd, env=run_env,
            preexec_fn=_limits(time_limit_s, memory_bytes, file_bytes, cpu_s),
        )
        try:
            proc.wait(timeout=time_limit_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
    elapsed = time.monotonic() - start
    result = SandboxResult(proc.returncode, _read_capped(out_path), _read_capped(err_path), timed_out, elapsed, sandboxed)
    out_path.unlink(missing_ok=True)
    err_path.unlink(missing_ok=True)
    return result


def _unsafe_argv(argv: list[str], workdir: Path, ro_binds: dict[str, str]) -> list[str]:
    """Translate sandbox paths back to host paths for the unsafe fallback."""
    mapping = {inside: host for host, inside in ro_binds.items()}
    mapping[WORK_PATH] = str(workdir)

    def host_path(arg: str) -> str:
        for inside in sorted(mapping, key=len, reverse=True):
            if arg == inside or arg.startswith(inside + "/"):
                return mapping[inside] + arg[len(inside):]
        return arg

    return [host_path(a) for a in argv]


def which(tool: str) -> str | None:
    """Where a host tool lives (for backends' `check()`)."""
    return shutil.which(tool)
