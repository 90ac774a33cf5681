"""The seccomp filter: every socket family but AF_UNIX is refused, and so are the system calls Docker's
default profile refuses (issue 13, finding 2).

AF_VSOCK is machine-wide, not per network namespace: inside the box `socket(AF_VSOCK)`, `bind` and
`listen` used to succeed and the port was visible to the host (and, on a virtual machine, the
hypervisor was one `connect` away). The programs here call the kernel directly (`syscall`), as code
that got past the static checks would, inside the real sandbox.
"""
from __future__ import annotations

import errno
import socket
import subprocess

import pytest

from grader.core import sandbox
from tests.sandbox.run import run_box
from grader.core.sandbox import seccomp

pytestmark = pytest.mark.skipif(not sandbox.box.DEFAULT.works(), reason=f"no sandbox here: {sandbox.box.DEFAULT.probe()}")

PROGS = "/opt/progs"
AF_MAX = 46  # linux/socket.h: the families the kernel knows are 0 .. AF_MAX - 1

PROBE = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#define SHOW(name, r) printf("%s %s\n", name, (r) == -1 ? strerrorname_np(errno) : "allowed")
static long try_clone(unsigned long flags) {
    long r = syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
    if (r == 0) _exit(0);  /* allowed: the child leaves at once */
    return r < 0 ? -1 : r;
}
int main(int argc, char** argv) {
    char name[64];
    int types[] = {SOCK_STREAM, SOCK_DGRAM, SOCK_RAW, SOCK_SEQPACKET};
    for (int family = 0; family < 46; family++) {
        int allowed = 0, last = 0;
        for (int t = 0; t < 4; t++) {
            errno = 0;
            long fd = syscall(SYS_socket, family, types[t], 0);
            if (fd >= 0) { allowed = 1; close((int)fd); } else last = errno;
        }
        snprintf(name, sizeof name, "socket:%d", family);
        printf("%s %s\n", name, allowed ? "allowed" : strerrorname_np(last));
        int sv[2];
        errno = 0;
        long r = syscall(SYS_socketpair, family, SOCK_STREAM, 0, sv);
        snprintf(name, sizeof name, "socketpair:%d", family);
        SHOW(name, r);
        if (r == 0) { close(sv[0]); close(sv[1]); }
    }
    errno = 0; SHOW("modify_ldt", syscall(SYS_modify_ldt, 0, 0, 0));
    errno = 0; SHOW("kcmp", syscall(SYS_kcmp, getpid(), getpid(), 0, 0, 0));
    errno = 0; SHOW("move_pages", syscall(SYS_move_pages, 0, 0, 0, 0, 0, 0));
    errno = 0; SHOW("get_mempolicy", syscall(SYS_get_mempolicy, 0, 0, 0, 0, 0));
    errno = 0; SHOW("mbind", syscall(SYS_mbind, 0, 0, 0, 0, 0, 0));
    errno = 0; SHOW("sysfs", syscall(SYS_sysfs, 3));
    errno = 0; SHOW("ustat", syscall(SYS_ustat, 0, 0));
    errno = 0; SHOW("chroot", syscall(SYS_chroot, "/tmp"));
    errno = 0; SHOW("personality:ADDR_NO_RANDOMIZE", syscall(SYS_personality, ADDR_NO_RANDOMIZE));
    errno = 0; SHOW("personality:READ_IMPLIES_EXEC", syscall(SYS_personality, READ_IMPLIES_EXEC));
    errno = 0; SHOW("personality:query", syscall(SYS_personality, 0xffffffff));
    errno = 0; SHOW("personality:PER_LINUX", syscall(SYS_personality, 0));
    errno = 0; SHOW("clone:CLONE_NEWNET", try_clone(CLONE_NEWNET));
    errno = 0; SHOW("clone:CLONE_NEWUSER", try_clone(CLONE_NEWUSER));
    errno = 0; SHOW("clone3", syscall(SYS_clone3, 0, 0));
    pid_t p = fork();  /* glibc's fork: clone without namespace flags */
    if (p == 0) _exit(0);
    printf("fork %s\n", p > 0 ? "allowed" : strerrorname_np(errno));
    errno = 0; SHOW("getpid", syscall(SYS_getpid));
    return 0;
}
"""

# A vsock listener: socket, bind to any port, listen; prints each step's outcome.
VSOCK = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <linux/vm_sockets.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
int main(void) {
    int s = socket(AF_VSOCK, SOCK_STREAM, 0);
    if (s < 0) { printf("socket %s\n", strerrorname_np(errno)); return 0; }
    struct sockaddr_vm a = {0};
    a.svm_family = AF_VSOCK; a.svm_cid = VMADDR_CID_ANY; a.svm_port = 47011;
    printf("bind %s\n", bind(s, (struct sockaddr*)&a, sizeof a) ? strerrorname_np(errno) : "allowed");
    printf("listen %s\n", listen(s, 1) ? strerrorname_np(errno) : "allowed");
    return 0;
}
"""


