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

        # The core reads no settings: the default backend's name comes from here, read at each call
        # (tests change settings.WARPDRILL_BACKEND and clear get_backend's cache).
        registry.default_from(lambda: settings.WARPDRILL_BACKEND)

        # Every save of a submission (the grader's, a rejudge's, the admin's) renews its polled state.
        def renew(sender, instance, **kwargs):
            live.changed(instance.pk)

        post_save.connect(renew, sender=Submission, dispatch_uid="grader.live.renew")
        post_delete.connect(renew, sender=Submission, dispatch_uid="grader.live.renew-deleted")
