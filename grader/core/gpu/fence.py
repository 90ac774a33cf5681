"""The end-of-job mark that a long-lived sanitizer child leaves in compute-sanitizer's log.

A child under compute-sanitizer serves job after job (starting one costs 0.5-1.4 s: the tool's
front end, Python, a CUDA context; a job costs milliseconds). Its log is one stream for all of
its jobs, written by the sanitizer's library inside the child, in program order: measured on an
H200 (docs/gpu-validation.md), a record is in the file by the time the CUDA call that caused it
returns. So after each job, before it answers, the child makes the tool report something of its
own, a *fence*, and the judge takes the records before the fence as that job's report:

- memcheck: a CUDA API call that fails, ``cuCtxSetLimit`` with a limit that does not exist. memcheck
  reports failed API calls ("Program hit CUDA_ERROR_INVALID_VALUE (error 1) ... on CUDA API call
  to cuCtxSetLimit."); the context stays healthy. The student's code makes no API calls, and a
  record of theirs starts with the fault, never with "Program hit".
- racecheck and synccheck report no API errors. Their fence is a kernel with a deliberate hazard
  (a write-write race on one shared word between warps 0 and 1) or a divergent barrier (two
  threads at different ``bar.sync`` instructions), named ``warpdrill_fence_<nonce>``. The nonce is
  a fresh random number per job, known to the judge and sent with the job: a student's kernel
  cannot be named after a fence it cannot predict, so it cannot cut its own report short.

The kernels are PTX (JIT-compiled by the driver for whatever GPU the child has), written for
PTX ISA 7.0 / sm_52 so that any driver since CUDA 11.0 loads them.

This module is imported by the child (standard library only) and by the judge.
"""
from __future__ import annotations

import re
import secrets

FENCE_PREFIX = "warpdrill_fence_"
MEMCHECK_API = "cuCtxSetLimit"
INVALID_LIMIT = 0x7FFFFFF0  # a CUlimit value that no driver defines: CUDA_ERROR_INVALID_VALUE
RACECHECK_BLOCK = (64, 1, 1)  # two warps: lane 0 of each writes the shared word
SYNCCHECK_BLOCK = (2, 1, 1)  # two threads of one warp at different barriers: at most two records

_HEADER = """\
.version 7.0
.target sm_52
.address_size 64
"""

_KERNELS = {"racecheck": """
.visible .entry {name}_race(.param .u64 out)
{{
    .reg .pred %p<3>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    .shared .align 4 .u32 word;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 31;
    setp.ne.s32 %p1, %r2, 0;
    @%p1 bra SKIP_WRITE;
    st.shared.u32 [word], %r1;
SKIP_WRITE:
    setp.ne.s32 %p2, %r1, 0;
    @%p2 bra DONE;
    ld.shared.u32 %r3, [word];
    cvta.to.global.u64 %rd2, %rd1;
    st.global.u32 [%rd2], %r3;
DONE:
    ret;
}}
""", "synccheck": """
.visible .entry {name}_sync(.param .u64 out)
{{
    .reg .pred %p<3>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.eq.s32 %p1, %r1, 0;
    @%p1 bra FIRST;
    bar.sync 0;
    bra.uni JOIN;
FIRST:
    bar.sync 0;
JOIN:
    @!%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r3, 1;
    st.global.u32 [%rd2], %r3;
DONE:
    ret;
}}
"""}

_NONCE = re.compile(r"^[0-9a-f]{16}$")


def new_nonce() -> str:
    """A fresh fence name suffix: 16 lowercase hex digits (64 random bits)."""
    return secrets.token_hex(8)


def kernel_name(nonce: str) -> str:
    """The fence kernels' common name for `nonce` (their entries add "_race" and "_sync").

    Raises ValueError for a nonce that is not 16 hex digits (it becomes a PTX identifier).
    """
    if not _NONCE.match(nonce):
        raise ValueError(f"a fence nonce is 16 lowercase hex digits, not {nonce!r}")
    return FENCE_PREFIX + nonce


def ptx(tool: str, nonce: str) -> str:
    """PTX of `tool`'s fence kernel for `nonce`: one entry (see entry()) taking one u64 pointer
    to 4 bytes of global memory. Raises ValueError as entry() does."""
    entry(tool, nonce)
    return _HEADER + _KERNELS[tool].format(name=kernel_name(nonce))


def entry(tool: str, nonce: str) -> tuple[str, tuple[int, int, int]]:
    """(kernel entry, block shape) of `tool`'s fence kernel. Raises ValueError for memcheck,
    whose fence is an API call, and for an unknown tool."""
    if tool == "racecheck":
        return kernel_name(nonce) + "_race", RACECHECK_BLOCK
    if tool == "synccheck":
        return kernel_name(nonce) + "_sync", SYNCCHECK_BLOCK
    raise ValueError(f"{tool} has no fence kernel")


_API_FENCE = re.compile(r'^Program hit \S+ \(error \d+\) due to ".*" on CUDA API call to '
                        + MEMCHECK_API + r"\.?\s*$")


def is_fence(tool: str, head: str, text: str, nonce: str) -> bool:
    """Whether a record (its first line `head`, all its lines `text`) is the fence of job `nonce`."""
    if tool == "memcheck":
        return bool(_API_FENCE.match(head))
    return (kernel_name(nonce) + "_") in text
