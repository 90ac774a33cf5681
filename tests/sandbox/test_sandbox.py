"""The sandbox holds on its own: programs run through Sandbox.run directly, with no static checks.

Each test runs native code or a shell inside the box and checks from outside what it could not
do: reach the network, read the project or the host, write outside its work folder, outgrow its
process, memory, file, CPU and output limits, outlive its wall clock, or see the worker's secrets.
"""
from __future__ import annotations

import logging
import os
import resource
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from grader.core import sandbox
from tests.sandbox.run import run_box
from grader.core.errors import SandboxUnavailableError
from tests.hostile.watch import descendants

from . import programs

pytestmark = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason=f"no sandbox here: {sandbox.box.DEFAULT.probe()}")

REPO = Path(__file__).resolve().parents[2]
PROGS = "/opt/progs"  # where the compiled programs appear inside the box


@pytest.fixture(scope="module")
def progs(tmp_path_factory):
    return programs.build(tmp_path_factory.mktemp("progs"))


@pytest.fixture
def box(tmp_path, progs):
    """run(argv or shell string, **limits) inside a box over a fresh work folder, programs bound read-only."""
    work = tmp_path / "work"
    work.mkdir()

    def run(command, time_limit_s=10.0, **kwargs):
        argv = ["/bin/sh", "-c", command] if isinstance(command, str) else command
        binds = {str(progs): PROGS, **kwargs.pop("ro_binds", {})}
        return run_box(argv, work, time_limit_s, ro_binds=binds, **kwargs)

    run.work = work
    return run


def live_processes_mentioning(marker: str) -> list[int]:
    """Live processes anywhere on the machine whose command line contains `marker`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                pass
    return found


# ---- identity ----

def test_box_runs_unprivileged_without_capabilities(box):
    """Inside: uid 1000, no capabilities; as a root worker the files it writes belong to the sandbox user, not root."""
    res = box("id -u; grep CapEff /proc/self/status; touch /box/mine")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0] == "1000"
    assert "CapEff:\t0000000000000000" in res.stdout
    owner = (box.work / "mine").stat().st_uid
    ids = sandbox.box.DEFAULT.ids()
    assert owner == (ids[0] if ids else os.geteuid())
    if ids:
        assert owner != 0


NON_ROOT_WORKER = """
import sys
sys.path.insert(0, sys.argv[1])
from grader.core import sandbox
res = sandbox.Sandbox().run(["/bin/sh", "-c", "id -u; {progs}/forkbomb; grep CapEff /proc/self/status"],
                           sys.argv[2], sandbox.Limits(10, processes=16), ro_binds={{sys.argv[3]: "{progs}"}})
print(res.stdout)
"""


@pytest.mark.skipif(os.geteuid() != 0 or not os.path.exists("/usr/bin/python3"), reason="needs root to become another user")
def test_a_worker_that_is_not_root_gets_the_same_box(tmp_path, progs):
    """As in the production image (a non-root worker user), the box starts unprivileged and NPROC still holds."""
    uid = sandbox.box.DEFAULT.ids()[0]
    work = tmp_path / "work"
    work.mkdir()
    os.chown(work, uid, uid)
    sandbox.box.DEFAULT.prepare(work, {str(progs): PROGS})  # makes the folders reachable for that user
    res = subprocess.run(["/usr/bin/python3", "-c", NON_ROOT_WORKER.format(progs=PROGS), str(REPO), str(work), str(progs)],
                         capture_output=True, text=True, timeout=60, user=uid, group=uid, extra_groups=[],
                         env={"PATH": "/usr/bin:/bin", "HOME": str(work)})
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "1000"
    assert "refused after" in lines[1] and int(lines[1].split()[2].rstrip(":")) < 16
    assert "CapEff:\t0000000000000000" in res.stdout


def test_no_nested_user_namespace_and_no_raising_limits(box):
    """The box cannot make a user namespace of its own, nor raise its hard limits."""
    res = box("unshare -U true && echo nested; prlimit --nproc=100000 --pid $$ && echo raised; echo done")
    assert "done" in res.stdout
    assert "nested" not in res.stdout and "raised" not in res.stdout


def test_seccomp_refuses_kernel_attack_surface(box):
    """ptrace, io_uring, bpf, perf events, userfaultfd, keyrings and unshare fail with EPERM; ordinary calls work."""
    from grader.core.sandbox import seccomp

    if seccomp.program() is None:
        pytest.skip("no seccomp filter for this architecture")
    res = box(f"{PROGS}/syscalls")
    got = dict(line.split() for line in res.stdout.splitlines())
    assert got.pop("getpid") == "allowed"
    assert got and set(got.values()) == {"EPERM"}, got


# ---- network ----

def test_no_network_loopback_of_the_host_or_public(box):
    """connect() to a port the host listens on at 127.0.0.1 and to a public address both fail, already at
    socket(): the seccomp filter refuses every family but AF_UNIX; only lo exists."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    try:
        res = box(f"{PROGS}/connect 127.0.0.1 {port}; {PROGS}/connect 1.1.1.1 53; {PROGS}/connect 8.8.8.8 443; "
                  "cat /proc/net/dev")
        with pytest.raises(socket.timeout):
            listener.accept()
    finally:
        listener.close()
    assert "connected" not in res.stdout
    assert res.stdout.count("failed:") == 3
    assert res.stdout.count("Address family not supported") == 3, res.stdout
    interfaces = [line.split(":")[0].strip() for line in res.stdout.splitlines() if ":" in line and "|" not in line
                  and not line.startswith("failed")]
    assert interfaces == ["lo"]


