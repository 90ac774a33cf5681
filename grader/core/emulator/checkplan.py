"""The check pass's plan: which of its runs a kernel can need, decided from its source and launch.

A checked run (RunRequest.check) runs the smallest test again plain and page-aligned (underflows
fault), then compiles and runs the kernel under ThreadSanitizer (races.py) and under the
shared-memory initcheck (initcheck.py): for a trivial kernel the last two were most of a grading
(two more compiles and the slowest runs, issue #17). Each of them can only find one kind of thing:

- the initcheck reports reads of `__shared__` memory that no thread wrote: a source that never
  spells `__shared__` has no shared memory to read (only the student's declarations make any:
  include/warpdrill/detail/shared.hpp), so its initcheck could find nothing;
- the race run reports two threads touching one address, one of them writing: a kernel proven to
  touch global memory only at its thread's unique 1-D global id, under a 1-D launch, and with no
  shared memory (racefree.py) has no address two threads touch.

The aligned run (buffers that start at a page, so that a write before one faults) is the check's
underflow check: a kernel proven as above only ever indexes with its global id, which is never
negative, so it has no underflow to find either, and its plan skips that run too.
`full` (the backend's full_check_pass option, WARPDRILL_FULL_CHECK_PASS=1) runs everything as
before, whatever the kernel.
"""
from __future__ import annotations

from dataclasses import dataclass

from .racefree import indexed_by_global_id, launch_is_1d
from .tokens import Token

SHARED_SPELLING = "__shared__"


@dataclass(frozen=True)
class KernelFacts:
    """What the plan needs to know of a kernel's source (kernel_facts)."""

    shared: bool = True  # the source spells __shared__ anywhere (comments and strings included)
    indexed_by_global_id: bool = False  # every global access is p[i], i its thread's 1-D global id


@dataclass(frozen=True)
class CheckPlan:
    """The runs of one check pass beyond its plain run."""

    aligned: bool = True  # run again with page-aligned buffer starts (underflows fault)
    race: bool = True  # compile and run the ThreadSanitizer build (races.py)
    initcheck: bool = True  # compile and run the shared-memory initcheck build (initcheck.py)

    @property
    def variants(self) -> tuple[str, ...]:
        """The builds this plan compiles, in the order they run: of "tsan", "initcheck"."""
        return tuple(v for v, wanted in (("tsan", self.race), ("initcheck", self.initcheck)) if wanted)


FULL = CheckPlan()


def kernel_facts(source: str, tokens: list[Token], kernel_name: str) -> KernelFacts:
    """The facts of the student's `source` (`tokens`: tokens.tokenize(source)) that the plan reads,
    for the `__global__` function `kernel_name`. Never raises on bad code."""
    shared = SHARED_SPELLING in source
    return KernelFacts(shared=shared,
                       indexed_by_global_id=not shared and indexed_by_global_id(tokens, kernel_name))


def plan(facts: KernelFacts, grid: tuple[int, int, int], block: tuple[int, int, int], full: bool = False) -> CheckPlan:
    """The check pass for a kernel with `facts` launched as `grid` x `block` (x, y, z each): FULL when
    `full`, else without the initcheck when there is no shared memory and without the race run when
    no two threads can touch one address, and then without the aligned run either (the kernel
    indexes only with its non-negative global id); the module docstring says why each is safe."""
    if full:
        return FULL
    race_free = facts.indexed_by_global_id and not facts.shared and launch_is_1d(grid, block)
    return CheckPlan(aligned=not race_free, race=not race_free, initcheck=facts.shared)
