"""Submit-to-verdict as a student sees it under `make dev`: the page's form, then the page's polls.

Usage (from the repository root, after `make dev` or `make setup` built the emulator runtime):

    .venv/bin/python bench/dev_latency.py                      # 10 students one after another, then 20 at once
    .venv/bin/python bench/dev_latency.py --single 5 --burst 0 # a quick check

It starts the processes of Procfile.dev with honcho (the site on runserver, a grading worker with 2
processes, the exam worker, beat), with make dev's settings: SQLite and the embedded filesystem
broker in a fresh folder (WARPDRILL_VAR_DIR, deleted afterwards), the emulator backend, and the
emulator cache of this checkout (--cache-dir, var/cache by default: the runtime is built once there).
One warm-up submission is graded before the clock starts.

Each student logs in on the login page, opens the problem's page, submits the form (the bank's
vector-add-tail solution with a unique comment, so every submission is compiled), follows the
redirect to the submission's page and polls its live partial as htmx does: every `hx-trigger`
interval of the last full answer, a conditional GET with the last ETag, until the partial shows a
verdict. The clock runs from sending the form to receiving the partial with the verdict.

--single N: N students one after another (each alone on the machine): the p50 goal is 1.0 s.
--burst M: M students submitting at the same moment: the p95 goal is 1.5 s for 20 on 2 cores.
For every submission the database's timestamps split the time into: the request (form sent to row
created), the queue (created to the worker's start), the grading (start to finish) and the page
(finish to the student seeing it). The last line is JSON.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = str(ROOT / ".venv" / "bin" / "python")
SLUG = "vector-add-tail"
PASSWORD = "bench-pass-1234"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--single", type=int, default=10, help="students submitting one after another")
    p.add_argument("--burst", type=int, default=20, help="students submitting at the same moment (0: none)")
    p.add_argument("--cache-dir", default=str(ROOT / "var" / "cache"), help="WARPDRILL_CACHE_DIR of the stack")
    p.add_argument("--timeout-s", type=float, default=120.0, help="give up on a verdict after this long")
    p.add_argument("--keep", action="store_true", help="keep the stack's folder (its logs) afterwards")
    p.add_argument("--configs", default="before,after", help="which of CONFIGS to run, in this order")
    return p.parse_args()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One browser: cookies, the CSRF token, and requests on a kept-alive connection."""

    def __init__(self, port: int):
        self.port, self.cookies = port, {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None):
        head = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(headers or {})}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            head.update({"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.cookies.get("csrftoken", ""),
                         "Referer": f"http://127.0.0.1:{self.port}{path}"})
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=head)
                response = self.conn.getresponse()
                payload = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt:
                    raise
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, response.headers, payload.decode("utf-8", "replace")

    def csrf_from(self, html: str) -> str:
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        return found[1] if found else ""

    def login(self, username: str) -> None:
        _, _, html = self.request("GET", "/accounts/login/")
        status, _, _ = self.request("POST", "/accounts/login/", {"username": username, "password": PASSWORD,
                                                                  "csrfmiddlewaretoken": self.csrf_from(html)})
        if status != 302:
            raise RuntimeError(f"login of {username} answered {status}")


def submit_and_wait(client: Client, source: str, timeout: float) -> dict:
    """Open the problem page, submit, follow to the submission page, poll as htmx does. Times in seconds."""
    _, _, html = client.request("GET", f"/problems/{SLUG}/")
    started = time.monotonic()
    status, headers, _ = client.request("POST", f"/problems/{SLUG}/", {
        "source": source, "block": "", "grid": "", "shared_bytes": "", "csrfmiddlewaretoken": client.csrf_from(html)})
    if status != 302:
        raise RuntimeError(f"submit answered {status}")
    location = headers["Location"]
    pk = int(re.search(r"/submissions/(\d+)/", location)[1])
    _, _, html = client.request("GET", location)
    polls, etag = 0, None
    while True:
        found = re.search(r'data-status="(\w+)" data-verdict="(\w*)"', html)
        if found and found[1] == "GRADED":
            return {"pk": pk, "seen_s": time.monotonic() - started, "verdict": found[2], "polls": polls,
                    "sent_at": time.time() - (time.monotonic() - started)}
        if time.monotonic() - started > timeout:
            raise RuntimeError(f"submission {pk}: no verdict after {timeout} s")
        every = re.search(r'hx-trigger="every ([\d.]+)s"', html)
        time.sleep(float(every[1]) if every else 1.0)
        status, headers, body = client.request("GET", f"/submissions/{pk}/live/",
                                               headers={"If-None-Match": etag} if etag else None)
        polls += 1
        if status == 200:
            html, etag = body, headers.get("ETag")


