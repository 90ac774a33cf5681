"""A seccomp filter for the sandbox: system calls no compiler, kernel or CUDA program needs are refused.

The box already has no capabilities and its own namespaces; this filter shrinks the kernel's attack
surface behind them. Refused with EPERM: debugging other processes (ptrace, process_vm_*, kcmp,
pidfd_getfd), kernel keyrings, BPF, perf events, userfaultfd and io_uring (frequent sources of kernel
exploits), namespaces and mounts, modules, reboot, clocks, raw I/O ports and the LDT, NUMA policy
calls that move other processes' memory, and obsolete calls: the list of Docker's default profile and
more (DENIED_X86_64). Three calls are refused by their arguments:

- `socket` and `socketpair` for every address family but AF_UNIX (EAFNOSUPPORT, as for a family the
  kernel lacks). The network namespace hides the host's IP networks, but not every family is
  per-namespace: AF_VSOCK reaches the hypervisor and the host's vsock listeners from any namespace,
  and AF_NETLINK, AF_PACKET, AF_BLUETOOTH, AF_ALG, AF_KEY... are kernel attack surface no kernel needs.
  Nothing the box runs (g++, the emulator, ThreadSanitizer, a CUDA process) opens an IP socket;
  AF_UNIX stays for libraries that talk to a local daemon (the CUDA driver to nvidia-persistenced).
- `personality` only with the values Docker allows (query, PER_LINUX, PER_LINUX32 and their
  UNAME26 variants): no ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC and the like.
- `clone` with any CLONE_NEW* flag (EPERM); `clone3`, whose flags live in memory a filter cannot
  read, gets ENOSYS, and glibc falls back to `clone` (as under Docker).

Anything not listed is allowed, so legitimate tools keep working. A call from another ABI (x32)
is refused, a 32-bit int 0x80 call kills the process.

bubblewrap loads the classic-BPF program from a file descriptor (`--seccomp FD`) just before it
starts the command. Only x86-64 has a filter here; elsewhere `program()` returns None.
docs/security.md lists what is refused and why.
"""
from __future__ import annotations

import errno
import os
import platform
import socket
import struct

# x86-64 system call numbers (asm/unistd_64.h), grouped by why they are refused with EPERM.
DENIED_X86_64 = {
    "debugging other processes": {"ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
                                  "pidfd_getfd": 438, "process_madvise": 440},
    "kernel attack surface": {"bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "keyctl": 250,
                              "add_key": 248, "request_key": 249, "io_uring_setup": 425, "io_uring_enter": 426,
                              "io_uring_register": 427, "lookup_dcookie": 212, "fanotify_init": 300,
                              "open_by_handle_at": 304, "name_to_handle_at": 303, "modify_ldt": 154},
    "namespaces and mounts": {"unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
                              "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
                              "fspick": 433, "mount_setattr": 442, "chroot": 161},
    "the machine itself": {"kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313,
                           "delete_module": 176, "reboot": 169, "swapon": 167, "swapoff": 168, "acct": 163,
                           "quotactl": 179, "quotactl_fd": 443, "syslog": 103, "vhangup": 153, "iopl": 172,
                           "ioperm": 173, "settimeofday": 164, "clock_settime": 227, "adjtimex": 159,
                           "clock_adjtime": 305, "sethostname": 170, "setdomainname": 171},
    "other processes' memory (NUMA)": {"mbind": 237, "set_mempolicy": 238, "get_mempolicy": 239,
                                       "migrate_pages": 256, "move_pages": 279, "set_mempolicy_home_node": 450},
    "obsolete": {"uselib": 134, "ustat": 136, "sysfs": 139, "_sysctl": 156, "create_module": 174,
                 "get_kernel_syms": 177, "query_module": 178, "nfsservctl": 180},
}
# Refused by their arguments (see the module docstring).
NR_SOCKET, NR_SOCKETPAIR, NR_PERSONALITY, NR_CLONE, NR_CLONE3 = 41, 53, 135, 56, 435
ALLOWED_FAMILIES = {"AF_UNIX": socket.AF_UNIX}
# personality(2) values Docker's default profile allows: PER_LINUX, UNAME26, PER_LINUX32,
# PER_LINUX32 | UNAME26, and 0xffffffff (which only queries).
ALLOWED_PERSONALITIES = (0x0, 0x0020000, 0x0008, 0x0020008, 0xFFFFFFFF)
CLONE_NEW_FLAGS = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
# Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
LD_W_ABS, JEQ_K, JGE_K, JSET_K, RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
RET_KILL_PROCESS, RET_ALLOW, RET_ERRNO = 0x80000000, 0x7FFF0000, 0x00050000
RET_EPERM = RET_ERRNO | errno.EPERM
RET_EAFNOSUPPORT = RET_ERRNO | errno.EAFNOSUPPORT
RET_ENOSYS = RET_ERRNO | errno.ENOSYS
NR_OFFSET, ARCH_OFFSET, ARG0_OFFSET = 0, 4, 16  # offsets in struct seccomp_data (args[0]'s low 32 bits)


