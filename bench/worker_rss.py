#!/usr/bin/env python3
"""Resident memory of a grading process and its warm children over many gradings (issue 17: "a
grading worker's RSS stays flat over 1,000 gradings").

    python3 bench/worker_rss.py --backend emulator --gradings 1000 --sources 8 [--problems a,b] [--json out.json]

One backend in this process, as a Celery pool process holds one, judges `--sources` sources of
problems/bank/ (solutions and wrong ones, spread over the bank, hanging ones left out) in turn
until `--gradings` gradings are done, through the judge core with the checks on (each source
compiled once, then compile-cache hits: what stays alive between gradings is what is measured).
Every `--every` gradings it samples VmRSS of this process and the sum over its descendants (the
warm children). Prints the samples, the growth from the sample after the first round to the last
(MiB) and a JSON line last.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def process_table() -> dict[int, tuple[int, float]]:
    """Every process on the machine: pid -> (parent pid, VmRSS in MiB), read from /proc."""
    procs = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            status = (entry / "status").read_text()
        except (OSError, ValueError, IndexError):
            continue
        rss = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        procs[int(entry.name)] = (ppid, rss / 1024.0)
    return procs


def descendants(procs: dict[int, tuple[int, float]], children: set[int]) -> set[int]:
    """`children` and every process below them in `procs` (process_table's)."""
    tree, frontier = set(), set(children)
    while frontier:
        tree |= frontier
        frontier = {pid for pid, (ppid, _) in procs.items() if ppid in frontier} - tree
    return tree


def rss_tree(root: int) -> tuple[float, float, int]:
    """(VmRSS of `root`, summed VmRSS of its descendants, how many), MiB."""
    procs = process_table()
    tree = descendants(procs, {pid for pid, (ppid, _) in procs.items() if ppid == root})
    return procs.get(root, (0, 0.0))[1], sum(procs[p][1] for p in tree), len(tree)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="emulator", choices=["emulator", "gpu"])
    parser.add_argument("--gradings", type=int, default=1000)
    parser.add_argument("--sources", type=int, default=8)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--problems", default="", help="only these problems of the bank (comma-separated slugs)")
    parser.add_argument("--json")
    args = parser.parse_args()

    # The judge's configuration from the site's settings (grader/apps.py hands WARPDRILL_JUDGE to the
    # registry), so the backend gets the sandbox and options a pool process would (WARPDRILL_BWRAP, ...).
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from grader.core.backends.registry import get_backend, hang_explainer
    from grader.core.judge import judge
    from grader.core.verdicts import Verdict
    from problems.core.package import load_package

    subs = []
    wanted = {x for x in args.problems.split(",") if x}
    for folder in sorted(p for p in (ROOT / "problems" / "bank").iterdir() if (p / "problem.yaml").exists()):
        if wanted and folder.name not in wanted:
            continue
        package = load_package(folder)
        subs.append((package, package.solution, "ACCEPTED"))
        subs += [(package, w.source, str(w.verdict)) for w in package.wrong
                 if w.verdict not in (Verdict.DEADLOCK, Verdict.TIME_LIMIT)]
    step = max(1, len(subs) // args.sources)
    subs = subs[::step][: args.sources]
    backend = get_backend(args.backend)
    backend.prepare()
    explainer = hang_explainer(backend)
    samples, verdicts, started = [], {}, time.monotonic()
    for k in range(args.gradings):
        package, source, expected = subs[k % len(subs)]
        result = judge(package, source, backend, explainer=explainer)
        verdicts[str(result.verdict)] = verdicts.get(str(result.verdict), 0) + 1
        if (k + 1) % args.every == 0 or k == len(subs) - 1:
            own, children, count = rss_tree(os.getpid())
            samples.append({"gradings": k + 1, "self_mib": round(own, 1), "children_mib": round(children, 1),
                            "children": count, "s": round(time.monotonic() - started, 1)})
            print(json.dumps(samples[-1]), flush=True)
    after_round = next(s for s in samples if s["gradings"] >= len(subs))
    last = samples[-1]
    result = {"date": time.strftime("%Y-%m-%d"), "backend": args.backend, "gradings": args.gradings,
              "sources": len(subs), "verdicts": verdicts, "wall_s": round(time.monotonic() - started, 1),
              "self_mib_after_first_round": after_round["self_mib"], "self_mib_last": last["self_mib"],
              "self_growth_mib": round(last["self_mib"] - after_round["self_mib"], 1),
              "children_mib_after_first_round": after_round["children_mib"], "children_mib_last": last["children_mib"],
              "self_peak_mib": max(s["self_mib"] for s in samples),
              "children_peak_mib": max(s["children_mib"] for s in samples), "samples": samples}
    backend.shutdown() if hasattr(backend, "shutdown") else None
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    print(json.dumps({k: v for k, v in result.items() if k != "samples"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
