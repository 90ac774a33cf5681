"""The model (cc 9.0) against cudaOccupancyMaxActiveBlocksPerMultiprocessor measured on an H200.

The table comes from bench/occupancy_sweep.py run on the H200 machine (2026-11-29): kernels compiled
with -maxrregcount, real register counts from cudaFuncGetAttributes, static and dynamic shared memory,
the opt-in attribute and carveout preferences.
"""
import json
from pathlib import Path

from problems.core.occupancy import occupancy

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "occupancy_h200_2026-11-29.json"


def _table():
    return json.loads(FIXTURE.read_text())


def test_fixture_is_an_h200_sweep_of_at_least_200_configurations():
    t = _table()
    assert t["device_name"] == "NVIDIA H200" and t["cc"] == "9.0" and t["complete"]
    assert len(t["rows"]) >= 200
    rows = [dict(zip(t["columns"], r)) for r in t["rows"]]
    assert {r["threads"] for r in rows} >= {32, 1024}
    assert min(r["regs"] for r in rows) <= 16 and max(r["regs"] for r in rows) == 255
    assert max(r["static_smem"] + r["dynamic_smem"] for r in rows) >= 227 * 1024
    assert any(r["dynamic_smem"] > 48 * 1024 and r["blocks"] > 0 for r in rows)  # opt-in used
    assert any(r["carveout"] >= 0 for r in rows)


def test_device_properties_match_our_cc90_table():
    from problems.core.gpus import capability

    dev = _table()["device"]
    cap = capability("9.0")
    assert dev["maxThreadsPerMultiProcessor"] == cap.max_threads_per_sm
    assert dev["maxBlocksPerMultiProcessor"] == cap.max_blocks_per_sm
    assert dev["regsPerMultiprocessor"] == cap.regs_per_sm
    assert dev["sharedMemPerMultiprocessor"] == cap.smem_per_sm
    assert dev["sharedMemPerBlockOptin"] == cap.smem_per_block_optin
    assert dev["reservedSharedMemPerBlock"] == cap.smem_reserved_per_block


def test_model_agrees_with_every_measured_row():
    """100 % agreement: blocks per SM from our model equal the runtime's answer for every configuration."""
    t = _table()
    mismatches = []
    for values in t["rows"]:
        r = dict(zip(t["columns"], values))
        ours = occupancy("9.0", r["threads"], r["regs"], r["static_smem"], r["dynamic_smem"],
                         max_dynamic_smem=r["max_dynamic_smem"], carveout=r["carveout"])
        if ours.blocks_per_sm != r["blocks"]:
            mismatches.append((r, ours.blocks_per_sm))
    assert not mismatches, f"{len(mismatches)} of {len(t['rows'])} rows disagree, e.g. {mismatches[:5]}"