def denied_numbers() -> list[int]:
    """Every system call number refused outright (EPERM), sorted."""
    return sorted({nr for group in DENIED_X86_64.values() for nr in group.values()})


def _assemble(items: list[tuple]) -> bytes:
    """Classic BPF from (label,) markers and (code, k, jt, jf) instructions whose jumps name labels.

    A jump to None falls through to the next instruction. Jumps go forward only, at most 255.
    """
    labels, code = {}, []
    for item in items:
        if len(item) == 1:
            labels[item[0]] = len(code)
        else:
            code.append(item)
    out = []
    for i, (op, k, jt, jf) in enumerate(code):
        offsets = [0 if target is None else labels[target] - (i + 1) for target in (jt, jf)]
        if any(not 0 <= off <= 255 for off in offsets):
            raise ValueError(f"seccomp: a jump of instruction {i} is out of range: {offsets}")
        out.append(struct.pack("=HBBI", op, offsets[0], offsets[1], k))
    return b"".join(out)


def program() -> bytes | None:
    """The filter as bytes of struct sock_filter, or None on an architecture without one."""
    if platform.machine() != "x86_64":
        return None
    items: list[tuple] = [
        (LD_W_ABS, ARCH_OFFSET, None, None),
        (JEQ_K, AUDIT_ARCH_X86_64, "native", None),
        (RET_K, RET_KILL_PROCESS, None, None),  # another architecture (int 0x80): kill
        ("native",),
        (LD_W_ABS, NR_OFFSET, None, None),
        (JGE_K, X32_SYSCALL_BIT, "eperm", None),  # the x32 ABI: refuse
    ]
    items += [(JEQ_K, nr, "eperm", None) for nr in denied_numbers()]
    items += [
        (JEQ_K, NR_SOCKET, "socket", None),
        (JEQ_K, NR_SOCKETPAIR, "socket", None),
        (JEQ_K, NR_PERSONALITY, "personality", None),
        (JEQ_K, NR_CLONE, "clone", None),
        (JEQ_K, NR_CLONE3, "enosys", None),
        (RET_K, RET_ALLOW, None, None),
        ("socket",),
        (LD_W_ABS, ARG0_OFFSET, None, None),
        *[(JEQ_K, family, "allow", None) for family in ALLOWED_FAMILIES.values()],
        (RET_K, RET_EAFNOSUPPORT, None, None),
        ("personality",),
        (LD_W_ABS, ARG0_OFFSET, None, None),
        *[(JEQ_K, value, "allow", None) for value in ALLOWED_PERSONALITIES],
        (RET_K, RET_EPERM, None, None),
        ("clone",),
        (LD_W_ABS, ARG0_OFFSET, None, None),
        (JSET_K, CLONE_NEW_FLAGS, "eperm", None),
        ("allow",),
        (RET_K, RET_ALLOW, None, None),
        ("eperm",),
        (RET_K, RET_EPERM, None, None),
        ("enosys",),
        (RET_K, RET_ENOSYS, None, None),
    ]
    return _assemble(items)


def program_fd() -> int | None:
    """A readable file descriptor holding the filter (the caller passes it on and closes it)."""
    data = program()
    if data is None:
        return None
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, data)  # a few hundred bytes: far below a pipe's buffer
    finally:
        os.close(write_end)
    return read_end
