"""compute-sanitizer report parsing: each tool's records become diagnostics on the student's lines."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.core.gpu.sanitizer import Tool, parse_report, split_records
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
