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

from .core.times import format_when, zone_abbreviations, zone_named

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


def when(moment) -> str:
    """`moment` (aware; None gives "") as every page writes it, in the active (reader's) zone:
    "2026-12-05 20:08 KST". For Python that builds a sentence or a label for a person to read."""
    return format_when(moment, timezone.get_current_timezone())


def zone_hints() -> dict:
    """What the page's script needs to write times as the server does (static/js/timezone.js): the
    active zone's name and its abbreviations by UTC offset in minutes ({"zone": "Asia/Seoul",
    "abbreviations": {540: "KST"}})."""
    abbreviations = zone_abbreviations(timezone.get_current_timezone(), timezone.now().year)
    return {"zone": timezone.get_current_timezone_name(), "abbreviations": abbreviations}
