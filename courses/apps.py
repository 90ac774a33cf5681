from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoursesConfig(AppConfig):
    """Courses, memberships with a per-course role (student, TA, instructor), invites and rosters."""

    name = "courses"
    verbose_name = _("Courses")
