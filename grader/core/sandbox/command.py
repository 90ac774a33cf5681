"""The box's command line: bubblewrap's options (namespaces, the read-only system, the binds, the
masks over project paths under /usr, the GPU's device nodes), prlimit inside, and, for a root worker,
the unprivileged host identity it starts as and the permissions that identity needs."""
from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SandboxUnavailableError
from .limits import Limits

PRLIMIT = "/usr/bin/prlimit"  # util-linux, Essential on Debian: sets the rlimits inside the box
WORK_PATH = "/box"  # where the work directory appears inside the sandbox
BOX_UID = 1000  # the command's uid and gid as seen inside the box
REPO_ROOT = Path(__file__).resolve().parents[3]
SYSTEM_DIRS = ("/usr",)
GPU_DEVICE_GLOBS = ("/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset",
                    "/dev/nvidia[0-9]*", "/dev/nvidia-caps")
# What the CUDA driver reads in /sys: PCI topology (bus ids, NUMA nodes, BARs) and the module's version.
GPU_SYS_PATHS = ("/sys/bus/pci", "/sys/devices", "/sys/dev/char", "/sys/module/nvidia", "/sys/module/nvidia_uvm")


@dataclass
class Command:
    """A ready-to-start sandboxed command: argv for Popen and the host identity to start it as."""

    argv: list[str]
    user: int | None = None  # host uid to start bubblewrap as (root workers only)
    group: int | None = None
    pass_fds: tuple[int, ...] = ()  # the seccomp filter's descriptor, when there is one
    masks: list[str] = field(default_factory=list)  # host paths hidden under /usr


def sandbox_ids(uid: int) -> tuple[int, int] | None:
    """(uid, gid) bubblewrap runs as: `uid` (the sandbox user) when the worker is root, else None (as is).

    Raises SandboxUnavailableError for uid 0, which would run student code as root.
    """
    if os.geteuid() != 0:
        return None
    if uid == 0:
        raise SandboxUnavailableError("a sandbox uid of 0 would run student code as root")
    return uid, uid


def hidden_paths(hide: tuple[str, ...] = ()) -> list[str]:
    """Host paths of the project that must never be visible: the checkout and `hide` (the site's
    state and cache folders), those that lie under /usr, where they are masked."""
    out = []
    for p in [REPO_ROOT, *hide]:
        if not p:
            continue
        real = os.path.realpath(p)
        if any(real.startswith(d + "/") for d in SYSTEM_DIRS) and os.path.isdir(real):
            out.append(real)
    return sorted(set(out))


def _system_layout() -> list[str]:
    args = []
    for d in SYSTEM_DIRS:
        args += ["--ro-bind", d, d]
    for name in ("bin", "sbin", "lib", "lib64", "lib32", "libx32"):
        path = f"/{name}"
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args


def gpu_device_nodes() -> list[str]:
    """The NVIDIA device nodes present on this machine."""
    return sorted({p for pattern in GPU_DEVICE_GLOBS for p in glob.glob(pattern)})


