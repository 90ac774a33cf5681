"""Run an untrusted command inside bubblewrap, with rlimits, a wall-clock limit and capped output.

Every compile and every run of a student's code goes through `Sandbox.run` (a long-lived child,
such as the GPU pool's, can build its command with `Sandbox.build_command` after `Sandbox.prepare`). The layers,
outside in:

- Namespaces (`--unshare-all`, plus an explicit user namespace with nested ones disabled): no
  network but a private loopback, a private PID space whose init takes every process with it when
  it dies, private IPC, hostname and mounts. `--die-with-parent` and `--new-session` tie the box
  to this worker and detach it from any terminal.
- An unprivileged identity: as root, the worker starts bubblewrap as `Sandbox.uid`
  (default 65534, "nobody"), so nothing inside runs as host root and RLIMIT_NPROC is enforced
  (the kernel never enforces it for uid 0). Inside, the command is uid 1000 with no capabilities.
- A filesystem of its own: read-only /usr (and the /bin, /lib... links of a merged-/usr system),
  fresh /proc and /dev, size-capped private /tmp and /dev/shm, the read-only binds the step names,
  one work directory read-write at WORK_PATH, and nothing else: no /etc, no /home, no project
  (its settings, its var/ with the database and the binary cache), no other submission. Project
  paths that happen to lie under /usr are masked by empty read-only tmpfs mounts.
- rlimits set inside the box by prlimit(1), just before the command: CPU seconds, address space,
  file size, open files, processes (threads count) and no core dumps.
- A seccomp filter (seccomp.py) refusing system calls no compiler or kernel needs.
- From outside: a wall-clock limit that kills bubblewrap's process group (the box's PID namespace
  dies with it), stdout/stderr read through pipes and capped with an "output truncated" note,
  a watchdog on what the box writes to its work directory (bytes and entries: the one writable
  host folder), and, for runs without an address-space limit, a watchdog on its resident memory.

If bubblewrap is missing or cannot set up a box, `Sandbox.run` raises SandboxUnavailableError
(a PlatformError: the submission is retried, never charged), unless `Sandbox.allow_unsafe`
(WARPDRILL_ALLOW_UNSAFE_SANDBOX=1), which runs the command directly, for development machines only,
with a loud warning every time.

The package: `limits.py` (what a box may use: `Limits`; how it ended: `SandboxResult`), `box.py`
(`Sandbox`, the worker's configuration, and running), `command.py` (bubblewrap's command line and a
root worker's identity), `watch.py` (clocks, output, memory and disk watchdogs, killing), `probing.py`
(is bubblewrap usable here?) and `seccomp.py` (the system-call filter). The configuration comes in
as a value: no module here reads the environment.
"""

from __future__ import annotations

from . import box  # noqa: F401  (box.DEFAULT: the sandbox of callers that name none)
from .box import BASE_ENV, DEFAULT_BWRAP, DEFAULT_UID, Sandbox, scrub
from .command import BOX_UID, GPU_SYS_PATHS, PRLIMIT, WORK_PATH, Command, gpu_device_nodes, unsafe_argv
from .limits import (DEFAULT_DISK_BYTES, DEFAULT_DISK_ENTRIES, DEFAULT_FILE_BYTES, DEFAULT_MEMORY_BYTES,
                     DEFAULT_OPEN_FILES, DEFAULT_PROCESSES, DEFAULT_RSS_BYTES, DEFAULT_TMP_BYTES, OUTPUT_CAP,
                     RSS_SLACK_BYTES, UNLIMITED, Limits, SandboxResult, default_rss_bytes)
from .watch import DISK_CHECK_S, DISK_MAX_DEPTH, directory_usage


def which(tool: str) -> str | None:
    """Where a host tool lives (for backends' `check()`)."""
    import shutil

    return shutil.which(tool)


__all__ = ["BASE_ENV", "BOX_UID", "Command", "DEFAULT_BWRAP", "DEFAULT_DISK_BYTES", "DEFAULT_DISK_ENTRIES",
           "DEFAULT_FILE_BYTES", "DEFAULT_MEMORY_BYTES", "DEFAULT_OPEN_FILES", "DEFAULT_PROCESSES", "DEFAULT_RSS_BYTES",
           "DEFAULT_TMP_BYTES", "DEFAULT_UID", "DISK_CHECK_S", "DISK_MAX_DEPTH", "GPU_SYS_PATHS", "Limits", "OUTPUT_CAP",
           "PRLIMIT", "RSS_SLACK_BYTES", "Sandbox", "SandboxResult", "UNLIMITED", "WORK_PATH", "default_rss_bytes",
           "directory_usage", "gpu_device_nodes", "scrub", "unsafe_argv", "which"]