def test_no_abstract_unix_socket_of_the_host(box):
    """An abstract unix socket of the host (no file to hide) is out of reach: the network namespace is private."""
    name = f"wd-test-{uuid.uuid4().hex}"
    server = socket.socket(socket.AF_UNIX)
    server.bind("\0" + name)
    server.listen(1)
    try:
        res = box(["/usr/bin/python3", "-c", f"import socket; s = socket.socket(socket.AF_UNIX); s.connect('\\0{name}')"])
    finally:
        server.close()
    assert res.returncode != 0
    assert "ConnectionRefusedError" in res.stderr


# ---- files ----

def test_project_host_files_and_other_boxes_are_invisible(box, tmp_path):
    """The project (settings, var/ with the database and the binary cache), /etc, /home, /root and files outside are not there."""
    canary = tmp_path / "canary.txt"
    canary.write_text("CANARY-5e2a never readable\n")
    targets = [REPO, REPO / "config" / "settings.py", REPO / "var" / "db.sqlite3", REPO / "var" / "cache",
               "/etc/passwd", "/etc/shadow", "/root", "/home", "/var", canary, tmp_path, "/proc/1/root/etc/passwd"]
    res = box("; ".join(f"cat {t} 2>&1 | head -c 300" for t in targets))
    assert "CANARY-5e2a" not in res.stdout and "root:x:0" not in res.stdout
    assert res.stdout.count("No such file or directory") + res.stdout.count("Permission denied") == len(targets)
    top = set(box("ls /").stdout.split())
    links = {n for n in ("bin", "sbin", "lib", "lib64", "lib32", "libx32") if os.path.lexists(f"/{n}")}
    assert top == {"box", "dev", "opt", "proc", "tmp", "usr"} | links


def test_cannot_write_outside_the_work_folder(box, tmp_path):
    """Writes to /, /usr, /dev, /proc/sys and the project fail; /tmp is private; /box reaches the work folder."""
    marker = f"wd_marker_{uuid.uuid4().hex[:8]}"
    attempts = ["/", "/usr/", "/usr/bin/", "/dev/", f"{REPO}/", f"{REPO}/var/", f"{tmp_path}/"]
    res = box("; ".join(f"touch {a}{marker} 2>/dev/null && echo wrote {a}" for a in attempts)
              + f"; echo x > /proc/sys/kernel/hostname 2>/dev/null && echo wrote proc"
              + f"; touch /tmp/{marker} && echo tmp ok; touch /box/{marker} && echo box ok")
    assert "wrote" not in res.stdout
    assert "tmp ok" in res.stdout and "box ok" in res.stdout
    assert (box.work / marker).exists()
    for a in ["/", "/usr/", "/tmp/", f"{REPO}/", f"{REPO}/var/", f"{tmp_path}/"]:
        assert not Path(f"{a}{marker}").exists()


