"""bench/procs.py: a bench that lowers its own priority (load_test.py --client-nice) lowers every one of
its threads and none of the servers it started before, and reads each part's niceness from /proc."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"

# Run in a child interpreter: the test process's own niceness must not change.
SCRIPT = r"""
import json, os, subprocess, sys, threading
sys.path.insert(0, sys.argv[1])
import procs
base = procs.niceness(os.getpid())
server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
release = threading.Event()
early = threading.Thread(target=release.wait)
early.start()
held = procs.renice_self(base + 3)
seen = {}
late = threading.Thread(target=lambda: seen.update(late=procs.niceness(os.getpid(), threading.get_native_id())))
late.start(); late.join()
out = {"base": base, "held": held, "early": procs.niceness(os.getpid(), early.native_id), "late": seen["late"],
       "server": procs.niceness(server.pid), "children": procs.children_of(os.getpid()) == [server.pid]}
try:
    procs.renice_self(base)
    out["raised"] = True
except PermissionError:
    out["raised"] = False
release.set(); early.join(); server.kill(); server.wait()
print(json.dumps(out))
"""


def _run() -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(BENCH)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.skipif(os.getpriority(os.PRIO_PROCESS, 0) > 16, reason="needs room for niceness + 3")
def test_renice_self_lowers_every_thread_and_no_child_started_before():
    """Threads running before and started after the call hold the new niceness; a child process
    started before keeps the old one (it is the server, not a client) and is found by children_of."""
    out = _run()
    new = out["base"] + 3
    assert out["held"] == [new]
    assert out["early"] == new and out["late"] == new
    assert out["server"] == out["base"]
    assert out["children"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may raise its priority again")
@pytest.mark.skipif(os.getpriority(os.PRIO_PROCESS, 0) > 16, reason="needs room for niceness + 3")
def test_renice_self_cannot_raise_the_priority_again_unprivileged():
    """Unprivileged, niceness only goes up: asking for the old value back is a PermissionError
    (load_test.py turns it into a message naming the niceness it runs at)."""
    assert _run()["raised"] is False
