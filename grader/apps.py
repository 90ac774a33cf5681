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
        def renew(sender, instance, **kwargs):
            live.changed(instance.pk)

        post_save.connect(renew, sender=Submission, dispatch_uid="grader.live.renew")
        post_delete.connect(renew, sender=Submission, dispatch_uid="grader.live.renew-deleted")