def test_links_and_fifos_left_in_the_work_folder_are_removed(box):
    """What the worker reads after a run is never a symlink to a host file nor a FIFO that would block it."""
    res = box("ln -s /proc/self/environ /box/printf.log; ln -s /box /box/loop; mkfifo /box/result.json; "
              "mkdir /box/sub; ln -s /etc/passwd /box/sub/a2.bin.out; echo kept > /box/regular; ls /box | wc -l")
    assert res.stdout.strip() == "5"
    assert sorted(p.name for p in box.work.rglob("*")) == ["regular", "sub"]
    assert (box.work / "regular").read_text() == "kept\n"


def test_tmp_and_shm_are_small_private_tmpfs(box):
    """/tmp and /dev/shm are memory: each is capped (here 1 MiB), so filling them fails with ENOSPC."""
    res = box("head -c 3M /dev/zero > /tmp/fill; echo tmp=$?; head -c 3M /dev/zero > /dev/shm/fill; echo shm=$?; "
              "du -k /tmp/fill /dev/shm/fill", tmp_bytes=1 << 20)
    assert "tmp=1" in res.stdout and "shm=1" in res.stdout
    assert "No space left on device" in res.stderr
    sizes = [int(line.split()[0]) for line in res.stdout.splitlines() if "/fill" in line]
    assert sizes and max(sizes) <= 1024


def test_masked_project_path_under_usr(box, monkeypatch):
    """A project path that lies under /usr (a container installing the app there) is an empty, read-only folder inside."""
    base = Path("/usr/local/share")
    if not os.access(base, os.W_OK):
        pytest.skip("cannot create a folder under /usr here")
    hidden = base / f"wd-hidden-{uuid.uuid4().hex[:8]}"
    hidden.mkdir()
    try:
        (hidden / "settings.py").write_text("SECRET_KEY = 'CANARY-9b1'\n")
        monkeypatch.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(hide=(str(hidden),)))
        res = box(f"ls -A {hidden}; cat {hidden}/settings.py; touch {hidden}/x && echo wrote; echo done")
    finally:
        for p in hidden.iterdir():
            p.unlink()
        hidden.rmdir()
    assert "done" in res.stdout
    assert "CANARY-9b1" not in res.stdout and "settings.py" not in res.stdout and "wrote" not in res.stdout


# ---- limits ----

def test_fork_bomb_is_contained_by_nproc(box):
    """A fork bomb is refused at the box's process limit and leaves nothing behind."""
    before = descendants()
    started = time.monotonic()
    res = box(f"{PROGS}/forkbomb", time_limit_s=10.0, processes=16)
    assert "refused after" in res.stdout, res.stdout + res.stderr
    made = int(res.stdout.split("refused after ")[1].split(":")[0])
    assert made < 16
    assert time.monotonic() - started < 5
    assert descendants() - before == set()
    assert live_processes_mentioning(f"{PROGS}/forkbomb") == []


def test_threads_count_against_the_process_limit(box):
    """Threads are processes to the kernel: a thread bomb stops at the same limit."""
    res = box(f"{PROGS}/threads", processes=16)
    assert "refused after" in res.stdout, res.stdout + res.stderr
    assert int(res.stdout.split("refused after ")[1]) < 16


def test_memory_is_capped(box):
    """A 1 GiB allocation fails under a 256 MiB address-space limit; a small one works."""
    res = box(f"{PROGS}/alloc 1024; {PROGS}/alloc 16", memory_bytes=256 << 20)
    assert res.stdout.splitlines() == ["allocation failed", "allocated"]


def test_resident_memory_watchdog_without_address_space_limit(box):
    """With no address-space limit (ThreadSanitizer runs), the box is killed when its resident memory passes rss_bytes."""
    res = box(f"{PROGS}/alloc 1024 20", memory_bytes=resource.RLIM_INFINITY, rss_bytes=128 << 20)
    assert res.memory_exceeded and not res.timed_out
    assert res.time_s < 5
    small = box(f"{PROGS}/alloc 16", memory_bytes=resource.RLIM_INFINITY, rss_bytes=128 << 20)
    assert small.stdout.strip() == "allocated" and not small.memory_exceeded


