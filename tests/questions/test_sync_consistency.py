"""The synchronization families' keys agree with the judge (docs/synchronization.md).

Every snippet `synchronization.classify` and `synchronization.place_barrier` can show (all
difficulties over a few hundred seeds) is compiled and run by the emulator in check mode; the
family's key must equal the emulator's class:

    DEADLOCK status -> "deadlock";  a divergent barrier or warp-mask finding -> "divergent";
    a race finding -> "race";       otherwise (notes allowed) -> "correct".

For place_barrier the right option must be "correct" and every wrong one must get the class the
family's worked solution gives it. Identical programs are judged once: the shared array's size is
normalised (`s[N]` -> `s[1024]`, the same kernel for every block size), and the emulator's own
binary cache keeps later runs fast. The grid-sync family is judged in test_sync_consistency_grid.py,
the bank's synchronization statements in test_sync_consistency_bank.py.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from grader.core.backends.base import ArgRole, ArgSpec, KernelSpec, LaunchConfig, RunRequest, RunStatus
from grader.core.backends.emulator import EmulatorBackend
from practice.core.questions import generate
from practice.core.questions import snippets as S
from practice.core.questions.synchronization import PlaceBarrier, _slots
from practice.core.questions.syncsim import render

pytestmark = pytest.mark.slow

SEEDS = range(300)
SHARED = re.compile(r"__shared__ float s\[\d+\];")


def _spec(flag: bool) -> KernelSpec:
    args = [ArgSpec("in", ArgRole.IN, "float32"), ArgSpec("out", ArgRole.OUT, "float32"),
            ArgSpec("n", ArgRole.SCALAR, "int32")]
    if flag:
        args.append(ArgSpec("ready", ArgRole.INOUT, "int32"))
    return KernelSpec("kernel", tuple(args))


def _class(outcome) -> str:
    if outcome.status is RunStatus.DEADLOCK:
        return "deadlock"
    kinds = {str(d.kind) for d in outcome.diagnostics}
    if kinds & {"divergent_barrier", "warp_mask"}:
        return "divergent"
    if "race" in kinds:
        return "race"
    assert outcome.status is RunStatus.OK, (outcome.status, outcome.message)
    return "correct"


class Judge:
    """One emulator backend, one build per distinct program, one run per (program, block, n)."""

    def __init__(self):
        self.backend = EmulatorBackend()
        self.builds: dict[str, object] = {}
        self.classes: dict[tuple, str] = {}

    def classify(self, src: str, block: int, n: int) -> str:
        src = SHARED.sub("__shared__ float s[1024];", src)
        # n changes the run only through `n > limit` conditions and the tail guards of a partial block.
        key = (src, block, n if ("n >" in src or n < block) else None)
        if key not in self.classes:
            flag = "volatile int* ready" in src
            if src not in self.builds:
                build = self.backend.compile(src, _spec(flag))
                assert build.compile.ok, (src, build.compile.log)
                self.builds[src] = build
            inputs = {"in": (np.arange(1024) % 97).astype(np.float32), "out": np.zeros(1024, np.float32), "n": n}
            if flag:
                inputs["ready"] = np.zeros(1, np.int32)
            # One block: the snippets synchronise within a block, and a partial block (n < block) is
            # the tail the guards are for.
            request = RunRequest(LaunchConfig((1, 1, 1), (block, 1, 1), 0), inputs, time_limit_s=10.0, check=True,
                                 test_name="consistency")
            self.classes[key] = _class(self.backend.run(self.builds[src], request))
        return self.classes[key]

    def close(self):
        for build in self.builds.values():
            self.backend.close(build)


@pytest.fixture(scope="module")
def judge():
    j = Judge()
    yield j
    j.close()


def _code(q) -> str:
    return next(b["text"] for b in q.render("en")["prompt"] if b["kind"] == "code")


def test_classify_keys_equal_the_emulators_class(judge):
    """Each distinct classify snippet (3 difficulties x 300 seeds) gets, from the emulator, the class it is keyed."""
    seen: dict[tuple, str] = {}
    for d in (1, 2, 3):
        for seed in SEEDS:
            q = generate("synchronization.classify", seed, d)
            seen.setdefault((_code(q), q.params["block"], q.params["n"]), q.answer["outcome"])
    wrong = [(key, got) for key, want in seen.items() if (got := judge.classify(*key)) != want]
    assert not wrong, "\n\n".join(f"keyed {seen[k]}, emulator says {got}:\n{k[0]}" for k, got in wrong[:3])
    assert set(seen.values()) == {"correct", "race", "divergent", "deadlock"}


def test_place_barrier_options_equal_the_emulators_class(judge):
    """The right placement is "correct" on the emulator and each wrong one gets the class the solution names."""
    checked = set()
    for d in (1, 2, 3):
        for seed in range(0, 300, 5):
            q = generate("synchronization.place_barrier", seed, d)
            params = q.params
            body, offered, results = PlaceBarrier.evaluate(params)
            builder, _, extra = S.PLACE[params["snippet"]]
            for option in offered:
                trial = builder(params["block"], **params["args"])
                for slot in _slots(trial):
                    slot.active = slot.label in option
                src, _ = render(S.header(params["block"], extra), trial)
                key = (SHARED.sub("", src), params["block"])
                if key in checked:
                    continue
                checked.add(key)
                got = judge.classify(src, params["block"], 5000)
                assert got == str(results[option].outcome), (option, src)


def test_prompt_n_guards_hold_on_a_partial_block(judge):
    """A correct snippet stays correct on a block that the prompt's n cuts short (n = 500, 512 threads)."""
    q = generate("synchronization.classify", 0, 1)
    src = S.header(512, []) + ["    s[t] = (gid < n) ? in[gid] : 0.0f;", "    __syncthreads();",
                               "    if (gid < n) out[gid] = s[(t + 1) % blockDim.x];", "}"]
    assert q is not None
    assert judge.classify("\n".join(src), 512, 500) == "correct"


def test_spin_wait_statement_says_how_the_deadlock_is_found():
    """spin-wait-deadlock's statements no longer say the emulator *proves* the spin deadlock: its
    detail says proven: false (a no-progress window), and the statements say which it is."""
    root = Path(__file__).resolve().parents[2] / "problems" / "bank" / "spin-wait-deadlock"
    en = (root / "statement.md").read_text()
    ko = (root / "statement.ko.md").read_text()
    assert "proven: false" in en and "emulator proves" not in en
    assert "proven: false" in ko and "증명합니다" not in ko
