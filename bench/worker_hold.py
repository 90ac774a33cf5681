"""Worker seconds one submission holds a grading process: a correct but slow kernel and a compile bomb.

Usage (from the repository root):

    PYTHONPATH=. .venv/bin/python bench/worker_hold.py [--rounds 3] [--burners 0] [--only slow,bomb]

Judges, in this process and as a grading task does (grader.core.judge.judge on the emulator backend
built from the site's settings, the hang explainer, the site's seed secret), against the bank's
vector-add-tail (4 tests of 5 s, the memcheck pass):

- "slow": the security tester's kernel, a correct vector add whose thread 0 first counts a volatile
  long to 1.2e9 (/tmp/atk/slow.cu), made unique per round by a comment (no cached binary);
- "bomb": the tester's template-instantiation compile bomb (/tmp/atk/cb.cu: A<440,440>).

Per submission it reports the wall seconds the judge held the process (what the next submission on
that queue waits), the CPU seconds it caused (this process and every box it started: compilers and
runs; see CpuMeter), the verdict, each test's verdict, and what the result says of the budget. `--burners N` runs N
busy-looping processes beside it (the tester's loaded machine; on a 2-core machine shared with other
work the load is there anyway, and the load average is printed). Identical sources should get the
same verdict whatever the load. The last line printed is one JSON object with the figures.

Measured on this 2-core machine (2026-12-05), three submissions each, median, the code before the
CPU-time clock, the run budget and the compile limits (7186b86) against after (1eb63eb):

| kernel | load | before: verdict, held s, CPU s | after: verdict, held s, CPU s |
| --- | --- | --- | --- |
| slow | idle (load 1) | ACCEPTED, 17.9, 18.0 | TIME_LIMIT (budget, test 3 of 4), 10.7, 10.4 |
| slow | 3 burners (load 5-8) | ACCEPTED, 26.9, 17.8 | TIME_LIMIT (budget), 15.2, 10.3 |
| slow | other work (load 7-10) | ACCEPTED, 64.3, 19.9 | TIME_LIMIT (budget), 18.0 at load 9.4, 10.8 |
| bomb | idle | ACCEPTED, 9.6, 9.8 (g++ 4.6 s, NVRTC's report) | COMPILE_ERROR (4 s of CPU), 4.3, 4.2 |
| bomb | 3 burners | ACCEPTED, 16.2, 10.5 | COMPILE_ERROR, 6.1, 4.1 |
| bomb | other work (load 8-10) | ACCEPTED, 49.7, 14.1 | - |
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

SLOW = """__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) { volatile long x = 0; for (long k = 0; k < 1200000000L; k++) x++; }
    if (i < n) c[i] = a[i] + b[i];
}
"""
BOMB = """template<int N, int M> struct A { static constexpr unsigned long v = A<N-1,M>::v + A<N,M-1>::v; };
template<int M> struct A<0,M> { static constexpr unsigned long v = 1; };
template<int N> struct A<N,0> { static constexpr unsigned long v = 1; };
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i] + (float)(A<440,440>::v & 1); }
"""
KERNELS = {"slow": SLOW, "bomb": BOMB}


CPUACCT = Path("/sys/fs/cgroup/cpuacct")


class CpuMeter:
    """CPU seconds of this process and of everything it starts. bubblewrap does not pass its box's
    rusage up (its outer process exits without reaping the box's init), so getrusage(RUSAGE_CHILDREN)
    misses the compilers and runs: where the cgroup-v1 cpuacct controller is writable (root), this
    process moves into a cgroup of its own, which every box inherits, and its cpuacct.usage is read;
    elsewhere, the rusage of this process and its reaped children (an undercount, said in `source`)."""

    def __init__(self):
        self.group = CPUACCT / f"wd-worker-hold-{os.getpid()}"
        try:
            self.group.mkdir()
            (self.group / "cgroup.procs").write_text(str(os.getpid()))
            self.source = "cgroup cpuacct"
        except OSError:
            self.group = None
            self.source = "rusage (boxes not counted)"

    def seconds(self) -> float:
        if self.group is not None:
            return int((self.group / "cpuacct.usage").read_text()) / 1e9
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    def close(self) -> None:
        """Leave the cgroup and remove it: every process still in it (this one, a warm compiler child that
        lives as long as this process) goes back to the root group first."""
        if self.group is not None:
            for _ in range(50):  # boxes still exiting keep it busy a moment
                for pid in (self.group / "cgroup.procs").read_text().split():
                    try:
                        (CPUACCT / "cgroup.procs").write_text(pid)
                    except OSError:  # gone meanwhile
                        pass
                try:
                    self.group.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)


METER: CpuMeter | None = None


def _cpu() -> float:
    return METER.seconds()


def _burn(stop) -> None:
    while not stop.is_set():
        for _ in range(100000):
            pass


def judge_once(package, source: str, backend, explainer) -> dict:
    from django.conf import settings

    from grader.core.judge import judge

    cpu, wall = _cpu(), time.monotonic()
    result = judge(package, source, backend, seed_secret=settings.WARPDRILL_SEED_SECRET,
                   target_cc=settings.WARPDRILL_TARGET_CC, explainer=explainer)
    wall, cpu = time.monotonic() - wall, _cpu() - cpu
    compile_s = result.compile.time_s if result.compile else None
    return {"verdict": result.verdict.value, "held_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "compile_s": round(compile_s, 2) if compile_s is not None else None,
            "tests": [(t.name, str(t.verdict), t.time_s) for t in result.tests],
            "message": str(result.message)[:300],
            "compile_messages": [str(m.message)[:200] for m in (result.compile.messages if result.compile else [])][:2]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3, help="submissions of each kernel")
    p.add_argument("--burners", type=int, default=0, help="busy processes beside the judge")
    p.add_argument("--only", default="slow,bomb", help="which kernels (slow, bomb)")
    p.add_argument("--problem", default="vector-add-tail")
    args = p.parse_args()

    global METER
    METER = CpuMeter()
    import django

    django.setup()
    from grader.core.backends.registry import get_backend, hang_explainer
    from problems.core.package import load_package

    package = load_package(ROOT / "problems" / "bank" / args.problem)
    backend = get_backend()
    backend.prepare()
    explainer = hang_explainer(backend)
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=_burn, args=(stop,), daemon=True) for _ in range(args.burners)]
    for b in burners:
        b.start()
        # Out of the measured cgroup: their CPU is the load, not the submission's.
        if METER.group is not None:
            (CPUACCT / "cgroup.procs").write_text(str(b.pid))
    runs: dict[str, list[dict]] = {}
    try:
        for name in [n.strip() for n in args.only.split(",") if n.strip()]:
            for k in range(args.rounds):
                source = KERNELS[name] + f"// bench {name} {k} {time.time_ns()}\n"
                row = judge_once(package, source, backend, explainer)
                row["load"] = round(os.getloadavg()[0], 1)
                print(name, k, json.dumps(row), flush=True)
                runs.setdefault(name, []).append(row)
    finally:
        stop.set()
        for b in burners:
            b.join(5)
        METER.close()
    summary = {"backend": backend.name, "problem": args.problem, "time_limit_s": package.time_limit_s,
               "burners": args.burners, "cpus": os.cpu_count(), "cpu_source": METER.source}
    for name, rows in runs.items():
        summary[name] = {
            "verdicts": [r["verdict"] for r in rows],
            "held_s": [r["held_s"] for r in rows], "held_s_median": statistics.median(r["held_s"] for r in rows),
            "held_s_max": max(r["held_s"] for r in rows),
            "cpu_s": [r["cpu_s"] for r in rows], "cpu_s_median": statistics.median(r["cpu_s"] for r in rows),
            "load": [r["load"] for r in rows],
        }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
