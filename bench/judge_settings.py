"""The judge's configuration for benchmark scripts that drive the core without Django: the one
config/settings.py builds from the environment (WARPDRILL_JUDGE: WARPDRILL_BWRAP, WARPDRILL_GPU_*,
WARPDRILL_ALLOW_UNSAFE_SANDBOX...), read by executing that file, so a script run with those variables
set gets the sandbox and options a worker would."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def configure_judge() -> dict:
    """Load config/settings.py's WARPDRILL_JUDGE, hand it to the registry and make its sandbox the
    default one (sandbox.box.DEFAULT) of backends built without a sandbox option. Returns it."""
    from grader.core.backends import registry
    from grader.core.sandbox import box

    spec = importlib.util.spec_from_file_location("_warpdrill_settings", ROOT / "config" / "settings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    judge = module.WARPDRILL_JUDGE
    registry.configure(lambda: judge)
    box.DEFAULT = registry.configured_sandbox()
    return judge