@pytest.fixture(scope="module")
def probes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seccomp-progs")
    for name, source in {"probe": PROBE, "vsock": VSOCK}.items():
        (folder / f"{name}.c").write_text(source)
        subprocess.run(["cc", "-O1", "-o", str(folder / name), str(folder / f"{name}.c")], check=True,
                       capture_output=True)
    return folder


@pytest.fixture(scope="module")
def report(probes, tmp_path_factory) -> dict[str, str]:
    """{call: errno name or 'allowed'} as the probe saw them inside a box."""
    work = tmp_path_factory.mktemp("seccomp-work")
    res = run_box([f"{PROGS}/probe"], work, 30.0, ro_binds={str(probes): PROGS})
    assert res.returncode == 0, res.stderr
    return dict(line.split(" ", 1) for line in res.stdout.splitlines())


FAMILIES = {getattr(socket, name): name for name in dir(socket) if name.startswith("AF_")}


@pytest.mark.parametrize("family", [f for f in range(AF_MAX) if f != socket.AF_UNIX],
                         ids=lambda f: FAMILIES.get(f, f"AF_{f}"))
def test_every_socket_family_but_unix_is_refused(report, family):
    """socket() of the family fails with EAFNOSUPPORT for every socket type, and so does socketpair()."""
    assert report[f"socket:{family}"] == "EAFNOSUPPORT"
    assert report[f"socketpair:{family}"] == "EAFNOSUPPORT"


def test_unix_sockets_still_work(report):
    """AF_UNIX stays: libraries may talk to a local daemon, and socketpair is how some make pipes."""
    assert report[f"socket:{socket.AF_UNIX}"] == "allowed"
    assert report[f"socketpair:{socket.AF_UNIX}"] == "allowed"


def test_vsock_cannot_listen_from_the_box(probes, tmp_path):
    """The reported attack: socket(AF_VSOCK) is refused before any bind or listen."""
    res = run_box([f"{PROGS}/vsock"], tmp_path, 30.0, ro_binds={str(probes): PROGS})
    assert res.stdout.strip() == "socket EAFNOSUPPORT", res.stdout


@pytest.mark.parametrize("call", ["modify_ldt", "kcmp", "move_pages", "get_mempolicy", "mbind", "sysfs", "ustat",
                                  "chroot", "personality:ADDR_NO_RANDOMIZE", "personality:READ_IMPLIES_EXEC",
                                  "clone:CLONE_NEWNET", "clone:CLONE_NEWUSER"])
def test_calls_docker_refuses_are_refused(report, call):
    """Each fails with EPERM, as under Docker's default profile."""
    assert report[call] == "EPERM"


def test_what_programs_need_still_works(report):
    """personality() queries and PER_LINUX, plain fork and getpid are allowed; clone3 says ENOSYS so that
    glibc falls back to clone (its flags can be checked; clone3's live in memory a filter cannot read)."""
    assert report["personality:query"] == "allowed"
    assert report["personality:PER_LINUX"] == "allowed"
    assert report["fork"] == "allowed"
    assert report["getpid"] == "allowed"
    assert report["clone3"] == "ENOSYS"


def test_the_filter_lists_what_docs_name():
    """The refused calls carry the numbers of asm/unistd_64.h (spot checks) and every jump fits."""
    numbers = seccomp.denied_numbers()
    assert {154, 312, 279, 101, 321, 425} <= set(numbers)
    assert seccomp.program() is not None and len(seccomp.program()) % 8 == 0
    assert seccomp.RET_EAFNOSUPPORT & 0xFFFF == errno.EAFNOSUPPORT


def test_docs_security_names_every_refused_call():
    """docs/security.md's seccomp table names every call the filter refuses (so the page stays the list)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "security.md").read_text()
    table = text[text.index("## What the seccomp filter refuses"):text.index("## Logging in")]
    names = {name for group in seccomp.DENIED_X86_64.values() for name in group}
    missing = sorted(n for n in names if f"`{n}`" not in table and not any(
        f"`{prefix}" in table for prefix in ("io_uring_", "kexec_", "fs*", "process_vm_") if n.startswith(prefix.rstrip("*"))))
    assert missing == []
    assert "socket" in table and "AF_UNIX" in table and "personality" in table and "clone3" in table
