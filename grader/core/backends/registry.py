"""Pick a backend by name; each is loaded once per process. Heavy imports stay inside backends."""
from __future__ import annotations

import importlib
import os
from functools import cache
from typing import Callable

from .base import Backend

BACKENDS = {
    "emulator": "grader.core.backends.emulator.EmulatorBackend",
    "gpu": "grader.core.backends.gpu.GpuBackend",
    "dummy": "grader.core.backends.dummy.DummyBackend",
}


def backend_class(name: str | None = None) -> type[Backend]:
    """The class of the backend called `name` (see get_backend), imported but not instantiated.

    Raises KeyError for an unknown name and ImportError when a backend's dependencies are missing.
    """
    name = _configured(name)
    module_name, _, class_name = BACKENDS[name].rpartition(".")
    return getattr(importlib.import_module(module_name), class_name)


@cache
def get_backend(name: str | None = None) -> Backend:
    """The backend called `name` (default: the shell's setting, see default_from), loaded once.

    Raises KeyError for an unknown name and ImportError when a backend's dependencies are missing.
    """
    return backend_class(name)()


@cache
def _emulator_explainer():
    from ..explainer import HangExplainer

    return HangExplainer(lambda: backend_class("emulator")())


def hang_explainer(backend: Backend):
    """The explainer the judge asks when `backend` hung (explainer.HangExplainer over the emulator, one
    per process), or None for a backend whose hangs need no explaining (it tells a deadlock itself)."""
    return _emulator_explainer() if backend.hangs_need_explaining else None


def default_from(configured: Callable[[], str]) -> None:
    """Where the backend's name comes from when a caller names none: the shell passes a function
    reading its settings (grader/apps.py: settings.WARPDRILL_BACKEND), so this core module reads no
    Django settings. Without one: env WARPDRILL_BACKEND, else "emulator"."""
    global _default_name
    _default_name = configured


def _env_default() -> str:
    return os.environ.get("WARPDRILL_BACKEND", "emulator")


_default_name: Callable[[], str] = _env_default


def _configured(name: str | None) -> str:
    name = name if name is not None else _default_name()
    if name not in BACKENDS:
        raise KeyError(f"unknown backend {name!r} (choose from {', '.join(BACKENDS)})")
    return name
