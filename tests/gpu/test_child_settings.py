"""How the worker's GPU children run (grader/core/gpu/child_settings.py): the settings reach each child as
flags and compute-sanitizer as options, and a value outside the known ones is refused where it is set."""
from __future__ import annotations

import pytest

from grader.core.backends.gpu import GpuBackend
from grader.core.gpu.child_settings import DEFAULT, ChildSettings
from grader.core.gpu.pool import Child, ChildPool
from grader.core.gpu.sanitizer import Tool, tool_options


def test_by_default_children_sleep_while_they_wait_and_memcheck_ends_only_the_kernel():
    assert (DEFAULT.sync, DEFAULT.memcheck_on_error) == ("blocking", "kernel")
    options = tool_options(Tool.MEMCHECK, "/box/sanitizer.log", jobs=100)
    assert options[options.index("--destroy-on-device-error") + 1] == "kernel"


def test_the_old_behaviour_can_be_asked_for():
    settings = ChildSettings(sync="auto", memcheck_on_error="context")
    assert settings.child_args("memcheck") == ["--sync", "auto", "--memcheck-on-error", "context"]
    assert settings.child_args(None) == ["--sync", "auto"]  # the main child is not under memcheck
    options = tool_options(Tool.MEMCHECK, "/box/sanitizer.log", 100, settings.memcheck_on_error)
    assert options[options.index("--destroy-on-device-error") + 1] == "context"
    assert "--destroy-on-device-error" not in tool_options(Tool.RACECHECK, "/box/sanitizer.log", 100)


@pytest.mark.parametrize("bad", [{"sync": "busy"}, {"memcheck_on_error": "process"}])
def test_an_unknown_value_is_refused_when_the_backend_is_made(bad):
    with pytest.raises(ValueError):
        ChildSettings(**bad)
    with pytest.raises(ValueError):
        GpuBackend(arch="sm_90", pool=ChildPool(factory=lambda tool: Child(tool, fake=True)), **bad)


def test_the_child_accepts_the_flags_it_is_given():
    """child.py's command line takes what spawn adds (argparse would exit 2 on an unknown flag)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "grader.core.gpu.child", "--help"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0
    assert "--sync {blocking,spin,yield,auto}" in out.stdout and "--memcheck-on-error {kernel,context}" in out.stdout
