"""occupancy.ptxas: the registers and shared memory are read back off the rendered ptxas lines with a regex and the
blocks per SM recomputed from the textbook rules written out in test_generators (not the model)."""
import re
from collections import Counter

import pytest

from problems.core.gpus import capability, gpu
from practice.core.questions import generate

from .familycheck import assert_family_basics, assert_not_guessable, questions
from .test_generators import reference_blocks

USED = re.compile(r"Used (\d+) registers, used 1 barriers(?:, (\d+) bytes smem)?")


def read_report(q):
    """(cc, threads, regs, smem) from what the student sees: the ptxas lines and the launch line."""
    blocks = q.render("en")["prompt"]
    text = "\n".join(b["text"] for b in blocks if b["kind"] == "code")
    m = USED.search(text)
    launch = re.search(r"<<<grid, (\d+)(?:, (\d+))?>>>", text)
    sm = re.search(r"for 'sm_(\d)(\d)'", text)
    smem = int(m.group(2) or 0) + int(launch.group(2) or 0)
    return f"{sm.group(1)}.{sm.group(2)}", int(launch.group(1)), int(m.group(1)), smem


def test_basics():
    assert_family_basics("occupancy.ptxas")


@pytest.mark.parametrize("difficulty", [1, 2])
def test_blocks_from_the_printed_report(difficulty):
    for q in questions("occupancy.ptxas", difficulty, range(150)):
        cc, th, rg, sm = read_report(q)
        assert cc == gpu(q.params["gpu"]).cc
        blocks = reference_blocks(cc, th, rg, sm)
        assert q.answer["blocks"] == blocks > 0
        assert q.answer["occupancy"] == pytest.approx(blocks * -(-th // 32) / capability(cc).max_warps_per_sm)


def test_register_budget_by_search():
    for q in questions("occupancy.ptxas", 3, range(150)):
        cc, th, rg, sm = read_report(q)
        now = reference_blocks(cc, th, rg, sm)
        want = q.params["want_blocks"]
        assert want == now + 1
        ok = [r for r in range(1, 256) if reference_blocks(cc, th, r, sm) >= want]
        assert q.answer["regs"] == max(ok) < rg
        got = reference_blocks(cc, th, max(ok), sm)
        assert q.answer["occupancy"] == pytest.approx(got * -(-th // 32) / capability(cc).max_warps_per_sm)


def test_answers_spread_and_target_cc():
    for d in (1, 2, 3):
        qs = questions("occupancy.ptxas", d)
        key = "regs" if d == 3 else "blocks"
        assert_not_guessable([q.answer[key] for q in qs], 4)
    ccs = Counter(gpu(generate("occupancy.ptxas", s, 2, target_cc="8.6").params["gpu"]).cc for s in range(30))
    assert set(ccs) == {"8.6"}