def manage(env, *argv: str, stdin: str | None = None) -> str:
    out = subprocess.run([PY, "manage.py", *argv], cwd=ROOT, env=env, input=stdin, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"manage.py {' '.join(argv)}: {out.stderr[-2000:]}")
    return out.stdout


SETUP = """
from django.contrib.auth import get_user_model
User = get_user_model()
for i in range(%(n)d):
    User.objects.create_user(f"lat{i}", password="%(password)s")
"""

TIMES = """
import json
from grader.models import Submission
rows = Submission.objects.filter(pk__in={pks}).values_list("pk", "created_at", "queued_at", "started_at", "finished_at")
print(json.dumps({{pk: [t.timestamp() if t else None for t in ts] for pk, *ts in rows}}))
"""


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else None


def stage_medians(results: list[dict], times: dict) -> dict:
    """Median seconds of each grading stage (grader/stages.py's WARPDRILL_STAGE_LOG lines) of `results`."""
    lines = [times.get("stages", {}).get(str(r["pk"])) for r in results]
    lines = [line for line in lines if line]
    for line in lines:  # the rest: the judge's own work and waits (ptxas's report), beside the timed stages
        line["rest"] = line.get("total_s", 0.0) - sum(line.get(k, 0.0) for k in TIMED_STAGES)
    keys = sorted({k for line in lines for k in line if k not in ("id", "pid", "started")})
    return {k: round(statistics.median(line.get(k, 0.0) for line in lines), 3) for k in keys}


# grader/stages.py's stages that are seconds of the grading's wall time, one after another ("kernel" is
# part of "runs", "progress_writes" a count).
TIMED_STAGES = ("heartbeat", "claim", "package", "compile", "inputs", "runs", "checks", "progress", "save")


def breakdown(results: list[dict], times: dict) -> dict:
    """Median seconds of each part: request, queue, grading, page (see the module's docstring)."""
    parts = {"request": [], "queue": [], "grading": [], "page": []}
    for r in results:
        created, queued, started, finished = times[str(r["pk"])]
        seen_at = r["sent_at"] + r["seen_s"]
        parts["request"].append(created - r["sent_at"])
        parts["queue"].append(started - created)
        parts["grading"].append(finished - started)
        parts["page"].append(seen_at - finished)
    return {k: round(statistics.median(v), 3) for k, v in parts.items() if v}


