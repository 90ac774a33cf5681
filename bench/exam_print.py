"""Benchmark printed exams: 26 lettered forms (sheets and keys, English and Korean) and one PDF per
student for a roster, through exams/core/printing (draw -> HTML -> KaTeX -> WeasyPrint -> PDF).

Usage (from the repository root):

    .venv/bin/python bench/exam_print.py                       # 26 forms, 300 students
    .venv/bin/python bench/exam_print.py --forms 4 --students 20 --workers 2

The template is a midterm-sized one: 8 generated questions over three zones and one kernel problem
(segment-sum, its statement with display math and a table) drawn per form/student with its variant.
Per-student PDFs run in --workers processes (each PDF is independent: a print run is embarrassingly
parallel). Wall and CPU seconds are both printed: on a shared machine the wall time is the CPU time
times the contention. Prints figures; the last line is JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from exams.core.printing import ExamHeader, Part, Student, lettered_forms, print_forms, student_forms  # noqa: E402
from exams.core.catalogue import KernelInfo, StaticCatalogue  # noqa: E402
from exams.core.template import parse_template  # noqa: E402
from problems.core.package import load_package  # noqa: E402

BANK = ROOT / "problems" / "bank"
CATALOGUE = StaticCatalogue([KernelInfo("segment-sum", 1, 1, "reduction")])
TEMPLATE = {"title": {"en": "Midterm 1", "ko": "중간고사 1"}, "zones": [
    {"choose": 3, "points": 5, "pool": ["occupancy.blocks_per_sm", "occupancy.limiter", "occupancy.register_budget",
                                        "occupancy.shared_budget"]},
    {"choose": 3, "points": 5, "pool": ["indexing.global_index", "indexing.inverse", "indexing.warp_lane",
                                        "indexing.grid_dims", "indexing.grid_stride"]},
    {"choose": 2, "points": 5, "pool": ["synchronization.classify", "synchronization.place_barrier",
                                        "synchronization.syncwarp_mask"]},
    {"choose": 1, "points": 20, "pool": [{"kernel": "segment-sum"}]},
]}
HEADER = ExamHeader(title=TEMPLATE["title"], course="CS 431 · Fall 2026")
SECRET = "bench-secret"
_PACKAGE = load_package(BANK / "segment-sum")


def kernel_text(item: dict) -> dict:
    """The statement of the drawn kernel item, bound to its variant (the shell reads the stored version)."""
    package = _PACKAGE.with_variant(item["kernel"].get("variant") or _PACKAGE.variants.draw(item["key"]))
    return {"title": package.title, "statement": package.statement, "solution": package.solution}


def one_student(args) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, bytes) of one student's question sheet."""
    index, lang = args
    spec = parse_template(TEMPLATE, CATALOGUE)
    student = Student(id=str(1000 + index), name=f"학생 {index}", number=f"2026-{index:04d}")
    started, cpu = time.perf_counter(), time.process_time()
    forms = student_forms(spec, SECRET, [student], CATALOGUE)
    pdf = print_forms(HEADER, forms, lang, Part.QUESTIONS, kernel_text=kernel_text)
    return time.perf_counter() - started, time.process_time() - cpu, len(pdf)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forms", type=int, default=26, help="lettered forms (0: skip)")
    parser.add_argument("--students", type=int, default=300, help="per-student PDFs (0: skip)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="write the 26-form PDFs here (for a look)")
    args = parser.parse_args()
    spec = parse_template(TEMPLATE, CATALOGUE)
    figures: dict = {"forms": args.forms, "students": args.students, "workers": args.workers,
                     "load_average_1m": round(os.getloadavg()[0], 1), "cpus": os.cpu_count()}

    started = time.perf_counter()
    forms = lettered_forms(spec, SECRET, args.forms, CATALOGUE) if args.forms else []
    figures["draw_forms_s"] = round(time.perf_counter() - started, 3)
    for lang in ("en", "ko") if forms else ():
        for part in Part:
            started, cpu = time.perf_counter(), time.process_time()
            pdf = print_forms(HEADER, forms, lang, part, kernel_text=kernel_text)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            figures[f"forms_{lang}_{part}_s"] = round(seconds, 2)
            figures[f"forms_{lang}_{part}_cpu_s"] = round(cpu, 2)
            figures[f"forms_{lang}_{part}_mb"] = round(len(pdf) / 2**20, 2)
            print(f"{args.forms} forms {lang} {part}: {seconds:.1f} s wall, {cpu:.1f} s CPU, "
                  f"{len(pdf) / 2**20:.1f} MiB", flush=True)
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / f"forms-{lang}-{part}.pdf").write_bytes(pdf)

    if args.students:
        started = time.perf_counter()
        jobs = [(i, "ko" if i % 2 else "en") for i in range(args.students)]
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(one_student, jobs, chunksize=4))
        wall = time.perf_counter() - started
        each, cpu = [r[0] for r in results], [r[1] for r in results]
        figures.update(students_wall_s=round(wall, 1), student_pdf_p50_s=round(statistics.median(each), 2),
                       student_pdf_p95_s=round(pct(each, 0.95), 2), student_pdf_cpu_p50_s=round(statistics.median(cpu), 2),
                       students_cpu_total_s=round(sum(cpu), 1), student_pdfs_per_min=round(60 * len(each) / wall, 1),
                       student_pdf_mean_kb=round(statistics.mean(r[2] for r in results) / 1024, 1))
        print(f"{args.students} per-student PDFs on {args.workers} workers: {wall:.1f} s wall, "
              f"p50 {figures['student_pdf_p50_s']} s wall / {figures['student_pdf_cpu_p50_s']} s CPU each, "
              f"{figures['students_cpu_total_s']} s CPU in all", flush=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
