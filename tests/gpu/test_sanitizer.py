"""compute-sanitizer report parsing: each tool's records become diagnostics on the student's lines."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.core.gpu import fence
from grader.core.gpu.sanitizer import Tool, cut_job, drop_fences, parse_report, split_records, tool_options
from grader.core.verdicts import DiagnosticKind

FIXTURES = Path(__file__).parent / "fixtures"

MEMCHECK = """\
========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at vector_add(const float *, const float *, float *, int)+0x90 in /box/kernel.cu:7
=========     by thread (31,0,0) in block (4,0,0)
=========     Address 0x7f3c00001000 is out of bounds
=========     and is 4 bytes after the nearest allocation at 0x7f3c00000000 of size 4096 bytes
=========
========= Invalid __global__ write of size 4 bytes
=========     at vector_add(const float *, const float *, float *, int)+0x90 in /box/kernel.cu:7
=========     by thread (30,0,0) in block (4,0,0)
=========     Address 0x7f3c00000ffc is out of bounds
=========
========= Invalid __shared__ read of size 8 bytes
=========     at 0x1d0 in kernel.cu:12:k(float *)
=========     by thread (3,0,0) in block (0,0,0)
=========     Address 0x404 is misaligned
=========
========= Program hit CUDA_ERROR_LAUNCH_FAILED (error 719) due to "unspecified launch failure" on CUDA API call to cuCtxSynchronize.
========= ERROR SUMMARY: 3 errors
"""

RACECHECK = """\
========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at 0x1f0 in /box/kernel.cu:12:k(float *)
=========     and Read access at 0x200 in /box/kernel.cu:14:k(float *) [4 hazards]
=========
========= Warning: Race reported between Read access at 0x2a0 in /box/kernel.cu:20:k(float *)
=========     and Write access at 0x2b0 in /box/kernel.cu:20:k(float *) [31 hazards]
=========
========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)
"""

SYNCCHECK = """\
========= COMPUTE-SANITIZER
========= Barrier error detected. Divergent thread(s) in warp
=========     at 0x150 in /box/kernel.cu:5:k(float *)
=========     by thread (1,0,0) in block (0,0,0)
=========
========= ERROR SUMMARY: 1 error
"""


def test_records_are_split_on_their_first_line():
    records = split_records(MEMCHECK)
    assert records[1].head.startswith("Invalid __global__ write") and len(records[1].lines) == 4


def test_memcheck_out_of_bounds_and_misaligned_with_line_thread_block():
    report = parse_report(Tool.MEMCHECK, MEMCHECK)
    oob, misaligned = report.diagnostics
    assert oob.kind is DiagnosticKind.OUT_OF_BOUNDS and oob.line == 7
    assert oob.thread == (31, 0, 0) and oob.block == (4, 0, 0)
    assert oob.detail["count"] == 2 and oob.detail["allocation"] == 4096 and "4 bytes after" in oob.message
    assert misaligned.kind is DiagnosticKind.MISALIGNED and misaligned.line == 12
    assert not report.platform_error


def test_racecheck_errors_and_warnings_are_both_races():
    report = parse_report(Tool.RACECHECK, RACECHECK)
    assert [(d.kind, d.line) for d in report.diagnostics] == [(DiagnosticKind.RACE, 12), (DiagnosticKind.RACE, 20)]
    assert report.diagnostics[0].detail["lines"] == [12, 14] and "line 14" in report.diagnostics[0].message
    assert report.diagnostics[1].detail["severity"] == "warning"


def test_synccheck_divergent_barrier():
    (d,) = parse_report(Tool.SYNCCHECK, SYNCCHECK).diagnostics
    assert d.kind is DiagnosticKind.DIVERGENT_BARRIER and d.line == 5 and d.thread == (1, 0, 0)


def test_a_clean_run_has_no_diagnostics():
    clean = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"
    for tool in Tool:
        report = parse_report(tool, clean)
        assert report.diagnostics == [] and not report.platform_error


def test_a_sanitizer_that_cannot_run_is_a_platform_error():
    log = "========= COMPUTE-SANITIZER\n========= Error: Device not supported\n"
    assert parse_report(Tool.MEMCHECK, log).platform_error


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.log")), ids=lambda p: p.name)
def test_reports_captured_on_the_h200(path):
    """Real reports (bench/gpu_validate.py --logs): the file name says the tool and what it must find."""
    name = path.name
    tool = Tool(name.split(".")[-2])
    report = parse_report(tool, path.read_text())
    assert not report.platform_error
    wanted = {"oob": DiagnosticKind.OUT_OF_BOUNDS, "race": DiagnosticKind.RACE,
              "divergent": DiagnosticKind.DIVERGENT_BARRIER, "clean": None}[name.split(".")[0].split("-")[-1]]
    kinds = {d.kind for d in report.diagnostics}
    if wanted is None:
        assert kinds == set()
    else:
        assert wanted in kinds and all(d.line for d in report.diagnostics if d.kind is wanted)


# ---- cutting one long-lived child's log into per-job reports (fence.py) ----

NONCE, OTHER = "0123456789abcdef", "fedcba9876543210"
# memcheck's fence, as written on the H200 (docs/gpu-runs/2026-11-29-pm).
MEMCHECK_FENCE = ('========= Program hit CUDA_ERROR_INVALID_VALUE (error 1) due to "invalid argument" on CUDA API '
                  "call to cuCtxSetLimit.\n========= \n")


def race_fence(nonce: str) -> str:
    name = f"warpdrill_fence_{nonce}_race"
    return (f"========= Error: Race reported between Write access at {name}+0x70\n"
            f"=========     and Write access at {name}+0x70 [2 hazards]\n=========\n")


def test_a_job_is_cut_at_its_own_fence():
    job = MEMCHECK.split("========= Program hit")[0].replace("========= COMPUTE-SANITIZER\n", "")
    log = "========= COMPUTE-SANITIZER\n" + job + MEMCHECK_FENCE + "========= Invalid __global__ read"
    report, consumed = cut_job(Tool.MEMCHECK, log, NONCE)
    assert log[consumed:] == "========= Invalid __global__ read"  # the next job's, still being written
    assert [d.line for d in parse_report(Tool.MEMCHECK, report).diagnostics] == [7, 12]


def test_no_cut_until_the_fence_is_complete():
    assert cut_job(Tool.MEMCHECK, "========= Invalid __global__ write of size 4 bytes\n", NONCE) is None
    assert cut_job(Tool.MEMCHECK, MEMCHECK_FENCE[:40], NONCE) is None  # a half-written line
    # racecheck's fence is known by its kernel's name; another job's fence is not this one's
    assert cut_job(Tool.RACECHECK, race_fence(OTHER), NONCE) is None
    assert cut_job(Tool.RACECHECK, "========= Error: Race reported between Write access at ", NONCE) is None


def test_a_student_kernel_cannot_pass_for_a_fence():
    """A kernel named after the fence prefix, or after the memcheck fence's API call, is a finding."""
    forged = ("========= Error: Race reported between Write access at warpdrill_fence_0000000000000000_race+0x70 "
              "in kernel.cu:3\n=========     and Read access at k+0x80 in kernel.cu:4 [2 hazards]\n=========\n")
    report, _ = cut_job(Tool.RACECHECK, forged + race_fence(NONCE), NONCE)
    assert [d.line for d in parse_report(Tool.RACECHECK, report).diagnostics] == [3]
    named = ("========= Invalid __global__ write of size 4 bytes\n=========     at cuCtxSetLimit+0x90 in kernel.cu:7\n"
             "=========     by thread (0,0,0) in block (0,0,0)\n")
    report, _ = cut_job(Tool.MEMCHECK, named + MEMCHECK_FENCE, NONCE)
    assert parse_report(Tool.MEMCHECK, report).diagnostics[0].line == 7