def test_cpu_time_is_capped(box):
    """A spinning process is ended by RLIMIT_CPU (SIGXCPU, 128+24) long before the wall clock."""
    res = box("while :; do :; done", time_limit_s=20.0, cpu_s=0.5)
    assert not res.timed_out
    assert res.returncode in (128 + 24, 128 + 9)
    assert res.time_s < 5


def test_file_size_is_capped(box):
    """A file may not grow past the file-size limit (SIGXFSZ); the host sees at most that much."""
    res = box("head -c 4M /dev/zero > /box/big; echo status=$?", file_bytes=1 << 20)
    assert "status=0" not in res.stdout
    assert (box.work / "big").stat().st_size <= 1 << 20


def test_limits_inside_the_box(box):
    """The command sees the limits it was given: processes, open files, address space, no core dumps."""
    res = box("cat /proc/self/limits", processes=20, open_files=32, memory_bytes=300 << 20)
    limits = {line[:26].strip(): line[26:].split()[:2] for line in res.stdout.splitlines()[1:]}
    assert limits["Max processes"] == ["20", "20"]
    assert limits["Max open files"] == ["32", "32"]
    assert limits["Max address space"] == [str(300 << 20)] * 2
    assert limits["Max core file size"] == ["0", "0"]


def test_output_is_capped_with_a_note(box):
    """Both streams keep their first bytes and say how much was dropped; an endless writer is still stopped."""
    res = box("head -c 100000 /dev/zero | tr '\\0' o; head -c 100000 /dev/zero | tr '\\0' e >&2", output_bytes=1000)
    assert res.truncated
    assert res.stdout.startswith("o" * 1000) and "[output truncated: 99000 more bytes dropped]" in res.stdout
    assert res.stderr.startswith("e" * 1000) and "[output truncated: 99000 more bytes dropped]" in res.stderr
    endless = box("yes wd-flood", time_limit_s=1.0, output_bytes=1000)
    assert endless.timed_out and endless.truncated and len(endless.stdout) < 1200


def test_wall_clock_kill_takes_the_whole_box(box):
    """A program that ignores every catchable signal, forks and daemonises a grandchild is gone, all of it, at the wall clock."""
    marker = f"stubborn-{uuid.uuid4().hex[:8]}"
    before = descendants()
    started = time.monotonic()
    res = box([f"{PROGS}/stubborn", marker], time_limit_s=1.0)
    assert res.timed_out
    assert time.monotonic() - started < 1.0 + 3
    assert live_processes_mentioning(marker) == []
    assert descendants() - before == set()


# ---- the worker's secrets ----

def test_worker_environment_is_not_visible(box, monkeypatch):
    """SECRET_KEY, DATABASE_URL and the rest of the worker's environment never enter the box, not even via /proc."""
    monkeypatch.setenv("SECRET_KEY", "CANARY-SECRET-41f")
    monkeypatch.setenv("DATABASE_URL", "postgres://u:CANARY-PW-77@db/x")
    res = box("env; cat /proc/*/environ | tr '\\0' '\\n'; ls /proc | head -50", env={"EXTRA": "given"})
    assert "CANARY" not in res.stdout + res.stderr
    assert "EXTRA=given" in res.stdout
    assert "pytest" not in res.stdout
    pids = [p for p in res.stdout.split() if p.isdigit()]
    assert len(pids) < 10  # its own PID namespace: the worker's processes are not listed


# ---- refusing to run unsandboxed ----

def test_missing_bubblewrap_refuses_unless_unsafe_mode(tmp_path, monkeypatch, caplog):
    """Without bubblewrap the sandbox raises SandboxUnavailableError; unsafe mode (allow_unsafe,
    WARPDRILL_ALLOW_UNSAFE_SANDBOX=1) runs, loudly."""
    missing = str(tmp_path / "no-bwrap")
    monkeypatch.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(bwrap=missing))
    with pytest.raises(SandboxUnavailableError, match="not installed"):
        run_box(["/bin/true"], tmp_path, 5)
    monkeypatch.setattr(sandbox.box, "DEFAULT", sandbox.Sandbox(bwrap=missing, allow_unsafe=True))
    with caplog.at_level(logging.WARNING, logger="grader.core.sandbox"):
        res = run_box(["/bin/sh", "-c", "echo $PWD"], tmp_path, 5)
    assert res.returncode == 0 and res.sandboxed is False
    assert "UNSAFE" in caplog.text
    assert sandbox.Sandbox().works()  # the probe of the real bubblewrap is its own


