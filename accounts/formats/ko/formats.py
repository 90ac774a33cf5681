# A datetime printed by Django itself ({{ value }}, the admin): "2026-12-05 20:08 KST", the zone's
# abbreviation at that moment (accounts/core/times.py writes "UTC+05" where Django's "T" gives "+05").
DATETIME_FORMAT = "Y-m-d H:i T"
SHORT_DATETIME_FORMAT = "Y-m-d H:i T"