def test_the_tail_of_the_previous_fence_is_dropped_from_the_next_job():
    second = race_fence(OTHER) + RACECHECK.replace("========= COMPUTE-SANITIZER\n", "")
    assert drop_fences(Tool.RACECHECK, second, (OTHER,)) == RACECHECK.replace("========= COMPUTE-SANITIZER\n", "")
    assert drop_fences(Tool.RACECHECK, "=========     and Write access at x\n", (OTHER,)) == ""


def test_print_limit_leaves_the_last_job_its_own_records():
    options = tool_options(Tool.SYNCCHECK, "/box/sanitizer.log", jobs=100)
    assert options[options.index("--print-limit") + 1] == str(1024 + 2 * 100)
    racecheck = tool_options(Tool.RACECHECK, "/box/sanitizer.log", jobs=100)
    assert racecheck[racecheck.index("--racecheck-report") + 1] == "analysis"  # bounded: one record per pair


def test_fence_kernels_are_named_by_their_nonce():
    assert fence.entry("synccheck", NONCE) == (f"warpdrill_fence_{NONCE}_sync", (2, 1, 1))
    assert f".entry warpdrill_fence_{NONCE}_race(" in fence.ptx("racecheck", NONCE)
    with pytest.raises(ValueError):
        fence.ptx("racecheck", "x; .entry evil")
    with pytest.raises(ValueError):
        fence.entry("memcheck", NONCE)


def test_a_real_long_lived_racecheck_log_cuts_into_its_jobs():
    """51 checks by one racecheck child on the H200 (bench/sanitizer_reuse.py: rounds of clean,
    race, clean, divergent, clean), cut at each fence in turn: the race is in the racy jobs only."""
    log = (FIXTURES / "long-lived" / "racecheck-51-jobs.log").read_text()
    nonces = list(dict.fromkeys(re.findall(r"warpdrill_fence_([0-9a-f]{16})", log)))
    assert len(nonces) == 51
    found, previous = [], ""
    for nonce in nonces:
        report, consumed = cut_job(Tool.RACECHECK, log, nonce)
        diagnostics = parse_report(Tool.RACECHECK, drop_fences(Tool.RACECHECK, report, (previous,))).diagnostics
        found.append([(d.kind, d.line) for d in diagnostics])
        log, previous = log[consumed:], nonce
    assert [i for i, f in enumerate(found) if f] == list(range(1, 50, 5))
    assert all(f == [(DiagnosticKind.RACE, 5)] for f in found if f)
    assert drop_fences(Tool.RACECHECK, log, (previous,)) == ""  # nothing after the last fence but its tail