def test_a_box_that_cannot_be_set_up_is_a_platform_error(box, tmp_path):
    """A bind that bubblewrap cannot make is the platform's fault (SandboxUnavailableError), not the command's exit status."""
    with pytest.raises(SandboxUnavailableError, match="could not set up"):
        box("true", ro_binds={str(tmp_path / "missing"): "/opt/missing"})


def test_gpu_option_adds_only_device_nodes_and_sys(tmp_path, monkeypatch):
    """gpu=True binds the NVIDIA nodes and CUDA's /sys entries; without it the box has neither."""
    monkeypatch.setattr(sandbox.command, "gpu_device_nodes", lambda: ["/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm"])
    limits = sandbox.Limits(5, 1 << 30, 1 << 20, cpu_s=5)
    plain = sandbox.box.DEFAULT.build_command(["/bin/true"], tmp_path, limits).argv
    gpu = sandbox.box.DEFAULT.build_command(["/bin/true"], tmp_path, limits, gpu=True).argv
    assert not any("nvidia" in a or a.startswith("/sys") for a in plain)
    binds = [gpu[i + 1] for i, a in enumerate(gpu) if a == "--dev-bind"]
    assert binds == ["/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm"]
    assert "/sys/bus/pci" in gpu and "/sys/module/nvidia" in gpu
    assert "/sys" not in gpu  # never the whole of /sys


def test_gpu_box_runs_here_without_exposing_more(box):
    """With gpu=True on a machine without a GPU the box still runs; /sys shows only the PCI and module entries."""
    res = box("ls /sys; ls /dev | grep -c nvidia", gpu=True)
    assert res.returncode in (0, 1), res.stderr
    assert set(res.stdout.split()[:-1]) <= {"bus", "devices", "dev", "module"}


def test_system_check_reports_unusable_bubblewrap(monkeypatch, settings, tmp_path):
    """grader.E002 when a grading process has no usable bubblewrap (the configured one,
    WARPDRILL_JUDGE's sandbox option); grader.W003 when unsafe mode stands in."""
    from grader import checks

    def configure(**box):
        options = {**settings.WARPDRILL_JUDGE["OPTIONS"], "sandbox": {**settings.WARPDRILL_JUDGE["OPTIONS"]["sandbox"], **box}}
        settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "OPTIONS": options}

    monkeypatch.setattr(checks, "grades_here", lambda: True)
    configure(bwrap=str(tmp_path / "x"), allow_unsafe=False)
    messages = checks.check_sandbox(None)
    assert [m.id for m in messages] == ["grader.E002"] and "not installed" in messages[0].msg
    configure(allow_unsafe=True)
    assert [m.id for m in checks.check_sandbox(None)] == ["grader.W003"]
    monkeypatch.setattr(checks, "grades_here", lambda: False)
    assert checks.check_sandbox(None) == []


def test_var_dir_under_usr_is_masked_too(settings):
    """The site's state folder (WARPDRILL_VAR_DIR: its database and broker) and its caches are hidden
    like the project when they lie under /usr: the settings hand them to the sandbox to mask."""
    hide = settings.WARPDRILL_JUDGE["OPTIONS"]["sandbox"]["hide"]
    assert str(settings.VAR_DIR) in hide and str(settings.WARPDRILL_CACHE_DIR) in hide
    base = Path("/usr/local/share")
    if not os.access(base, os.W_OK):
        pytest.skip("cannot create a folder under /usr here")
    state = base / f"wd-var-{uuid.uuid4().hex[:8]}"
    state.mkdir()
    try:
        assert str(state) in sandbox.Sandbox(hide=(str(state),)).hidden_paths()
        assert str(state) not in sandbox.Sandbox().hidden_paths()
    finally:
        state.rmdir()
