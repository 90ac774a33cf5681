"""LTI 1.3 endpoints: OIDC login initiation, the launch, the tool's JWKS, and an instructor's page of a
course's LMS links with "Send grades to the LMS"."""
from __future__ import annotations

import logging

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.db import transaction
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from pylti1p3.contrib.django import DjangoMessageLaunch, DjangoOIDCLogin
from pylti1p3.contrib.django.launch_data_storage.cache import DjangoCacheDataStorage
from pylti1p3.exception import LtiException, OIDCException

from courses import access
from courses.models import Course

from .launch import LaunchRefused, apply_launch
from .models import Platform, ResourceLink
from .toolconf import PlatformToolConf

log = logging.getLogger(__name__)

# State and nonce live in the "live" cache, which every web process shares (Redis in production): the
# LMS's POST of the launch may reach another process than its login request did, and it is a cross-site
# POST, so Django's own session cookie (SameSite=Lax) does not come with it.
LAUNCH_CACHE = "live"
NONCE_TTL_S = 2 * 3600  # longer than any id_token's exp that a platform sets (minutes)


def _storage() -> DjangoCacheDataStorage:
    return DjangoCacheDataStorage(cache_name=LAUNCH_CACHE)


def _refused(request, message: str, status: int = 400):
    return render(request, "lti/error.html", {"message": message}, status=status)


@csrf_exempt  # the LMS posts here from its own site; nothing changes but a short-lived state cookie
@xframe_options_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def oidc_login(request):
    """Third-party initiated login (LTI 1.3 §4.1): check the issuer and client id are registered, then
    redirect to the platform's authorisation URL with a state (cookie) and a nonce."""
    tool_conf = PlatformToolConf()
    launch_url = request.build_absolute_uri(reverse("lti:launch"))
    try:
        oidc = DjangoOIDCLogin(request, tool_conf, launch_data_storage=_storage())
        # A plain 302, no pylti1p3 cookie-check page: its inline script is refused by the site's CSP
        # (script-src 'self'), and docs/lti.md has links open in a new window, where cookies work.
        return oidc.redirect(launch_url)
    except (OIDCException, LtiException) as exc:
        return _refused(request, _("This LMS is not registered with WarpDrill (%(error)s).") % {"error": exc})


@csrf_exempt  # the id_token is the credential: signed by the platform, checked against its JWKS
@xframe_options_exempt
@never_cache
@require_POST
def launch(request):
    """The LMS's form post of the id_token: verify it (signature, iss, aud, nonce, state, deployment),
    log the user in as their linked account with the course role, and open the linked page."""
    tool_conf = PlatformToolConf()
    message = DjangoMessageLaunch(request, tool_conf, launch_data_storage=_storage())
    try:
        data = message.get_launch_data()
    except LtiException as exc:
        log.info("LTI launch refused: %s", exc)
        return _refused(request, _("The LMS launch could not be verified (%(error)s).") % {"error": exc}, status=403)
    # pylti1p3 checks that the nonce was issued to this browser, not that it is new: an id_token posted
    # again (a replay, or the browser's back button) is refused here, once per nonce for its lifetime.
    if not caches[LAUNCH_CACHE].add(f"lti-nonce-used:{data.get('iss')}:{data.get('nonce')}", 1, timeout=NONCE_TTL_S):
        return _refused(request, _("This LMS launch was already used: start it again from the LMS."), status=403)
    if not message.is_resource_launch():
        return _refused(request, _("WarpDrill takes resource link launches only (no deep linking yet)."))
    platform = tool_conf.platform(data["iss"], message.get_client_id())
    try:
        launched = apply_launch(platform, data)
    except LaunchRefused as exc:
        return _refused(request, str(exc), status=403)
    login(request, launched.user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(launched.url)


@never_cache
def jwks(request):
    """GET /lti/jwks.json: the tool's public keys ({"keys": [JWK, ...]}), which platforms use to check
    the tool's signed service token requests."""
    return JsonResponse(PlatformToolConf().get_jwks())


@login_required
def course_links(request, code: str):
    """A course's LMS links and their grade sending (instructors of the course; others 404)."""
    course = get_object_or_404(Course, code=code)
    if not access.can_administer(access.course_role(request.user, course)):
        raise Http404
    links = ResourceLink.objects.filter(course=course).select_related("platform", "exam", "problem_set")
    return render(request, "lti/links.html", {"course": course, "links": links,
                                              "platforms": Platform.objects.filter(courses=course, is_active=True)})


@login_required
@require_POST
def sync(request, code: str, link_id: int):
    """Send one link's scores to its LMS (queued: the worker sends them; the page says when)."""
    from .tasks import sync_link_grades

    course = get_object_or_404(Course, code=code)
    if not access.can_administer(access.course_role(request.user, course)):
        raise Http404
    link = get_object_or_404(ResourceLink, pk=link_id, course=course)
    if not link.graded:
        messages.error(request, _("This LMS link does not take grades (it opens a course, or the LMS gave no score scope)."))
    else:
        transaction.on_commit(lambda: sync_link_grades.delay(link.pk))
        messages.success(request, _("The scores are being sent to the LMS; reload this page to see the outcome."))
    return redirect("lti:links", code=course.code)