def build_command(argv: list[str], workdir: Path, limits: Limits, *, bwrap: str, ids: tuple[int, int] | None,
                  masks: list[str], ro_binds: dict[str, str] | None = None, env: dict[str, str] | None = None,
                  gpu: bool = False, report_start: bool = False, seccomp_fd: int | None = None) -> Command:
    """The bubblewrap command line that runs `argv` (paths as seen inside) in a box over `workdir`.

    Preconditions: `workdir` exists and holds only what the command may read and write; it is
    the only host path the box can write. `ro_binds` maps host paths to paths inside (read-only).
    The caller starts it with `start_new_session=True` and Command.user/group, after
    `prepare(workdir, ro_binds)` when the worker is root. With `report_start`, stdin must be the
    write end of a pipe: a shell inside the box writes one byte to it and replaces it with
    /dev/null before running the command, the proof that the box was set up (bubblewrap's own
    failures exit 1, as a command may). `seccomp_fd` holds a filter from sandbox.seccomp. `bwrap` is
    bubblewrap's path, `ids` the host identity to start it as (sandbox_ids), `masks` the host paths
    under /usr to hide (hidden_paths).
    """
    cmd = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--uid", str(BOX_UID), "--gid", str(BOX_UID),
           "--die-with-parent", "--new-session", *_system_layout()]
    for m in masks:
        cmd += ["--tmpfs", m, "--remount-ro", m]
    cmd += ["--proc", "/proc", "--dev", "/dev"]
    if gpu:
        for node in gpu_device_nodes():
            cmd += ["--dev-bind", node, node]
        for path in GPU_SYS_PATHS:
            cmd += ["--ro-bind-try", path, path]
    cmd += ["--size", str(limits.tmp_bytes), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
            "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
    for host, inside in (ro_binds or {}).items():
        cmd += ["--ro-bind", str(host), inside]
    cmd += ["--bind", str(workdir), WORK_PATH, "--remount-ro", "/", "--chdir", WORK_PATH, "--clearenv"]
    for key, value in (env or {}).items():
        cmd += ["--setenv", key, value]
    if seccomp_fd is not None:
        cmd += ["--seccomp", str(seccomp_fd)]
    cmd.append("--")
    if report_start:
        cmd += ["/bin/sh", "-c", 'printf x >&0 && exec 0</dev/null && exec "$@"', "sh"]
    cmd += [PRLIMIT, *limits.prlimit_args(), "--", *argv]
    fds = (seccomp_fd,) if seccomp_fd is not None else ()
    return Command(cmd, ids[0] if ids else None, ids[1] if ids else None, fds, masks)


def prepare(workdir: Path, ro_binds: dict[str, str] | None, ids: tuple[int, int] | None) -> None:
    """As root: give the sandbox user the work directory and a way to reach every bound path.

    bubblewrap runs unprivileged, so each bind source must be reachable by the sandbox user:
    directories above them that are ours get search permission for others (never read), bound
    folders of ours become readable, and the work directory's tree is handed over. Raises
    SandboxUnavailableError when a path cannot be reached. No-op when the worker is not root
    (it then owns what it binds): `ids` is sandbox_ids()'s answer.
    """
    if ids is None:
        return
    uid, gid = ids
    for source in [workdir, *(ro_binds or {})]:
        _make_reachable(Path(source), uid)
    for source in ro_binds or {}:  # a bound folder is there to be read: let the sandbox user list it
        st = os.stat(source) if os.path.isdir(source) else None
        if st and st.st_uid == os.geteuid() and (st.st_mode & 0o005) != 0o005:
            os.chmod(source, (st.st_mode & 0o7777) | 0o005)
    for root, dirs, files in os.walk(workdir):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(root, name), uid, gid)
    os.chown(workdir, uid, gid)


def _make_reachable(path: Path, uid: int) -> None:
    path = Path(os.path.abspath(path))
    for parent in reversed(path.parents):
        st = parent.stat()
        if st.st_mode & 0o001 or st.st_uid == uid:
            continue
        if st.st_uid != os.geteuid():
            raise SandboxUnavailableError(f"the sandbox user cannot reach {path}: {parent} is not searchable")
        os.chmod(parent, (st.st_mode & 0o7777) | 0o001)


def unsafe_argv(argv: list[str], workdir: Path, ro_binds: dict[str, str]) -> list[str]:
    """Translate sandbox paths back to host paths for the unsafe fallback."""
    mapping = {inside: host for host, inside in ro_binds.items()}
    mapping[WORK_PATH] = str(workdir)

    def host_path(arg: str) -> str:
        for inside in sorted(mapping, key=len, reverse=True):
            if arg == inside or arg.startswith(inside + "/"):
                return mapping[inside] + arg[len(inside):]
        return arg

    # A shell script (`sh -c "..."`, as the emulator's compile is) names paths inside its text.
    inside_word = re.compile(r"(?<![\w/.])(" + "|".join(re.escape(i) for i in sorted(mapping, key=len, reverse=True))
                             + r")(?=[/\s'\"]|$)")

    def in_script(arg: str) -> str:
        return inside_word.sub(lambda m: mapping[m.group(1)], arg) if " " in arg else arg

    return [in_script(host_path(a)) for a in argv]
