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


def test_a_course_is_gangjwa_everywhere():
    """A course is 강좌 (docs/content.md, "Korean wording"): the tester read "구성원을 강좌에서 제외했습니다" beside
    "종료됨: 과목에서 제외됨". Every entry whose English says "course" says 강좌, and no Korean text says 과목: the
    catalogue, the bank's statements and starters, the docs and the CLI's README and messages."""
    course = [(mid, mstr) for _ctx, mid, mstr in ENTRIES if re.search(r"\bcourses?\b", PLACEHOLDERS.sub("", mid), re.I)]
    assert len(course) >= 80
    assert [(mid, mstr) for mid, mstr in course if mstr and "강좌" not in mstr] == []
    assert [mstr for _ctx, _mid, mstr in ENTRIES if "과목" in mstr] == []
    root = PO.parents[3]
    files = [*root.glob("problems/bank/*/*.ko.*"), *root.glob("docs/*.md"), *root.glob("cli/**/*.md"),
             *root.glob("cli/**/*.json"), *root.glob("templates/**/*.html")]
    files = [f for f in files if f.name != "content.md"]  # the glossary names the word it rules out
    assert len(files) > 50
    assert [str(f.relative_to(root)) for f in files if "과목" in f.read_text(encoding="utf-8")] == []
