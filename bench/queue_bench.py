#!/usr/bin/env python3
"""Submit-to-verdict through the real queue: Django's write path, the broker, a Celery worker.

    python3 bench/queue_bench.py --backend gpu --concurrency 1,4 [--json out.json]

Sets up a throw-away site (SQLite database and folder broker under a temporary directory,
unless DATABASE_URL / CELERY_BROKER_URL are set), imports problems/bank, then for each worker
concurrency N starts `celery -A config worker -Q <queue> -c N --prefetch-multiplier 1` (the
production worker's settings: late acks, one message at a time per process) and measures:

- sequential: one submission at a time (a new source each: a unique comment defeats the compile
  cache), the next sent when the previous has its verdict: submit-to-verdict p50/p95, split into
  queue wait (created -> started, from the submission's own timestamps) and grading;
- burst: every source of the bank twice, submitted at once: gradings per minute of the worker;
- hang: a kernel that never returns, then a correct one: the hang is stopped at the problem's
  limit (TIME_LIMIT or DEADLOCK) and the next submission on the same worker is ACCEPTED.

With --stages the worker writes where each grading's time went (grader.tasks.StageClock, one JSON
line per grading) and the bench adds, per pass, the mean and p50 of each stage: pickup (created ->
the task starts: the broker), heartbeat, claim, package, compile, inputs, runs (kernel: their GPU
part), checks, progress, save, and rest (the judge's own work). With --rss it samples the resident
memory of the worker's pool processes and of their children (the warm GPU or emulator children)
during the burst (--burst-n sets its length, e.g. 1000 gradings for the memory check). With --util
it samples, during the burst, how busy the machine's cores are, the GPU's utilisation (nvidia-smi)
and the CPU seconds of each kind of process in the worker's tree (bench/procs.py UtilSampler).

Every verdict is checked against the one the bank declares; the last line printed is one JSON
object with the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FINAL = {"GRADED"}


def percentile(values: list[float], q: float) -> float:
    """The q-quantile with linear interpolation (statistics.quantiles, inclusive), NaN when empty."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


STAGES = ("pickup", "heartbeat", "claim", "package", "compile", "inputs", "runs", "kernel", "checks",
          "progress", "save", "rest")


def stage_table(stage_log: Path, ids: set[int]) -> dict:
    """{stage: {"mean_s", "p50_s"}} over the gradings of `ids` in the worker's stage log
    (grader.tasks.StageClock lines; pickup from the submission's created_at, read from the database)."""
    from grader.models import Submission

    lines = [json.loads(x) for x in stage_log.read_text().splitlines() if x.strip()] if stage_log.exists() else []
    lines = [x for x in lines if x["id"] in ids]
    created = dict(Submission.objects.filter(pk__in=[x["id"] for x in lines]).values_list("pk", "created_at"))
    for x in lines:
        x["pickup"] = x["started"] - created[x["id"]].timestamp()
        x["rest"] = x["total_s"] - sum(x.get(k, 0.0) for k in STAGES if k not in ("pickup", "rest", "kernel"))
    table = {"n": len(lines)}
    parts = sorted({k for x in lines for k in x if k.startswith("compile_")})  # the backend's compile parts
    for stage in (*STAGES, *parts, "total_s"):
        values = [x.get(stage, 0.0) for x in lines]
        table[stage] = {"mean_s": round(statistics.fmean(values), 4) if values else None,
                        "p50_s": round(percentile(values, 0.5), 4) if values else None}
    # The input cache's effect in the same run: the inputs stage of gradings that computed their
    # inputs (the first of a package version in that pool process) and of those served from the cache.
    for name, chosen in (("inputs_computed", [x for x in lines if x.get("input_misses", 0) > 0]),
                         ("inputs_cached", [x for x in lines if x.get("input_misses", 0) == 0 and x.get("input_hits", 0) > 0])):
        values = [x.get("inputs", 0.0) for x in chosen]
        table[name] = {"n": len(values), "mean_s": round(statistics.fmean(values), 4) if values else None,
                       "p50_s": round(percentile(values, 0.5), 4) if values else None}
    writes = [x.get("progress_writes", 0) for x in lines]
    table["progress_writes_mean"] = round(statistics.fmean(writes), 2) if writes else None
    return table


