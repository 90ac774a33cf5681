"""accounts.core.times: one format for every date and time a page shows, the zone named."""
from datetime import datetime, timezone

import pytest

from accounts.core.times import Precision, format_when, zone_abbreviation, zone_named

MOMENT = datetime(2026, 12, 5, 11, 8, 5, tzinfo=timezone.utc)


@pytest.mark.parametrize("zone, minutes, time", [
    ("Asia/Seoul", "2026-12-05 20:08 KST", "20:08:05 KST"),
    ("UTC", "2026-12-05 11:08 UTC", "11:08:05 UTC"),
    ("Europe/Berlin", "2026-12-05 12:08 CET", "12:08:05 CET"),
    ("Asia/Almaty", "2026-12-05 16:08 UTC+05", "16:08:05 UTC+05"),  # no lettered abbreviation
    ("Asia/Kathmandu", "2026-12-05 16:53 UTC+05:45", "16:53:05 UTC+05:45"),
])
def test_a_moment_reads_the_same_everywhere_with_its_zone(zone, minutes, time):
    z = zone_named(zone)
    assert format_when(MOMENT, z) == minutes and format_when(MOMENT, z, Precision.TIME) == time
    assert format_when(MOMENT, z, "seconds") == minutes.replace(minutes[11:16], minutes[11:16] + ":05")


def test_summer_time_has_its_own_abbreviation():
    berlin = zone_named("Europe/Berlin")
    assert zone_abbreviation(datetime(2026, 7, 1, tzinfo=timezone.utc).astimezone(berlin)) == "CEST"


def test_only_real_zones_are_named():
    assert zone_named("Asia/Seoul") is not None
    assert all(zone_named(bad) is None for bad in ("", None, "Asia/Nowhere", "../../etc/passwd", "x" * 300))
    assert format_when(None, zone_named("UTC")) == ""
