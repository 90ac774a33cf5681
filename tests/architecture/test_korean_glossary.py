"""One Korean word per concept in the exam pages' catalogue. The tester read a template's zone as "zone"
in some sentences and "구역" in others, and a student's own window as "개별 응시 시간대" in a column
header but "개별 응시 시작" in the form (and 시간대 is also the time zone the same form names)."""
import re

from .test_korean_catalogue_complete import PO, _entries

ENTRIES = list(_entries(PO.read_text(encoding="utf-8")))
PLACEHOLDERS = re.compile(r"%\([a-z_]+\)[sd]|<code>.*?</code>|\([a-z_]+\)")  # names and code, not words


def test_a_templates_zone_is_gu_yeok_everywhere():
    """Every entry about a template's zones says 구역, and none leaves the English word (time zones excepted)."""
    zone = [(mid, mstr) for _ctx, mid, mstr in ENTRIES if re.search(r"\bzones?\b", mid, re.I)
            and "time zone" not in mid]
    assert len(zone) >= 8
    for mid, mstr in zone:
        words = PLACEHOLDERS.sub("", mstr)
        assert "구역" in mstr and not re.search(r"zone", words, re.I), (mid, mstr)


def test_a_students_own_window_has_one_name():
    """Labels, help texts and the column header all say 개인 응시 기간 (시간대 reads as a time zone)."""
    own = [(mid, mstr) for _ctx, mid, mstr in ENTRIES if "own window" in mid.lower()]
    assert len(own) >= 7
    for mid, mstr in own:
        assert "개인 응시 기간" in mstr, (mid, mstr)
    assert not [mstr for _ctx, _mid, mstr in ENTRIES if "개별 응시" in mstr]
