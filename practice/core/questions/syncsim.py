"""A small interpreter for the barrier snippets of the synchronization questions.

A snippet is a list of statements (plain lines with their shared/global accesses, if/else, for
loops, __syncthreads, __syncwarp, return, spin-waits on a flag). `simulate` runs every thread of one
block as a generator and decides, by the rules of the CUDA programming model and what was measured
on an H200 (shared/CONTENT.md), what the snippet is:

- DEADLOCK   live threads wait forever: e.g. a warp spins on a flag that is set only after a barrier
             the spinners never reach (the only case that really hangs on the hardware);
- DIVERGENT  all live threads wait at barriers, but not at the same __syncthreads() (barriers in both
             branches, a barrier some threads skip and then meet another): undefined behaviour — it may
             even complete on the hardware, compute-sanitizer's synccheck flags it;
- RACE       two threads access the same shared/global address, at least one writes (atomics among
             themselves excepted), with no __syncthreads (or, within a warp, __syncwarp) between them;
- CORRECT    otherwise. Exited threads do not count at a barrier: `if (t < 128) __syncthreads();` with
             the other threads returning completes and is legal.

The accesses are the snippet's own declaration (each line says what it reads and writes per thread),
so the answer is computed from the program's structure, never typed in. Independent thread
scheduling is assumed (Volta+): lanes of a warp are not in lock-step.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

Addr = tuple  # ("s", 5), ("out", 3), ("hist", 2)
Access = Callable[["Ctx"], list[Addr]]


class Outcome(enum.StrEnum):
    CORRECT = "correct"  # well-defined and race-free
    RACE = "race"  # a data race on shared or global memory
    DIVERGENT = "divergent"  # a barrier not reached uniformly: undefined behaviour
    DEADLOCK = "deadlock"  # threads wait forever (a real hang)


@dataclass
class Ctx:
    """One thread's view: its index, the block size and its local variables."""

    tid: int
    block: int
    env: dict[str, Any] = field(default_factory=dict)

    @property
    def lane(self) -> int:
        return self.tid % 32

    @property
    def warp(self) -> int:
        return self.tid // 32


class Stmt:
    def render(self, indent: int) -> list[tuple[str, Stmt]]:
        raise NotImplementedError

    def run(self, ctx: Ctx, sim: _Sim) -> Iterator[tuple]:
        raise NotImplementedError


@dataclass(eq=False)
class Line(Stmt):
    """A statement with the addresses it reads, writes and updates atomically (per thread), and an
    optional action on the thread's variables or the block's flags."""

    text: str
    reads: Access | None = None
    writes: Access | None = None
    atomics: Access | None = None
    action: Callable[[Ctx, _Sim], None] | None = None

    def render(self, indent):
        return [("    " * indent + self.text, self)]

    def run(self, ctx, sim):
        for kind, fn in (("r", self.reads), ("w", self.writes), ("a", self.atomics)):
            if fn is not None:
                for addr in fn(ctx):
                    sim.record(ctx.tid, kind, addr, self)
        if self.action is not None:
            self.action(ctx, sim)
        return iter(())


@dataclass(eq=False)
class If(Stmt):
    cond_text: str
    cond: Callable[[Ctx], bool]
    then: list[Stmt]
    orelse: list[Stmt] = field(default_factory=list)
    one_line: bool = False  # render `if (c) stmt;` on one line (single plain statement, no else)

    def render(self, indent):
        pad = "    " * indent
        if self.one_line and len(self.then) == 1 and not self.orelse:
            text, stmt = self.then[0].render(0)[0]
            return [(f"{pad}if ({self.cond_text}) {text}", stmt)]
        out = [(f"{pad}if ({self.cond_text}) {{", self)]
        for s in self.then:
            out += s.render(indent + 1)
        if self.orelse:
            out.append((f"{pad}}} else {{", self))
            for s in self.orelse:
                out += s.render(indent + 1)
        out.append((f"{pad}}}", self))
        return out

    def run(self, ctx, sim):
        for s in self.then if self.cond(ctx) else self.orelse:
            yield from s.run(ctx, sim)


@dataclass(eq=False)
class For(Stmt):
    header: str  # "for (int k = blockDim.x / 2; k > 0; k >>= 1)"
    var: str
    values: Callable[[Ctx], list[int]]
    body: list[Stmt]

    def render(self, indent):
        pad = "    " * indent
        out = [(f"{pad}{self.header} {{", self)]
        for s in self.body:
            out += s.render(indent + 1)
        out.append((f"{pad}}}", self))
        return out

    def run(self, ctx, sim):
        for v in self.values(ctx):
            ctx.env[self.var] = v
            for s in self.body:
                yield from s.run(ctx, sim)


class _Event(Stmt):
    text = ""

    def render(self, indent):
        return [("    " * indent + self.text, self)]


@dataclass(eq=False)
class SyncThreads(_Event):
    text: str = "__syncthreads();"

    def run(self, ctx, sim):
        yield ("barrier", self)


@dataclass(eq=False)
class SyncWarp(_Event):
    text: str = "__syncwarp();"

    def run(self, ctx, sim):
        yield ("warp", self)


@dataclass(eq=False)
class Return(_Event):
    text: str = "return;"

    def run(self, ctx, sim):
        yield ("exit", self)


@dataclass(eq=False)
class SpinUntil(_Event):
    """`while (flag == 0) { }` on a volatile flag: waits until another thread sets it."""

    flag: str = "ready"
    text: str = ""

    def __post_init__(self):
        self.text = self.text or f"while ({self.flag} == 0) {{ }}"

    def run(self, ctx, sim):
        if not sim.flags.get(self.flag):
            yield ("spin", self)


