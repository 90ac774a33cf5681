"""Dates and times as every page writes them: one format, with the time zone named.

Plain Python, no Django. "2026-12-05 20:08 KST" (ISO date, 24-hour clock, the zone's abbreviation)
in English and Korean alike: the tester found "closes 2026-12-05 20:08" on the course page and
"Dec. 5, 2026, 8:08 p.m." on the exam page, and no zone anywhere a student looked. The zone is the
reader's (accounts.timezones: the browser's, else settings.TIME_ZONE).
"""
from __future__ import annotations

import enum
import re
from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

_NUMERIC = re.compile(r"^[+-]\d{2}(\d{2})?$")  # zoneinfo's abbreviation where a zone has no letters: "+05"


class Precision(enum.StrEnum):
    """How much of a moment a page shows."""

    MINUTES = "minutes"  # 2026-12-05 20:08 KST: deadlines, opening times
    SECONDS = "seconds"  # 2026-12-05 20:08:05 KST: logs of runs
    TIME = "time"  # 20:08:05 KST: events of one sitting (an attempt's timeline)


def zone_abbreviation(moment: datetime) -> str:
    """The abbreviation of an aware `moment`'s zone at that moment ("KST", "UTC", "CET"/"CEST");
    "UTC+05" or "UTC-03:30" where the zone has no lettered one."""
    name = moment.tzname() or "UTC"
    if _NUMERIC.match(name):
        sign, hours, minutes = name[0], name[1:3], name[3:5]
        return f"UTC{sign}{hours}" + (f":{minutes}" if minutes and minutes != "00" else "")
    return name


def format_when(moment: datetime | None, zone: tzinfo, precision: Precision | str = Precision.MINUTES) -> str:
    """An aware `moment` in `zone` as "YYYY-MM-DD HH:MM ZONE" (Precision.SECONDS adds ":SS",
    Precision.TIME leaves out the date); "" for None."""
    if moment is None:
        return ""
    local = moment.astimezone(zone)
    precision = Precision(precision)
    if precision is Precision.TIME:
        text = local.strftime("%H:%M:%S")
    elif precision is Precision.SECONDS:
        text = local.strftime("%Y-%m-%d %H:%M:%S")
    else:
        text = local.strftime("%Y-%m-%d %H:%M")
    return f"{text} {zone_abbreviation(local)}"


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
