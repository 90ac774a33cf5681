"""Pick a backend and build it from the shell's configuration; each is built once per process.

The configuration is a mapping shaped like Django's TASKS and CACHES entries, handed in by the shell
(grader/apps.py passes config/settings.py's WARPDRILL_JUDGE; this core module reads neither Django
settings nor the environment):

    {"BACKEND": "emulator",            # a name in BACKENDS, or the dotted path of a Backend class
     "OPTIONS": {"cache_root": ..., "sandbox": {...}, "cxx": ..., "arch": ..., ...}}

OPTIONS is one dict for the judge: each backend's constructor takes the options it names and no
other (the emulator the hang explainer asks is built from the same dict), so a site switches
backends by BACKEND alone. Heavy imports stay inside backends.
"""
from __future__ import annotations

import importlib
import inspect
from functools import cache
from typing import Any, Callable, Mapping

from ..sandbox import Sandbox
from .base import Backend

BACKENDS = {
    "emulator": "grader.core.backends.emulator.EmulatorBackend",
    "gpu": "grader.core.backends.gpu.GpuBackend",
    "dummy": "grader.core.backends.dummy.DummyBackend",
}
DEFAULT_CONFIG: Mapping[str, Any] = {"BACKEND": "emulator", "OPTIONS": {}}



def _default_configuration() -> Mapping[str, Any]:
    return DEFAULT_CONFIG


_configuration: Callable[[], Mapping[str, Any]] = _default_configuration


def configure(configuration: Callable[[], Mapping[str, Any]]) -> None:
    """Where the judge's configuration comes from: the shell passes a function reading its settings
    (grader/apps.py: settings.WARPDRILL_JUDGE), read at each build (tests change the setting and clear
    get_backend's cache). Without one: DEFAULT_CONFIG (the emulator with its defaults)."""
    global _configuration
    _configuration = configuration


def configuration() -> Mapping[str, Any]:
    """The judge's configuration now: {"BACKEND": name or dotted path, "OPTIONS": {...}}."""
    config = _configuration()
    return {"BACKEND": config.get("BACKEND", DEFAULT_CONFIG["BACKEND"]), "OPTIONS": dict(config.get("OPTIONS") or {})}


def backend_class(name: str | None = None) -> type[Backend]:
    """The class of the backend `name` (a name in BACKENDS or a dotted path; default: the configured
    BACKEND), imported but not instantiated.

    Raises KeyError for an unknown name and ImportError when a backend's dependencies are missing.
    """
    name = name if name is not None else configuration()["BACKEND"]
    path = BACKENDS.get(name, name)
    if "." not in path:
        raise KeyError(f"unknown backend {name!r} (choose from {', '.join(BACKENDS)}, or a dotted path)")
    module_name, _, class_name = path.rpartition(".")
    return getattr(importlib.import_module(module_name), class_name)


def options_for(cls: type[Backend], options: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of `options` that `cls`'s constructor takes (all of them if it takes **kwargs; none
    for a class without a constructor of its own)."""
    if cls.__init__ is object.__init__:
        return {}
    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return dict(options)
    return {k: v for k, v in options.items() if k in params and k != "self"}


def build_backend(name: str | None = None) -> Backend:
    """A new backend `name` (default: the configured BACKEND) built from the configured OPTIONS."""
    cls = backend_class(name)
    return cls(**options_for(cls, configuration()["OPTIONS"]))


_built: dict[tuple[str, str], Backend] = {}


def get_backend(name: str | None = None) -> Backend:
    """The backend `name` (default: the configured BACKEND), built once per process and configuration.

    The cache is keyed by the backend's name and the configuration's OPTIONS as they are now: a
    process whose configuration changes (a test's settings) gets the backend it names, never one
    built for an earlier configuration (tests/homework/test_set_problem_gpu.py was graded by the
    dummy backend a test before it had configured). get_backend.cache_clear() forgets them all.

    Raises KeyError for an unknown name and ImportError when a backend's dependencies are missing.
    """
    config = configuration()
    key = (name if name is not None else str(config["BACKEND"]), repr(sorted(config["OPTIONS"].items(), key=str)))
    backend = _built.get(key)
    if backend is None:
        backend = _built[key] = build_backend(name)
    return backend


get_backend.cache_clear = _built.clear  # type: ignore[attr-defined]


def configured_sandbox() -> Sandbox:
    """How this worker makes boxes: OPTIONS["sandbox"] as a Sandbox (the shell's own boxes, a course's
    harness.py, use it as the backends do)."""
    return Sandbox.of(configuration()["OPTIONS"].get("sandbox"))


@cache
def _emulator_explainer():
    from ..explainer import HangExplainer

    return HangExplainer(lambda: build_backend("emulator"))


def hang_explainer(backend: Backend):
    """The explainer the judge asks when `backend` hung (explainer.HangExplainer over the emulator, one
    per process), or None for a backend whose hangs need no explaining (it tells a deadlock itself)."""
    return _emulator_explainer() if backend.hangs_need_explaining else None
