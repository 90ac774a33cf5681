"""System checks of the grader: can this machine grade? (ids grader.E001...)."""
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
