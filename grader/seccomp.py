"""A seccomp filter for the sandbox: system calls no compiler, kernel or CUDA program needs fail with EPERM.

The box already has no capabilities and its own namespaces; this filter shrinks the kernel's attack
surface behind them: debugging other processes (ptrace, process_vm_*), kernel keyrings, BPF,
perf events, userfaultfd and io_uring (frequent sources of kernel exploits), namespaces and mounts,
modules, reboot, clocks and raw I/O ports. Anything not listed is allowed, so legitimate tools keep
working. A call from another ABI (x32, or a 32-bit int 0x80 call) is refused or kills the process.

bubblewrap loads the classic-BPF program from a file descriptor (`--seccomp FD`) just before it
starts the command. Only x86-64 has a filter here; elsewhere `program()` returns None.
"""
from __future__ import annotations

import errno
import os
import platform
import struct

# x86-64 system call numbers (asm/unistd_64.h), grouped by why they are refused.
DENIED_X86_64 = {
    "debugging other processes": {"ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311},
    "kernel attack surface": {"bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "keyctl": 250,
                              "add_key": 248, "request_key": 249, "io_uring_setup": 425, "io_uring_enter": 426,
                              "io_uring_register": 427, "lookup_dcookie": 212, "fanotify_init": 300,
                              "open_by_handle_at": 304, "name_to_handle_at": 303},
    "namespaces and mounts": {"unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
                              "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
                              "fspick": 433, "mount_setattr": 442},
    "the machine itself": {"kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313,
                           "delete_module": 176, "reboot": 169, "swapon": 167, "swapoff": 168, "acct": 163,
                           "quotactl": 179, "syslog": 103, "vhangup": 153, "iopl": 172, "ioperm": 173,
                           "settimeofday": 164, "clock_settime": 227, "adjtimex": 159, "clock_adjtime": 305},
}

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
# Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
LD_W_ABS, JEQ_K, JGE_K, RET_K = 0x20, 0x15, 0x35, 0x06
RET_KILL_PROCESS, RET_ALLOW = 0x80000000, 0x7FFF0000
RET_EPERM = 0x00050000 | errno.EPERM
NR_OFFSET, ARCH_OFFSET = 0, 4  # offsets in struct seccomp_data


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def denied_numbers() -> list[int]:
    return sorted({nr for group in DENIED_X86_64.values() for nr in group.values()})


def program() -> bytes | None:
    """The filter as bytes of struct sock_filter, or None on an architecture without one."""
    if platform.machine() != "x86_64":
        return None
    denied = denied_numbers()
    n = len(denied)
    code = [
        _insn(LD_W_ABS, ARCH_OFFSET),
        _insn(JEQ_K, AUDIT_ARCH_X86_64, jt=1),  # another architecture (int 0x80): kill
        _insn(RET_K, RET_KILL_PROCESS),
        _insn(LD_W_ABS, NR_OFFSET),
        _insn(JGE_K, X32_SYSCALL_BIT, jt=0, jf=1),  # the x32 ABI: refuse
        _insn(RET_K, RET_EPERM),
    ]
    for i, nr in enumerate(denied):
        code.append(_insn(JEQ_K, nr, jt=n - i))  # jump to the final EPERM
    code += [_insn(RET_K, RET_ALLOW), _insn(RET_K, RET_EPERM)]
    return b"".join(code)


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