class RssSampler:
    """Samples, every `every_s`, the resident memory (VmRSS, MiB) of the worker's process tree: the
    Celery parent, its pool processes and all their descendants. stop() returns, per role
    (parent, pool processes, their children), the first and last sample's sum and the peak."""

    def __init__(self, session: int, every_s: float = 2.0):
        import threading

        self.session, self.every_s, self.samples = session, every_s, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _one(self) -> dict[str, float]:
        from worker_rss import descendants, process_table  # bench/ is the script's folder

        procs = process_table()
        # The worker's tree by parent pid: its children (sandboxed ones have their own sessions).
        pool = {pid for pid, (ppid, _) in procs.items() if ppid == self.session}
        tree = descendants(procs, pool)
        out = {"parent": procs.get(self.session, (0, 0.0))[1], "pool": 0.0, "children": 0.0,
               "processes": 1 + len(tree)}
        for pid in tree:
            out["pool" if pid in pool else "children"] += procs[pid][1]
        return out

    def _run(self) -> None:
        while True:
            self.samples.append({"t": time.monotonic(), **self._one()})
            if self._stop.wait(self.every_s):
                break

    def stop(self) -> dict:
        self._stop.set()
        self._thread.join()
        s = self.samples
        return {role: {"first_mib": round(s[0][role], 1), "last_mib": round(s[-1][role], 1),
                       "peak_mib": round(max(x[role] for x in s), 1)}
                for role in ("parent", "pool", "children")} | {"samples": len(s),
                                                               "processes_last": s[-1]["processes"]}


def setup_env(args) -> dict[str, str]:
    work = Path(tempfile.mkdtemp(prefix="warpdrill-queue-bench-"))
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{work / 'db.sqlite3'}")
    env.setdefault("WARPDRILL_VAR_DIR", str(work / "var"))
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "WARPDRILL_BACKEND": args.backend,
        "WARPDRILL_GPU_WORKERS": "true" if args.backend == "gpu" else "false",
        "WARPDRILL_SUBMISSIONS_PER_MINUTE": "0",  # one bench user submits far more than a student may
        "WARPDRILL_CACHE_DIR": str(work / "cache"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).strip(os.pathsep),
    })
    return env


