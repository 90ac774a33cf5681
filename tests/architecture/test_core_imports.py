"""The core is plain Python: grader/core (and the cores it uses, problems/core) import nothing from the
Django shells (django, DRF, Celery, the apps' models, views and tasks), read at the source with ast,
imports inside functions included."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORES = ("grader/core", "problems/core")
# The shells: the framework and every app package outside its core.
FRAMEWORKS = {"django", "rest_framework", "celery", "channels", "axes"}
APPS = {p.parent.name for p in ROOT.glob("*/apps.py")}


def _imports(path: Path):
    """(line, module) of each absolute import in `path`."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


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
    """The check itself: a core module importing django or an app's models would be found."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from django.conf import settings\n    import grader.models\n    import grader.core.judge\n")
    assert [m for _, m in _imports(bad) if _is_shell(m)] == ["django.conf", "grader.models"]
    assert "grader" in APPS and "problems" in APPS
