"""The occupancy model against the seed's worked examples (cc 8.6) and the CUDA limits."""
import pytest

from problems.core.gpus import CAPABILITIES, UnknownGPUError, capability, gpu
from problems.core.occupancy import (
    Limiter,
    OccupancyInputError,
    max_dynamic_smem_for,
    max_registers_for,
    occupancy,
    occupancy_for_resources,
    series,
)


@pytest.mark.parametrize(
    ("regs", "blocks", "occ", "limiter"),
    [
        (32, 6, 1.0, Limiter.WARPS),
        (40, 6, 1.0, Limiter.WARPS),
        (41, 5, 40 / 48, Limiter.REGISTERS),
        (96, 2, 16 / 48, Limiter.REGISTERS),
    ],
)
def test_seed_examples_cc86_256_threads_2kib(regs, blocks, occ, limiter):
    """A 256-thread block with 2 KiB of shared memory on cc 8.6: 32/40 regs -> 6 blocks, 41 -> 5, 96 -> 2."""
    r = occupancy("8.6", 256, regs, 2048)
    assert r.blocks_per_sm == blocks
    assert r.occupancy == pytest.approx(occ)
    assert r.limiter is limiter
    assert r.active_warps == blocks * 8
    assert r.max_warps == 48


def test_register_cliff_working_matches_the_seed():
    """41 registers: 41*32 = 1312 rounds up to 1536 per warp, 40 warps per SM, 5 blocks."""
    r = occupancy("8.6", 256, 41, 2048)
    assert r.regs_per_warp == 1536
    assert r.limits[Limiter.REGISTERS] == 5
    formulas = [s.formula for s in r.steps]
    assert "⌈41 × 32 / 256⌉ × 256 = 1536" in formulas
    assert "⌊16384 / 1536⌋ × 4 = 40" in formulas
    assert r.limiters == (Limiter.REGISTERS,)


def test_tie_lists_every_binding_resource():
    """At 40 registers warps and registers both allow exactly 6 blocks."""
    r = occupancy("8.6", 256, 40, 2048)
    assert r.limiters == (Limiter.WARPS, Limiter.REGISTERS)


def test_small_blocks_hit_the_block_cap():
    """64-thread blocks on cc 8.6 are capped at 16 blocks per SM (16 x 2 warps = 32 of 48 warps)."""
    r = occupancy("8.6", 64, 16, 0)
    assert r.blocks_per_sm == 16
    assert r.limiter is Limiter.BLOCKS
    assert r.occupancy == pytest.approx(32 / 48)


def test_1024_threads_at_65_registers_cannot_launch():
    """1024 x 65 registers needs 32 warps x 2304 = 73728 > 65536 registers: 0 blocks, limited by registers."""
    for cc in CAPABILITIES:
        if capability(cc).max_threads_per_sm < 1024:
            continue
        r = occupancy(cc, 1024, 65, 0)
        assert r.blocks_per_sm == 0, cc
        assert not r.fits
        assert r.limiter is Limiter.REGISTERS
        assert r.occupancy == 0
        assert r.steps[-1].code == "result_none"
    assert occupancy("9.0", 1024, 64, 0).blocks_per_sm == 1  # 64 x 1024 = the whole register file


def test_two_32x32_blocks_cannot_coreside_on_cc86():
    """1024-thread blocks on cc 8.6: only one fits (1536 threads per SM)."""
    assert occupancy("8.6", 1024, 16, 0).blocks_per_sm == 1


def test_more_than_255_registers_or_1024_threads_do_not_fit():
    assert occupancy("9.0", 32, 256, 0).limiter is Limiter.REGISTERS
    assert occupancy("9.0", 32, 256, 0).blocks_per_sm == 0
    r = occupancy("9.0", 1025, 16, 0)
    assert r.blocks_per_sm == 0 and r.limiter is Limiter.WARPS


