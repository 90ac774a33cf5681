"""ptxas's limit on a kernel's static shared memory, checked on the emulator's linked binary.

Plain Python (no Django): the backend (backends/emulator.py) asks after a successful compile.
"""
from __future__ import annotations

import re

from .. import messages as M
from ..results import CompileMessage

# Static shared memory a block may declare (ptxas: "uses too much shared data (... 0xc000 max)").
MAX_STATIC_SHARED = 0xC000
# The symbol every static __shared__ declaration instantiates (detail/shared.hpp): site, line, bytes.
_SHARED_SITE = re.compile(rb"_ZN2wd14wd_shared_siteILi(\d+)ELi(\d+)ELy(\d+)EE6wd_tagE")


def static_shared_problem(binary: bytes, other_kernel_sites: set[int], kernel: str) -> CompileMessage | None:
    """ptxas's compile error when the kernel's static __shared__ declarations total more than 48 KiB.

    The sizes come from the linked `binary`'s symbol names (so the binary must keep its symbol table,
    local symbols included: stripping it would silently disable this check; test_valid_cuda.py
    catches that). One symbol per declaration and instantiation; the
    largest instantiation of a site counts); `other_kernel_sites` (rewrite.Rewritten) are
    declarations inside other __global__ functions, which are not this kernel's. The message names
    the line of the declaration that crosses the limit.
    """
    sites: dict[int, tuple[int, int]] = {}  # site -> (bytes, line)
    for m in _SHARED_SITE.finditer(binary):
        site, line, size = (int(g) for g in m.groups())
        if site not in other_kernel_sites and size > sites.get(site, (-1, 0))[0]:
            sites[site] = (size, line)
    total, crossing = 0, None
    for site in sorted(sites):
        total += sites[site][0]
        if crossing is None and total > MAX_STATIC_SHARED:
            crossing = sites[site][1]
    if crossing is None:
        return None
    return CompileMessage(crossing, None, "error",
                          M.COMPILE_MESSAGE["too_much_shared"](kernel=kernel, hex=f"{total:#x}", bytes=total))
