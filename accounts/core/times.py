"""Dates and times as every page writes them: one format, with the time zone named.

Plain Python, no Django. "2026-12-05 20:08 KST" (ISO date, 24-hour clock, the zone's abbreviation)
in English and Korean alike: the tester found "closes 2026-12-05 20:08" on the course page and
"Dec. 5, 2026, 8:08 p.m." on the exam page, and no zone anywhere a student looked. The zone is the
reader's (accounts.timezones: the browser's, else settings.TIME_ZONE).

Every page string goes through format_when: templates with the `when` filter, Python that builds a
sentence with accounts.timezones.when, and the page's scripts with WarpDrill.formatWhen
(static/js/timezone.js), which writes the same format in the browser's zone.
"""
from __future__ import annotations

import re
from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

_NUMERIC = re.compile(r"^[+-]\d{2}(\d{2})?$")  # zoneinfo's abbreviation where a zone has no letters: "+05"


def zone_abbreviation(moment: datetime) -> str:
    """The abbreviation of an aware `moment`'s zone at that moment ("KST", "UTC", "CET"/"CEST");
    "UTC+05" or "UTC-03:30" where the zone has no lettered one."""
    name = moment.tzname() or "UTC"
    if _NUMERIC.match(name):
        sign, hours, minutes = name[0], name[1:3], name[3:5]
        return f"UTC{sign}{hours}" + (f":{minutes}" if minutes and minutes != "00" else "")
    return name


def format_when(moment: datetime | None, zone: tzinfo) -> str:
    """An aware `moment` in `zone` as "YYYY-MM-DD HH:MM ZONE"; "" for None.

    The one format: no seconds and no time without its date, even for the events of one sitting (the
    tester read "20:08:05 KST" on the exam results page beside "2026-12-05 20:08 KST" on the exam page).
    Machine-readable exports (CSV, JSON, <time datetime>) stay ISO 8601 and do not come here."""
    if moment is None:
        return ""
    local = moment.astimezone(zone)
    return f"{local.strftime('%Y-%m-%d %H:%M')} {zone_abbreviation(local)}"


def zone_abbreviations(zone: tzinfo, year: int) -> dict[int, str]:
    """{UTC offset in minutes: abbreviation} of `zone` in `year`, from its winter and summer
    ({540: "KST"}; {60: "CET", 120: "CEST"}): the page's script names the zone as this module does
    (a browser's Intl has "GMT+9" for Asia/Seoul, not "KST")."""
    out = {}
    for month in (1, 7):
        local = datetime(year, month, 1, 12, tzinfo=zone)
        offset = local.utcoffset()
        out[int(offset.total_seconds() // 60) if offset is not None else 0] = zone_abbreviation(local)
    return out


def zone_named(name: str | None) -> ZoneInfo | None:
    """The IANA zone `name` ("Asia/Seoul"), or None when it names none (a cookie is user input)."""
    if not name or len(name) > 64 or name not in _zone_names():
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


_NAMES: set[str] = set()


def _zone_names() -> set[str]:
    if not _NAMES:
        _NAMES.update(available_timezones())
    return _NAMES
