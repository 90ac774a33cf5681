"""The core is plain Python: grader/core (and the cores it uses, problems/core and practice/core) import nothing from the
Django shells (django, DRF, Celery, the apps' models, views and tasks), read at the source with ast,
imports inside functions and relative imports included."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORES = ("grader/core", "problems/core", "practice/core")
# The shells: the framework and every app package outside its core.
FRAMEWORKS = {"django", "rest_framework", "celery", "channels", "axes"}
APPS = {p.parent.name for p in ROOT.glob("*/apps.py")}


def _imports(path: Path, package: str | None = None):
    """(line, module) of each import in `path` (a module of `package`, by default the one its place
    under ROOT says), relative ones resolved (`from ... import sandbox` in grader/core/gpu/x.py is
    grader.sandbox); `from m import n` yields m and m.n (n may be a module), `from . import n` only n."""
    if package is None:
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module
            if node.module:
                yield node.lineno, module
            yield from ((node.lineno, f"{module}.{alias.name}") for alias in node.names)


def _is_shell(module: str) -> bool:
    top = module.split(".")[0]
    if top in FRAMEWORKS:
        return True
    return top in APPS and not any(module == c.replace("/", ".") or module.startswith(c.replace("/", ".") + ".")
                                   for c in CORES)


@pytest.mark.parametrize("core", CORES)
def test_the_core_imports_nothing_from_the_shells(core):
    found = [f"{path.relative_to(ROOT)}:{line}: {module}"
             for path in sorted((ROOT / core).rglob("*.py")) for line, module in _imports(path) if _is_shell(module)]
    assert not found, "the core imports from the Django shells:\n" + "\n".join(found)


def test_the_check_sees_a_shell_import(tmp_path):
    """The check itself: a core module importing django or an app's modules, absolutely or
    relatively, would be found."""
    bad = tmp_path / "probe.py"
    bad.write_text("def f():\n    from django.conf import settings\n    import grader.models\n"
                   "    from ... import sandbox\n    from .. import judge\n    from ..kernel import KernelSpec\n")
    found = sorted({m for _, m in _imports(bad, "grader.core.gpu") if _is_shell(m)})
    assert found == ["django.conf", "django.conf.settings", "grader.models", "grader.sandbox"]
    assert "grader" in APPS and "problems" in APPS