def manage(env, *argv) -> None:
    subprocess.run([sys.executable, "manage.py", *argv], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def start_worker(env, queue: str, concurrency: int, log_path: Path) -> subprocess.Popen:
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "-c", str(concurrency),
         "--prefetch-multiplier", "1", "-P", "prefork", "--loglevel", "INFO", "-n", f"bench{uuid.uuid4().hex[:6]}@%h"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if b" ready." in log_path.read_bytes():
            return proc
        if proc.poll() is not None:
            raise SystemExit(f"the worker exited: {log_path.read_text()[-3000:]}")
        time.sleep(0.2)
    raise SystemExit("the worker did not become ready in 120 s")


def stop_worker(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="gpu", choices=["gpu", "emulator"])
    parser.add_argument("--concurrency", default="1", help="worker pool sizes to measure, e.g. 1,4")
    parser.add_argument("--sequential", type=int, default=0, help="sources in the sequential pass (0: every one)")
    parser.add_argument("--burst-passes", type=int, default=2, help="passes over the bank in the burst")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--logs", help="copy the worker logs into this folder")
    parser.add_argument("--stages", action="store_true", help="also measure where each grading's time goes")
    parser.add_argument("--rss", action="store_true", help="sample the worker processes' resident memory in the burst")
    parser.add_argument("--util", action="store_true",
                        help="sample in the burst how busy the cores and the GPU are, and each kind of worker process's CPU")
    parser.add_argument("--burst-n", type=int, default=0, help="gradings in the burst (0: --burst-passes over the bank)")
    parser.add_argument("--polling-interval", type=float, default=None,
                        help="the folder broker's polling interval, s (CELERY_POLLING_INTERVAL; default 0.1)")
    parser.add_argument("--skip-hang", action="store_true", help="leave out the hang pass")
    parser.add_argument("--spread", action="store_true",
                        help="the sequential pass takes --sequential sources spread over the bank, not the first ones")
    parser.add_argument("--budget-s", type=float, default=0,
                        help="stop waiting for the burst this long after the start and report what was graded by then")
    args = parser.parse_args()
    began = time.monotonic()
    # A SIGTERM (a wall-clock limit) ends the bench through its finally clauses: the worker is stopped.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))
    if args.polling_interval is not None:
        os.environ["CELERY_POLLING_INTERVAL"] = str(args.polling_interval)

    env = setup_env(args)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    manage(env, "migrate", "--noinput")
    manage(env, "import_problems")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from grader import actions
    from grader.core.verdicts import Verdict
    from grader.models import Submission
    from grader.routing import grading_queue
    from problems.models import Problem
    from problems.services import practice_variant

    user, _ = get_user_model().objects.get_or_create(username="queue-bench")
    problems = {p.slug: p for p in Problem.objects.all()}
    cases = []  # (slug, name, source, expected verdict)
    hang = None
    for slug, problem in sorted(problems.items()):
        package = problem.current_version.package()
        # A package with variants: the sources as the bench user's practice variant reads them
        # (the variant its submissions are graded as); the raw {{NAME}} placeholders do not compile.
        package = package.with_variant(practice_variant(user, package) or None)
        cases.append((slug, "solution.cu", package.solution, "ACCEPTED"))
        for wrong in package.wrong:
            if wrong.verdict in (Verdict.DEADLOCK, Verdict.TIME_LIMIT):
                hang = hang or (slug, f"wrong/{wrong.name}", wrong.source, str(wrong.verdict))
                continue
            cases.append((slug, f"wrong/{wrong.name}", wrong.source, str(wrong.verdict)))

    def submit(slug: str, source: str) -> int:
        return actions.create_submission(user, problems[slug], source + f"\n// bench {uuid.uuid4()}\n").pk

    def wait(ids: list[int], timeout_s: float = 600, partial: bool = False) -> dict[int, Submission]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            rows = {s.pk: s for s in Submission.objects.filter(pk__in=ids)}
            if all(rows[i].status in FINAL for i in ids):
                return rows
            time.sleep(0.02)
        if partial:  # the graded ones only
            return {pk: s for pk, s in rows.items() if s.status in FINAL}
        raise SystemExit(f"submissions {ids} got no verdict in {timeout_s} s")

    def row(sub: Submission, case, wall_s: float) -> dict:
        return {"id": sub.pk, "created": sub.created_at.timestamp(),
                "case": f"{case[0]}/{case[1]}", "expected": case[3], "verdict": sub.verdict,
                "ok": sub.verdict == case[3], "total_s": round(wall_s, 3),
                "queue_s": round((sub.started_at - sub.created_at).total_seconds(), 3),
                "grading_s": round((sub.finished_at - sub.started_at).total_seconds(), 3),
                # created -> finished from the row's own timestamps: without the bench's 20 ms polling
                "stored_s": round((sub.finished_at - sub.created_at).total_seconds(), 3)}

    results = {"date": time.strftime("%Y-%m-%d"), "backend": args.backend, "queue": grading_queue(),
               "broker": env.get("CELERY_BROKER_URL", "filesystem://"), "sources": len(cases)}
    work_logs = Path(args.logs) if args.logs else Path(tempfile.mkdtemp(prefix="warpdrill-queue-bench-logs-"))
    work_logs.mkdir(parents=True, exist_ok=True)
    for concurrency in [int(c) for c in args.concurrency.split(",")]:
        log_path = work_logs / f"worker-c{concurrency}.log"
        stage_log = work_logs / f"stages-c{concurrency}.jsonl"
        worker_env = dict(env, CELERY_POLLING_INTERVAL=os.environ.get("CELERY_POLLING_INTERVAL", "0.1"))
        if args.stages:
            worker_env["WARPDRILL_STAGE_LOG"] = str(stage_log)
        # Messages a previous run left on a shared broker (its budget ran out before the queue drained) name
        # another database's submissions: the new worker would spend its first moments on them.
        from config.celery import app as celery_app

        with celery_app.connection_for_write() as conn:
            try:
                dropped = conn.default_channel.queue_purge(grading_queue()) or 0
            except Exception:  # a queue never declared on this broker: nothing to drop
                dropped = 0
        print(f"c{concurrency}: starting the worker at {time.monotonic() - began:.1f} s"
              f"{f' ({dropped} old messages purged)' if dropped else ''}", flush=True)
        worker = start_worker(worker_env, grading_queue(), concurrency, log_path)
        print(f"c{concurrency}: worker ready at {time.monotonic() - began:.1f} s", flush=True)
        part: dict = {}
        try:
            warm = [submit(cases[k][0], cases[k][2]) for k in range(concurrency)]  # each pool process once
            wait(warm)
            print(f"c{concurrency}: warm at {time.monotonic() - began:.1f} s", flush=True)
            seq_cases = cases[: args.sequential] if args.sequential else cases
            if args.spread and args.sequential and args.sequential < len(cases):
                step = len(cases) / args.sequential
                seq_cases = [cases[int(k * step)] for k in range(args.sequential)]
            rows = []
            for case in seq_cases:
                started = time.monotonic()
                sub_id = submit(case[0], case[2])
                sub = wait([sub_id])[sub_id]
                rows.append(row(sub, case, time.monotonic() - started))
                print(f"c{concurrency} seq {rows[-1]['case']:58s} {rows[-1]['total_s']:6.3f}s queue "
                      f"{rows[-1]['queue_s']:.3f} {sub.verdict}{'' if rows[-1]['ok'] else ' (expected ' + case[3] + ')'}",
                      flush=True)
            totals = [r["total_s"] for r in rows]
            part["sequential"] = {
                "n": len(rows), "p50_s": round(percentile(totals, 0.5), 3), "p95_s": round(percentile(totals, 0.95), 3),
                "queue_p50_s": round(percentile([r["queue_s"] for r in rows], 0.5), 3),
                "grading_p50_s": round(percentile([r["grading_s"] for r in rows], 0.5), 3),
                "stored_p50_s": round(percentile([r["stored_s"] for r in rows], 0.5), 3),
                "as_declared": sum(r["ok"] for r in rows), "rows": rows}
            seq_ids = {r["id"] for r in rows}
            burst = cases * args.burst_passes
            if args.burst_n:
                burst = [cases[k % len(cases)] for k in range(args.burst_n)]
            sampler = RssSampler(worker.pid) if args.rss else None
            if args.util:
                from procs import UtilSampler  # bench/ is the script's folder
            util = UtilSampler(worker.pid) if args.util else None
            started = time.monotonic()
            ids = [submit(case[0], case[2]) for case in burst]
            sub_ids = list(ids)
            timeout = max(600, 2 * len(ids))
            if args.budget_s:
                timeout = max(5.0, args.budget_s - (time.monotonic() - began))
            subs = wait(ids, timeout_s=timeout, partial=bool(args.budget_s))
            wall = time.monotonic() - started
            if len(subs) < len(ids):  # the budget ran out: the figures are those of the graded ones
                print(f"c{concurrency} burst: the budget ran out, {len(subs)} of {len(ids)} graded", flush=True)
                kept = [(i, case) for i, case in zip(ids, burst) if i in subs]
                ids, burst = [i for i, _ in kept], [case for _, case in kept]
            if util is not None:
                part["util"] = util.stop()
                print(f"c{concurrency} util: {json.dumps(part['util'])}", flush=True)
            if sampler is not None:
                part["rss"] = sampler.stop()
                print(f"c{concurrency} rss: {json.dumps(part['rss'])}", flush=True)
            if args.stages:  # after the burst: the last sequential grading's line is surely written
                part["sequential"]["stages"] = stage_table(stage_log, seq_ids)
                part["burst_stages"] = stage_table(stage_log, set(ids))
                print(f"c{concurrency} sequential stages: {json.dumps(part['sequential']['stages'])}", flush=True)
                print(f"c{concurrency} burst stages: {json.dumps(part['burst_stages'])}", flush=True)
            burst_rows = [row(subs[i], case, 0.0) for i, case in zip(ids, burst)]
            part["burst"] = {"n": len(ids), "complete": len(ids) == len(sub_ids), "wall_s": round(wall, 2), "per_minute": round(len(ids) / wall * 60, 1),
                             "as_declared": sum(r["ok"] for r in burst_rows),
                             "wrong": [r for r in burst_rows if not r["ok"]][:10]}
            print(f"c{concurrency} burst: {len(ids)} in {wall:.1f} s = {part['burst']['per_minute']}/min, "
                  f"{part['burst']['as_declared']} as declared", flush=True)
            if hang and not args.skip_hang:
                started = time.monotonic()
                hung_id = submit(hang[0], hang[2])
                hung = wait([hung_id])[hung_id]
                hung_s = time.monotonic() - started
                good_case = next(c for c in cases if c[0] == hang[0] and c[1] == "solution.cu")
                good_id = submit(good_case[0], good_case[2])
                good = wait([good_id])[good_id]
                part["hang"] = {"case": f"{hang[0]}/{hang[1]}", "verdict": hung.verdict, "s": round(hung_s, 2),
                                "next": good.verdict, "next_ok": good.verdict == "ACCEPTED"}
                print(f"c{concurrency} hang: {part['hang']}", flush=True)
        finally:
            stop_worker(worker)
        results[f"workers_{concurrency}"] = part
        if args.json:  # after each pool size: a run stopped later keeps these
            Path(args.json).write_text(json.dumps(results, indent=1))
    summary = {f"c{c}": {"p50_s": results[f"workers_{c}"].get("sequential", {}).get("p50_s"),
                         "p95_s": results[f"workers_{c}"].get("sequential", {}).get("p95_s"),
                         "per_minute": results[f"workers_{c}"].get("burst", {}).get("per_minute")}
               for c in [int(c) for c in args.concurrency.split(",")] if f"workers_{c}" in results}
    results["summary"] = summary
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print(json.dumps({k: v for k, v in results.items() if not k.startswith("workers_")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
