"""grader/harness_box.py: a course's harness.py runs in the sandbox, gives exactly the inputs and
expected outputs the in-process harness gives, and its failures name harness.py's line for the author."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from authoring.core.edit import skeleton
from grader.harness_box import HarnessError, SandboxedHarness, run_case
from problems.core.package import parse_package

ROOT = Path(__file__).resolve().parents[2]


def test_the_sandboxed_harness_makes_the_same_inputs_and_outputs_as_the_in_process_one():
    package = parse_package(skeleton("scale-box", "Scale"))
    here = package.load_harness()
    inputs = here.generate({"n": 1000}, np.random.default_rng(7))
    expected = here.reference(inputs)
    boxed = SandboxedHarness(package.harness_source)
    rng = np.random.default_rng(7)
    got = boxed.generate({"n": 1000}, rng)
    assert np.array_equal(got["x"], inputs["x"]) and got["x"].dtype == np.float32
    assert got["n"] == 1000 and type(got["n"]) is int
    assert got["a"] == inputs["a"] and isinstance(got["a"], np.float32)
    assert np.array_equal(boxed.reference(got)["y"], expected["y"])


BROKEN = '''import numpy as np

def generate(case, rng):
    n = case["n"]
    return {"x": np.zeros(n), "n": n["oops"]}

def reference(inputs):
    return {}
'''


def test_a_broken_harness_reports_its_exception_and_line_to_the_author():
    with pytest.raises(HarnessError) as info:
        run_case(BROKEN, {"n": 4}, np.random.default_rng(1), {})
    assert info.value.line == 5
    assert "harness.py line 5" in info.value.author_detail and "TypeError" in info.value.author_detail
    # What anyone may read says nothing of the code.
    assert "oops" not in str(info.value) and "line" not in str(info.value)


def test_a_harness_cannot_reach_the_network_or_the_project():
    """The box has no network and no project files: its settings, database and sources are not there."""
    probe = f'''import os, socket
def generate(case, rng):
    seen = [p for p in ({str(ROOT / "config" / "settings.py")!r}, {str(ROOT / "manage.py")!r}) if os.path.exists(p)]
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1)
        net = "connected"
    except OSError:
        net = "refused"
    return {{"seen": len(seen), "net": int(net == "connected")}}
def reference(inputs):
    return {{}}
'''
    inputs, expected = run_case(probe, {}, np.random.default_rng(1), {})
    assert inputs == {"seen": 0, "net": 0} and expected == {}


TWO_ARGUMENT_REFERENCE = '''import numpy as np

def generate(case, rng):
    return {"x": np.arange(case["n"], dtype=np.float32)}

def reference(inputs, variant):
    return {"y": inputs["x"] * variant["scale"]}
'''


def test_a_two_argument_reference_gets_the_variant_in_the_box_as_it_does_in_process():
    inputs, expected = run_case(TWO_ARGUMENT_REFERENCE, {"n": 4}, np.random.default_rng(1), {"scale": 3})
    assert expected["y"].tolist() == [0.0, 3.0, 6.0, 9.0]


SLEEPS = '''import time


def generate(case, rng):
    time.sleep(600)
    return {}


def reference(inputs):
    return {}
'''

LOOPS = '''def generate(case, rng):
    n = 0
    while True: n += 1  # noqa: E701 (one line: the alarm finds it there)


def reference(inputs):
    return {}
'''

# A harness stuck where Python never gets the alarm back: SIGALRM blocked, then a sleep.
DEAF = '''import signal
import time


def generate(case, rng):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    time.sleep(600)


def reference(inputs):
    return {}
'''

HOGS = '''import numpy as np


def generate(case, rng):
    blocks = []
    while True:
        blocks.append(np.ones(16 << 20, np.uint8))


def reference(inputs):
    return {}
'''


@pytest.mark.parametrize("source, line", [(SLEEPS, 5), (LOOPS, 3)])
def test_a_harness_past_its_time_limit_is_stopped_and_the_author_reads_the_limit_and_its_line(source, line):
    """A generate() that sleeps or loops for ever is stopped at its time limit (here 3 s, not the 600 s it
    asked for), and the author reads which limit and the line it was at."""
    started = time.monotonic()
    with pytest.raises(HarnessError) as info:
        run_case(source, {}, np.random.default_rng(1), {}, time_s=3)
    assert time.monotonic() - started < 60
    detail = info.value.author_detail
    assert info.value.line == line and detail.startswith(f"harness.py line {line}: TimeoutError: ")
    assert "ran past harness.py's time limit of 3 s" in detail and 'File "harness.py", line' in detail
    assert "time limit" not in str(info.value)  # what anyone may read says nothing of the code


def test_a_harness_that_never_returns_to_python_is_killed_at_its_time_limit_all_the_same():
    started = time.monotonic()
    with pytest.raises(HarnessError) as info:
        run_case(DEAF, {}, np.random.default_rng(1), {}, time_s=3)
    assert time.monotonic() - started < 60
    assert "ran past harness.py's time limit of 3 s" in info.value.author_detail
    assert "no line to show" in info.value.author_detail and info.value.line is None


def test_a_harness_that_allocates_past_its_memory_limit_gets_a_memory_error_naming_the_limit_and_its_line():
    with pytest.raises(HarnessError) as info:
        run_case(HOGS, {}, np.random.default_rng(1), {}, memory_bytes=384 << 20)
    detail = info.value.author_detail
    assert info.value.line == 7 and detail.startswith("harness.py line 7: ")
    assert "MemoryError" in detail and "past harness.py's memory limit of 384 MiB" in detail


def test_the_limits_come_from_the_settings(settings):
    from grader.harness_box import harness_limits

    settings.WARPDRILL_HARNESS_TIME_S, settings.WARPDRILL_HARNESS_MEMORY_MB = 2.5, 700
    assert harness_limits() == (2.5, 700 << 20)
    with pytest.raises(HarnessError) as info:
        run_case(SLEEPS, {}, np.random.default_rng(1), {})
    assert "time limit of 2.5 s" in info.value.author_detail
