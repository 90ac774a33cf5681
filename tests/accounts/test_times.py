"""accounts.core.times: one format for every date and time a page shows, the zone named."""
from datetime import datetime, timezone

import pytest

from accounts.core.times import format_when, zone_abbreviation, zone_abbreviations, zone_named

MOMENT = datetime(2026, 12, 5, 11, 8, 5, tzinfo=timezone.utc)


@pytest.mark.parametrize("zone, stamp", [
    ("Asia/Seoul", "2026-12-05 20:08 KST"),
    ("UTC", "2026-12-05 11:08 UTC"),
    ("Europe/Berlin", "2026-12-05 12:08 CET"),
    ("Asia/Almaty", "2026-12-05 16:08 UTC+05"),  # no lettered abbreviation
    ("Asia/Kathmandu", "2026-12-05 16:53 UTC+05:45"),
])
def test_a_moment_reads_the_same_everywhere_with_its_zone(zone, stamp):
    """One format, whatever the page: the date, hours and minutes (no seconds), the zone named."""
    assert format_when(MOMENT, zone_named(zone)) == stamp


def test_there_is_one_precision():
    """No page may ask for "20:08:05 KST" or seconds: format_when takes no precision."""
    with pytest.raises(TypeError):
        format_when(MOMENT, zone_named("UTC"), "time")


@pytest.mark.parametrize("zone, expected", [("Asia/Seoul", {540: "KST"}), ("Europe/Berlin", {60: "CET", 120: "CEST"}),
                                            ("Asia/Kathmandu", {345: "UTC+05:45"}), ("UTC", {0: "UTC"})])
def test_the_scripts_hints_name_a_zones_offsets_as_pages_do(zone, expected):
    """The page's script (static/js/timezone.js) reads the zone's abbreviations by UTC offset in minutes."""
    assert zone_abbreviations(zone_named(zone), 2026) == expected


def test_summer_time_has_its_own_abbreviation():
    berlin = zone_named("Europe/Berlin")
    assert zone_abbreviation(datetime(2026, 7, 1, tzinfo=timezone.utc).astimezone(berlin)) == "CEST"


def test_only_real_zones_are_named():
    assert zone_named("Asia/Seoul") is not None
    assert all(zone_named(bad) is None for bad in ("", None, "Asia/Nowhere", "../../etc/passwd", "x" * 300))
    assert format_when(None, zone_named("UTC")) == ""