def run_group(port: int, users: list[str], source_tag: str, timeout: float, together: bool) -> list[dict]:
    source = (ROOT / "problems" / "bank" / SLUG / "solution.cu").read_text()
    clients = []
    for user in users:
        client = Client(port)
        client.login(user)
        clients.append(client)
    results: list[dict] = []
    errors: list[str] = []
    gate = threading.Barrier(len(clients)) if together else None

    def one(i, client):
        try:
            if gate:
                gate.wait()
            results.append(submit_and_wait(client, f"// {source_tag} {i} {time.time_ns()}\n{source}", timeout))
        except Exception as exc:  # reported with the figures
            errors.append(f"{users[i]}: {exc}")

    if together:
        threads = [threading.Thread(target=one, args=(i, c)) for i, c in enumerate(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        for i, client in enumerate(clients):
            one(i, client)
            time.sleep(0.5)  # each submission alone on the machine
    if errors:
        print("errors:", *errors, sep="\n  ")
    return results


def run_stack(args, extra_env: dict) -> tuple[list[dict], list[dict], dict, list[float]]:
    """Start a fresh dev stack with `extra_env`, grade the warm-up, then the single and burst groups.
    Returns (single results, burst results, database times by pk, load averages at start and end)."""
    folder = Path(tempfile.mkdtemp(prefix="wd-devlat-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL")}
    env.update(WARPDRILL_VAR_DIR=str(folder), WARPDRILL_CACHE_DIR=args.cache_dir, WARPDRILL_PORT=str(port),
               PYTHONUNBUFFERED="1", WARPDRILL_STAGE_LOG=str(folder / "stages.jsonl"), **extra_env)
    manage(env, "migrate", "--no-input", "-v", "0")
    (folder / "bank").mkdir()
    (folder / "bank" / SLUG).symlink_to(ROOT / "problems" / "bank" / SLUG)
    manage(env, "import_problems", str(folder / "bank"), "--quiet")
    manage(env, "shell", "-c", SETUP % {"n": 1 + args.single + args.burst, "password": PASSWORD})
    log = open(folder / "stack.log", "w")
    stack = subprocess.Popen([str(ROOT / ".venv" / "bin" / "honcho"), "start", "-f", "Procfile.dev"], cwd=ROOT, env=env,
                             stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    loads = [os.getloadavg()[0]]
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                Client(port).request("GET", "/")
                break
            except OSError:
                if time.monotonic() > deadline or stack.poll() is not None:
                    raise RuntimeError("the dev stack did not answer; see " + str(folder / "stack.log"))
                time.sleep(0.5)
        warm = run_group(port, ["lat0"], "warm-up", 300, together=False)
        print(f"  warm-up: {warm[0]['seen_s']:.2f} s" if warm else "  warm-up failed")
        single_users = [f"lat{i}" for i in range(1, 1 + args.single)]
        burst_users = [f"lat{i}" for i in range(1 + args.single, 1 + args.single + args.burst)]
        single = run_group(port, single_users, "single", args.timeout_s, together=False) if single_users else []
        burst = run_group(port, burst_users, "burst", args.timeout_s, together=True) if burst_users else []
        pks = [r["pk"] for r in single + burst]
        times = json.loads(manage(env, "shell", "-c", TIMES.format(pks=pks)).strip().splitlines()[-1]) if pks else {}
        loads.append(os.getloadavg()[0])
        stage_lines = [json.loads(line) for line in (folder / "stages.jsonl").read_text().splitlines()] \
            if (folder / "stages.jsonl").exists() else []
        times["stages"] = {str(line["id"]): line for line in stage_lines}
    finally:
        os.killpg(stack.pid, signal.SIGINT)
        try:
            stack.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(stack.pid, signal.SIGKILL)
        log.close()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"  kept {folder}")
    return single, burst, times, loads


# What is compared, in one run: the page's polls as they were (every second while queued, half a
# second while graded) and with the fast start (every quarter second for the first 5 s); "full_check"
# is the defaults with the emulator's full check pass (every kernel compiled and run under
# ThreadSanitizer and the initcheck, as before grader/core/emulator/checkplan.py), to compare with
# "after" (`--configs full_check,after`).
# "ptxas_late" is the defaults with ptxas's report started after the harness calls and waited for at
# the grading's end, as before it was started before the compile (`--configs ptxas_late,after`);
# "ptxas_nvcc" makes that report with nvcc instead of NVRTC (`--configs ptxas_nvcc,after`).
CONFIGS = {"before": {"WARPDRILL_POLL_FAST_START_S": "0"}, "after": {}, "full_check": {"WARPDRILL_FULL_CHECK_PASS": "1"},
           "ptxas_late": {"WARPDRILL_PTXAS_REPORT_LATE": "1"}, "ptxas_nvcc": {"WARPDRILL_PTXAS_COMPILER": "nvcc"}}


def main() -> int:
    args = parse_args()
    figures: dict = {}
    for name in args.configs.split(","):
        print(f"{name}: {CONFIGS[name] or 'defaults'}")
        single, burst, times, loads = run_stack(args, CONFIGS[name])
        figures[name] = {"load_average_1min": [round(x, 2) for x in loads]}
        for group, results, goal_q, goal in (("single", single, 0.5, 1.0), ("burst", burst, 0.95, 1.5)):
            if not results:
                continue
            seen = [r["seen_s"] for r in results]
            f = figures[name][group] = {
                "n": len(results), "p50_s": round(pct(seen, 0.5), 3), "p95_s": round(pct(seen, 0.95), 3),
                "max_s": round(max(seen), 3), "goal": f"p{int(goal_q * 100)} <= {goal} s", "met": pct(seen, goal_q) <= goal,
                "median_parts_s": breakdown(results, times), "median_stages_s": stage_medians(results, times),
                "verdicts": sorted({r["verdict"] for r in results}),
                "polls_median": statistics.median(r["polls"] for r in results)}
            print(f"  {group:6} n={f['n']:3}  p50 {f['p50_s']:.2f} s  p95 {f['p95_s']:.2f} s  max {f['max_s']:.2f} s  "
                  f"({f['goal']}: {'met' if f['met'] else 'NOT met'})  median parts (s): {f['median_parts_s']}  "
                  f"load {figures[name]['load_average_1min']}")
            print(f"         grading stages (median s): {f['median_stages_s']}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