def test_shared_memory_reservation_and_units():
    """cc 8.0+: 1 KiB reserved per block, 128 B units; cc 7.x: no reservation, 256 B units."""
    assert occupancy("8.6", 128, 16, 1000).smem_per_block == 2048  # 1000 + 1024 -> 2048
    assert occupancy("7.0", 128, 16, 1000).smem_per_block == 1024  # 1000 -> 1024 (256 B units)
    # 9.0: 228 KiB per SM; a block of 227 KiB (the opt-in maximum) fits once, one byte more does not.
    assert occupancy("9.0", 128, 16, 0, 227 * 1024).blocks_per_sm == 1
    assert occupancy("9.0", 128, 16, 0, 227 * 1024 + 1).blocks_per_sm == 0
    # Without the opt-in attribute dynamic shared memory stops at 48 KiB minus static.
    r = occupancy("9.0", 128, 16, 0, 48 * 1024 + 1, max_dynamic_smem=48 * 1024)
    assert r.blocks_per_sm == 0 and r.limiter is Limiter.SHARED_MEMORY
    assert r.steps[-2].code == "smem_dynamic_over_attr"


def test_carveout_preference():
    """A 0 % carveout on cc 9.0 gives the smallest capacity that holds one block (8 KiB here)."""
    r = occupancy("9.0", 128, 32, 0, 0, carveout=0)
    assert r.smem_per_sm == 8 * 1024 and r.blocks_per_sm == 8
    assert occupancy("9.0", 128, 32, 0, 8192, carveout=25).blocks_per_sm == 7  # 58368 B -> 64 KiB / 9216
    with pytest.raises(OccupancyInputError):
        occupancy("9.0", 128, 32, carveout=101)


def test_barrier_limit_from_cc90():
    """cc 9.0 has 2 block barriers per block slot: a kernel using 3 named barriers fits 64 // 3 = 21 blocks."""
    r = occupancy("9.0", 32, 16, 0, barriers=3)
    assert r.blocks_per_sm == 21 and r.limiter is Limiter.BARRIERS
    assert occupancy("8.6", 32, 16, 0, barriers=3).blocks_per_sm == 16  # no barrier limit before 9.0


def test_ada_allows_24_blocks():
    """cc 8.9 holds 24 blocks per SM (the seed's post (1) says 16)."""
    assert occupancy("8.9", 32, 16, 0).blocks_per_sm == 24


def test_bad_inputs_raise_named_errors():
    with pytest.raises(OccupancyInputError):
        occupancy("9.0", 0, 32)
    with pytest.raises(OccupancyInputError):
        occupancy("9.0", 128, -1)
    with pytest.raises(UnknownGPUError):
        occupancy("6.1", 128, 32)


def test_capability_spellings():
    assert capability("sm_86").cc == "8.6"
    assert capability(9.0).cc == "9.0"
    assert capability("90").cc == "9.0"
    assert gpu("h200").sm_count == 132


def test_steps_render_in_both_languages():
    r = occupancy("9.0", 256, 41, 2048, 4096)
    en, ko = r.explain("en"), r.explain("ko")
    assert len(en) == len(ko) == len(r.steps)
    assert all(ko_line != en_line for ko_line, en_line in zip(ko, en))
    assert "warp" in ko[0]  # CUDA terms stay in English in the Korean text


def test_searches():
    """Largest registers keeping 100 % on cc 8.6 at 256 threads is 40; shared budget is exact."""
    assert max_registers_for("8.6", 256, 2048, 1.0) == 40
    d = max_dynamic_smem_for("9.0", 128, 32, 0, 4)
    assert occupancy("9.0", 128, 32, 0, d).blocks_per_sm >= 4
    assert occupancy("9.0", 128, 32, 0, d + 1).blocks_per_sm < 4
    assert d == 233472 // 4 // 128 * 128 - 1024


def test_series_marks_cliffs():
    pts = series("8.6", 256, 41, 2048, "regs")
    assert dict(pts)[40] == 1.0 and dict(pts)[41] == pytest.approx(40 / 48)
    smem = series("9.0", 256, 32, 0, "smem")
    assert smem[0][0] == 0 and smem[-1][0] == 227 * 1024


class _Res:
    registers = 41
    shared_static_bytes = 2048
    shared_dynamic_bytes = None
    threads_per_block = 256
    compute_capability = "8.6"
    barriers = 1


def test_occupancy_for_resources_returns_a_json_dict():
    d = occupancy_for_resources(_Res())
    assert d["blocks_per_sm"] == 5 and d["limiter"] == "registers" and d["max_warps"] == 48
    assert d["occupancy"] == pytest.approx(40 / 48)
    assert d["steps"][0]["code"] == "warps_per_block"
