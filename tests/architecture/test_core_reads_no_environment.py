"""The cores read no environment: their configuration comes in through constructors and arguments,
built once by the shell from config/settings.py (WARPDRILL_JUDGE and the other WARPDRILL_* settings).
Read at the source with ast: `os.environ`, `os.environb`, `os.getenv` and `from os import environ`
anywhere in a module, at import or inside a function, fail the test.

The one exception: a child process's environment may be built from named variables of the worker's
(CUDA's device selection, library and Python paths), handed to the child explicitly; that happens in
grader/core/gpu/isolation.py's functions listed in CHILD_ENVIRONMENT and nowhere else."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORES = ("grader/core", "problems/core", "practice/core", "exams/core", "authoring/core", "playground/core",
         "accounts/core", "courses/core")
READERS = {"environ", "environb", "getenv", "getenvb"}
# module -> functions that copy named variables of the worker's environment into a child's.
CHILD_ENVIRONMENT = {"grader/core/gpu/isolation.py": {"_library_dirs", "child_launch"}}


def _reads(path: Path):
    """(line, enclosing function or None, what) of every environment read in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def visit(node, function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        if isinstance(node, ast.Attribute) and node.attr in READERS and isinstance(node.value, ast.Name) \
                and node.value.id == "os":
            found.append((node.lineno, function, f"os.{node.attr}"))
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            found.extend((node.lineno, function, f"from os import {a.name}") for a in node.names if a.name in READERS)
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, None)
    return found


def _core_modules():
    return sorted(p for core in CORES if (ROOT / core).is_dir() for p in (ROOT / core).rglob("*.py"))


@pytest.mark.parametrize("path", _core_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_core_module_reads_no_environment(path):
    """No module of a core reads os.environ (nor getenv): settings reach it as arguments."""
    allowed = CHILD_ENVIRONMENT.get(str(path.relative_to(ROOT)), set())
    reads = [(line, what) for line, function, what in _reads(path) if function not in allowed]
    assert not reads, f"{path.relative_to(ROOT)} reads the environment: {reads}"


def test_the_check_sees_a_read(tmp_path):
    """The checker itself: a read at import, one in a function and an imported getenv are all found."""
    module = tmp_path / "m.py"
    module.write_text("import os\nfrom os import getenv\nA = os.environ.get('X')\n"
                      "def f():\n    return os.getenv('Y'), os.environ['Z']\n")
    assert [(line, function) for line, function, _ in _reads(module)] == [(2, None), (3, None), (5, "f"), (5, "f")]


def test_the_judge_settings_are_read_from_the_environment_once(settings):
    """config/settings.py builds WARPDRILL_JUDGE from the environment: every option the backends'
    constructors take, the sandbox's included, and the two settings once defined but unread
    (WARPDRILL_CACHE_DIR, WARPDRILL_ALLOW_UNSAFE_SANDBOX) are their source."""
    options = settings.WARPDRILL_JUDGE["OPTIONS"]
    assert options["cache_root"] == str(settings.WARPDRILL_CACHE_DIR)
    assert options["sandbox"]["allow_unsafe"] is settings.WARPDRILL_ALLOW_UNSAFE_SANDBOX
    assert set(options) >= {"cache_root", "sandbox", "cxx", "arch", "checks", "fresh_child_per_submission",
                            "compiler", "start_timeout_s", "sanitizer_jobs", "nvcc_time_limit_s"}


def test_the_registry_builds_backends_from_the_setting(settings, tmp_path):
    """registry.build_backend hands each backend the options its constructor names (the emulator its
    cache root, compiler and sandbox; the GPU backend its own) from settings.WARPDRILL_JUDGE."""
    from grader.core.backends import registry
    from grader.core.gpu.sanitizer import Tool

    settings.WARPDRILL_JUDGE = {"BACKEND": "emulator", "OPTIONS": {
        "cache_root": str(tmp_path), "cxx": "/usr/bin/g++-12", "checks": "racecheck", "compiler": "nvcc",
        "sandbox": {"bwrap": "/opt/bwrap", "uid": 4242, "hide": [str(tmp_path)], "allow_unsafe": False}}}
    emulator = registry.build_backend()
    assert emulator.cache_dir == tmp_path / "emulator" and emulator.cxx == "/usr/bin/g++-12"
    assert (emulator.sandbox.bwrap, emulator.sandbox.uid, emulator.sandbox.hide) == ("/opt/bwrap", 4242, (str(tmp_path),))
    assert registry.configured_sandbox() == emulator.sandbox
    gpu = registry.build_backend("gpu")
    try:
        assert gpu.checks == (Tool.RACECHECK,) and not gpu.use_nvrtc and gpu.sandbox == emulator.sandbox
        assert gpu.cache.root == tmp_path / "gpu"
    finally:
        gpu.shutdown()
    settings.WARPDRILL_JUDGE = {**settings.WARPDRILL_JUDGE, "BACKEND": "grader.core.backends.dummy.DummyBackend"}
    assert registry.backend_class().name == "dummy"
