from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GraderConfig(AppConfig):
    """Submissions, the grading tasks, and the judge with its backends."""

    name = "grader"
    verbose_name = _("Grader")

    def ready(self):
        from django.conf import settings
        from django.db.models.signals import post_delete, post_save

        from . import checks  # noqa: F401  (registers system checks)
        from . import live
        from .core.backends import registry
        from .models import Submission

        # The core reads no settings and no environment: the judge's configuration (the backend and
        # every option its constructor takes) comes from here, read at each build (tests change
        # settings.WARPDRILL_JUDGE and clear get_backend's cache).
        registry.configure(lambda: settings.WARPDRILL_JUDGE)

        # Every save of a submission (the grader's, a rejudge's, the admin's) renews its polled state.
        # The receiver is a module-level function: signals hold their receivers weakly, and a
        # function defined here was collected once ready() returned whenever nothing else held it
        # (DEBUG off, i.e. production), so graded rows kept a pre-verdict token and polls got 304.
        post_save.connect(live.renew_on_save, sender=Submission, dispatch_uid="grader.live.renew")
        post_delete.connect(live.renew_on_save, sender=Submission, dispatch_uid="grader.live.renew-deleted")
