"""The textbook occupancy model beside the exact one: the textbook division written here, the exact rules
written out apart from problems.core.occupancy (registers per warp in 256s over 4 sub-partitions, shared
memory in units plus the per-block reservation, the default carveout)."""
import pytest

from practice.core.questions import family
from problems.core.gpus import capability

from .familycheck import assert_family_basics, questions


def test_basics():
    assert_family_basics("occupancy.textbook")


def textbook(max_threads, max_blocks, regs_sm, smem_sm, threads, regs, smem):
    limits = [max_threads // threads, max_blocks, regs_sm // (regs * threads)]
    if smem:
        limits.append(smem_sm // smem)
    return min(limits)


def exact(cc, threads, regs, smem):
    c = capability(cc)
    w = -(-threads // 32)
    per_warp = -(-regs * 32 // 256) * 256
    limits = [c.max_warps_per_sm // w, c.max_blocks_per_sm, (c.regs_per_sm // 4 // per_warp) * 4 // w]
    if smem:
        alloc = -(-(smem + c.smem_reserved_per_block) // c.smem_alloc_unit) * c.smem_alloc_unit
        # The driver picks the smallest carveout that holds as many blocks as the largest one does.
        limits.append(c.smem_per_sm // alloc)
    return min(limits)


def test_paper_sm_by_division():
    for q in questions("occupancy.textbook", 1):
        mt, mb, rs, ss = q.params["sm"]
        b = textbook(mt, mb, rs, ss, q.params["threads"], q.params["regs"], q.params["smem"])
        assert q.answer["blocks"] == b
        assert q.answer["occupancy"] == pytest.approx(b * q.params["threads"] / mt, abs=1e-6)


def test_both_models_and_they_differ_often():
    differ = 0
    for q in questions("occupancy.textbook", 2):
        c = capability(q.params["cc"])
        args = q.params["threads"], q.params["regs"], q.params["smem"]
        assert q.answer["textbook"] == textbook(c.max_threads_per_sm, c.max_blocks_per_sm, c.regs_per_sm,
                                                c.smem_per_sm, *args)
        assert q.answer["exact"] == exact(c.cc, *args)
        differ += q.answer["textbook"] != q.answer["exact"]
    assert 0.2 < differ / 300 < 0.8  # a student cannot assume the two always agree, nor always differ


def test_brief_example_256_threads_34_registers():
    """256 threads × 34 registers on cc 8.0: 7 blocks in the textbook, 6 exactly."""
    q = family("occupancy.textbook").build({"model": "both", "cc": "8.0", "threads": 256, "regs": 34, "smem": 0,
                                            "difficulty": 2})
    assert q.answer == {"textbook": 7, "exact": 6}


def test_register_budget_by_brute_force():
    for q in questions("occupancy.textbook", 3, range(120)):
        c = capability(q.params["cc"])
        th, k = q.params["threads"], q.params["blocks"]
        tb = max(r for r in range(1, 256) if textbook(c.max_threads_per_sm, c.max_blocks_per_sm, c.regs_per_sm,
                                                       c.smem_per_sm, th, r, 0) >= k)
        ex = max(r for r in range(1, 256) if exact(c.cc, th, r, 0) >= k)
        assert (q.answer["textbook"], q.answer["exact"]) == (tb, ex)
