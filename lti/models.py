"""LTI 1.3 records: a platform registration (an LMS that may launch WarpDrill), the LMS users linked to
WarpDrill accounts, and the resource links (one LMS placement each) with their line item for grades."""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from .keys import new_key_pair


def _list_of_strings(value) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValidationError(_('A JSON list of deployment ids, e.g. ["1"].'))


class Platform(models.Model):
    """One LMS registration (issuer + client id), as the LMS's administrator gives them. The tool's key
    pair is made on first save; its public half is served at /lti/jwks.json. Only the courses listed in
    `courses` may be launched into from this platform: a launch naming another course is refused."""

    name = models.CharField(_("name"), max_length=200, help_text=_("e.g. University Canvas"))
    issuer = models.CharField(_("issuer"), max_length=255, help_text=_("The platform's iss, e.g. https://canvas.instructure.com"))
    client_id = models.CharField(_("client id"), max_length=255)
    deployment_ids = models.JSONField(_("deployment ids"), default=list, blank=True, validators=[_list_of_strings],
                                      help_text=_('JSON list, e.g. ["1:abc"]: launches from other deployments are refused.'))
    auth_login_url = models.URLField(_("OIDC authorisation URL"), max_length=500)
    auth_token_url = models.URLField(_("access token URL"), max_length=500)
    auth_audience = models.CharField(_("token audience"), max_length=500, blank=True,
                                     help_text=_("Empty: the access token URL (Moodle, Canvas)."))
    key_set_url = models.URLField(_("platform JWKS URL"), max_length=500, blank=True)
    key_set = models.JSONField(_("platform JWKS"), null=True, blank=True,
                               help_text=_("Only when the platform has no JWKS URL: its keys as JSON."))
    tool_private_key = models.TextField(_("tool private key"), blank=True, help_text=_("Made on first save."))
    tool_public_key = models.TextField(_("tool public key"), blank=True)
    courses = models.ManyToManyField("courses.Course", blank=True, related_name="lti_platforms",
                                     verbose_name=_("courses it may launch into"))
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("LTI platform")
        verbose_name_plural = _("LTI platforms")
        constraints = [models.UniqueConstraint(fields=["issuer", "client_id"], name="unique_lti_registration")]

    def __str__(self):
        return f"{self.name} ({self.issuer})"

    def clean(self):
        if not self.key_set_url and not self.key_set:
            raise ValidationError(_("Give the platform's JWKS URL (or its keys)."))

    def save(self, *args, **kwargs):
        if not self.tool_private_key:
            self.tool_private_key, self.tool_public_key = new_key_pair()
        super().save(*args, **kwargs)


class LtiUser(models.Model):
    """An LMS user (the platform's `sub`) and the WarpDrill account it launches as."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="users", verbose_name=_("platform"))
    sub = models.CharField(_("LMS user id"), max_length=255)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_identities",
                             verbose_name=_("account"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("LTI user")
        verbose_name_plural = _("LTI users")
        constraints = [models.UniqueConstraint(fields=["platform", "sub"], name="unique_lti_user")]

    def __str__(self):
        return f"{self.platform.name}: {self.sub} → {self.user}"


class ResourceLink(models.Model):
    """One placement of WarpDrill in an LMS course (a resource link), what it opens (a course, or one of
    its problem sets or exams), and the Assignment and Grade Services claim of its last launch (`ags`:
    {"scope": [...], "lineitems": url, "lineitem": url}) with the line item scores go to."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="links", verbose_name=_("platform"))
    deployment_id = models.CharField(_("deployment id"), max_length=255)
    resource_link_id = models.CharField(_("resource link id"), max_length=255)
    context_id = models.CharField(_("LMS course id"), max_length=255, blank=True)
    context_title = models.CharField(_("LMS course"), max_length=255, blank=True)
    title = models.CharField(_("title"), max_length=255, blank=True)
    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="lti_links",
                               verbose_name=_("course"))
    exam = models.ForeignKey("exams.Exam", on_delete=models.CASCADE, null=True, blank=True, related_name="lti_links",
                             verbose_name=_("exam"))
    problem_set = models.ForeignKey("homework.ProblemSet", on_delete=models.CASCADE, null=True, blank=True,
                                    related_name="lti_links", verbose_name=_("problem set"))
    ags = models.JSONField(_("grade service"), default=dict, blank=True)
    lineitem_url = models.URLField(_("line item"), max_length=500, blank=True)
    last_synced_at = models.DateTimeField(_("grades last sent"), null=True, blank=True)
    last_sync_report = models.CharField(_("last sending"), max_length=500, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("LTI resource link")
        verbose_name_plural = _("LTI resource links")
        constraints = [models.UniqueConstraint(fields=["platform", "deployment_id", "resource_link_id"],
                                               name="unique_lti_resource_link")]

    def __str__(self):
        return f"{self.platform.name}: {self.title or self.resource_link_id}"

    @property
    def graded(self) -> bool:
        """Whether scores go back for this link: it opens an exam or a problem set and the platform
        granted the score scope."""
        scopes = (self.ags or {}).get("scope") or []
        return bool((self.exam_id or self.problem_set_id) and "https://purl.imsglobal.org/spec/lti-ags/scope/score" in scopes)