@dataclass(eq=False)
class Slot(_Event):
    """A place where a barrier may go, shown as `// (A)`; when active it is a __syncthreads()."""

    label: str = "A"
    active: bool = False

    def render(self, indent):
        pad = "    " * indent
        return [(pad + ("__syncthreads();" if self.active else f"// ({self.label})"), self)]

    def run(self, ctx, sim):
        if self.active:
            yield ("barrier", self)


def set_flag(name: str) -> Callable[[Ctx, _Sim], None]:
    def action(ctx: Ctx, sim: _Sim) -> None:
        sim.flags[name] = 1
    return action


def set_var(name: str, fn: Callable[[Ctx], Any]) -> Callable[[Ctx, _Sim], None]:
    def action(ctx: Ctx, sim: _Sim) -> None:
        ctx.env[name] = fn(ctx)
    return action


@dataclass
class SimResult:
    outcome: Outcome
    # Where: for RACE two (thread, kind, stmt) accesses to `address`; for DIVERGENT the barrier statements
    # and a thread waiting at each; for DEADLOCK the spin and the barrier statements and example threads.
    address: Addr | None = None
    first: tuple[int, str, Stmt] | None = None
    second: tuple[int, str, Stmt] | None = None
    waits: list[tuple[Stmt, list[int]]] = field(default_factory=list)


class _Sim:
    def __init__(self, block: int):
        self.block = block
        self.flags: dict[str, int] = {}
        self.bgen = [0] * block  # block barriers passed
        self.wgen = [0] * block  # warp barriers passed
        self.accesses: dict[Addr, list[tuple[int, str, int, int, Stmt]]] = {}

    def record(self, tid: int, kind: str, addr: Addr, stmt: Stmt) -> None:
        self.accesses.setdefault(addr, []).append((tid, kind, self.bgen[tid], self.wgen[tid], stmt))

    def find_race(self) -> SimResult | None:
        for addr, acc in self.accesses.items():
            writers = [a for a in acc if a[1] in ("w", "a")]
            for w in writers:
                for o in acc:
                    if o[0] == w[0] or (w[1] == "a" and o[1] == "a"):
                        continue
                    ordered = w[2] != o[2] or (w[0] // 32 == o[0] // 32 and w[3] != o[3])
                    if not ordered:
                        first, second = sorted([w, o], key=lambda a: a[0])
                        return SimResult(Outcome.RACE, addr, (first[0], first[1], first[4]),
                                         (second[0], second[1], second[4]))
        return None


def simulate(body: list[Stmt], block: int, env: dict[str, Any] | None = None, max_rounds: int = 100_000) -> SimResult:
    """Run one block of `block` threads over `body` and classify it (see the module docstring)."""
    sim = _Sim(block)
    ctxs = [Ctx(t, block, dict(env or {})) for t in range(block)]

    def thread(ctx: Ctx) -> Iterator[tuple]:
        for s in body:
            for ev in s.run(ctx, sim):
                yield ev
                if ev[0] == "exit":
                    return

    gens = [thread(c) for c in ctxs]
    state: list[tuple] = [("run",)] * block
    for _ in range(max_rounds):
        progressed = False
        for t in range(block):
            st = state[t]
            if st[0] == "spin" and sim.flags.get(st[1].flag):
                st = ("run",)
            if st[0] != "run":
                continue
            progressed = True
            ev = next(gens[t], ("exit", None))
            state[t] = ("done",) if ev[0] == "exit" else ev
        # Warp barriers: released when every live lane of the warp waits at one (any __syncwarp site).
        for w in range(0, block, 32):
            lanes = [t for t in range(w, min(w + 32, block)) if state[t][0] != "done"]
            if lanes and all(state[t][0] == "warp" for t in lanes):
                for t in lanes:
                    sim.wgen[t] += 1
                    state[t] = ("run",)
                progressed = True
        live = [t for t in range(block) if state[t][0] != "done"]
        if live and all(state[t][0] == "barrier" for t in live):
            sites: dict[int, tuple[Stmt, list[int]]] = {}
            for t in live:
                sites.setdefault(id(state[t][1]), (state[t][1], []))[1].append(t)
            if len(sites) > 1:
                return SimResult(Outcome.DIVERGENT, waits=list(sites.values()))
            for t in live:
                sim.bgen[t] += 1
                state[t] = ("run",)
            progressed = True
        if not live:
            race = sim.find_race()
            return race or SimResult(Outcome.CORRECT)
        if not progressed:
            groups: dict[int, tuple[Stmt, list[int]]] = {}
            for t in live:
                groups.setdefault(id(state[t][1]), (state[t][1], []))[1].append(t)
            if any(state[t][0] == "spin" for t in live):
                return SimResult(Outcome.DEADLOCK, waits=list(groups.values()))
            return SimResult(Outcome.DIVERGENT, waits=list(groups.values()))
    raise RuntimeError("simulation did not finish")


def render(header: list[str], body: list[Stmt], footer: str = "}") -> tuple[str, dict[int, int]]:
    """The kernel's source, and a map id(stmt) -> 1-based line number of its first line."""
    lines = list(header)
    where: dict[int, int] = {}
    for s in body:
        for text, stmt in s.render(1):
            lines.append(text)
            where.setdefault(id(stmt), len(lines))
    lines.append(footer)
    return "\n".join(lines), where
