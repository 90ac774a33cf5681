"""System checks of the grader: can this machine grade? (ids grader.E001...)."""
import os
import sys

from django.core import checks


@checks.register(checks.Tags.compatibility)
def check_backend(app_configs, **kwargs):
    """grader.W001: the configured judge backend reports problems on this machine."""
    from grader.core.backends import registry

    try:
        backend = registry.get_backend()
    except Exception as exc:  # the check must never crash `manage.py check`
        return [checks.Warning(f"judge backend cannot be loaded: {exc}", id="grader.W002")]
    return [checks.Warning(p, id="grader.W001") for p in backend.check()]


# Commands that grade in their own process (a Celery worker is recognised by its program name).
GRADING_COMMANDS = frozenset({"check", "judge", "validate_problem", "gpu_worker_check"})


def grades_here() -> bool:
    """Whether this process may compile or run students' code (so needs the sandbox)."""
    from django.conf import settings

    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return True
    if sys.argv and "celery" in os.path.basename(sys.argv[0]):
        return True
    return len(sys.argv) > 1 and sys.argv[1] in GRADING_COMMANDS


def sandbox_messages() -> list[checks.CheckMessage]:
    """grader.E002: bubblewrap is missing or cannot create namespaces (W003: unsafe mode is on instead)."""
    from grader.core.backends import registry

    box = registry.configured_sandbox()
    reason = box.probe(refresh=True)
    if reason is None:
        return []
    if box.allow_unsafe:
        return [checks.Warning(f"students' code runs WITHOUT a sandbox (WARPDRILL_ALLOW_UNSAFE_SANDBOX=1): {reason}",
                               hint="Development machines only.", id="grader.W003")]
    return [checks.Error(f"this machine cannot grade: {reason}",
                         hint="Install bubblewrap (Debian: bubblewrap) and allow user namespaces; workers refuse to "
                              "grade until then (submissions wait as 'not graded, retrying').",
                         id="grader.E002")]


@checks.register(checks.Tags.compatibility)
def check_sandbox(app_configs, **kwargs):
    """grader.E002 in processes that grade; the web server, which never runs students' code, is spared."""
    return sandbox_messages() if grades_here() else []
