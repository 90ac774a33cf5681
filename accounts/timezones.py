"""The reader's time zone: every page shows times in it and every form reads times in it.

The browser names its zone (Intl's resolvedOptions().timeZone, e.g. "Asia/Seoul") in the cookie
TIME_ZONE_COOKIE (static/js/timezone.js sets it on every page); the middleware activates that zone
for the request, or leaves settings.TIME_ZONE (WARPDRILL_TIME_ZONE; "UTC" by default) where the
cookie is missing or names no zone. Pages say which zone they use (the `when` filter and the
`time_zone_note` tag in problems/templatetags/warpdrill.py), so a student abroad reads a deadline in
their own clock, labelled, and an instructor's datetime fields mean the instructor's clock.
"""
from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from .core.times import zone_named

TIME_ZONE_COOKIE = "wd_tz"


class ReaderTimeZoneMiddleware:
    """Activate the zone named by the TIME_ZONE_COOKIE cookie for the request (else the site's)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = zone_named(request.COOKIES.get(TIME_ZONE_COOKIE))
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def reader_zone_is_the_sites() -> bool:
    """Whether the active zone is settings.TIME_ZONE (no zone from the browser, or the same one)."""
    return timezone.get_current_timezone_name() == settings.TIME_ZONE
