"""One Korean word per concept in the exam pages' catalogue. The tester read a template's zone as "zone"
in some sentences and "구역" in others, and a student's own window as "개별 응시 시간대" in a column
header but "개별 응시 시작" in the form (and 시간대 is also the time zone the same form names)."""
import json
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


def test_sample_and_hidden_tests_have_one_name_each():
    """A sample test is 예시 and a hidden one 숨김 / 숨겨진 (docs/content.md, "Korean wording"): the site said
    예시/숨김 while the CLI printed "tail (비공개)" and some pages "예제 테스트". No Korean text says 예제, and 비공개
    is said only of a problem kept from students (the bank is public; a course's problems can be private)."""
    tests = [(mid, mstr) for _ctx, mid, mstr in ENTRIES if re.search(r"\b(sample|hidden)\b", mid, re.I)
             and re.search(r"\btests?\b|test cases?", mid, re.I)]
    assert len(tests) >= 8
    for mid, mstr in tests:
        assert "예제" not in mstr and "비공개" not in mstr, (mid, mstr)
        if re.search(r"\bsample\b", mid, re.I):
            assert "예시" in mstr, (mid, mstr)
    assert [mstr for _ctx, _mid, mstr in ENTRIES if "예제" in mstr] == []
    assert [mid for _ctx, mid, mstr in ENTRIES if "비공개" in mstr and "public" not in mid] == []
    root = PO.parents[3]
    cli = json.loads((root / "cli" / "warpdrill_cli" / "messages.json").read_text(encoding="utf-8"))
    assert cli["cli"]["sample"]["ko"] == "예시" and cli["cli"]["hidden"]["ko"] == "숨김"
    files = [*root.glob("problems/bank/*/*.ko.*"), *root.glob("docs/*.md"), *root.glob("cli/**/*.md"),
             *root.glob("cli/**/*.json"), *root.glob("templates/**/*.html")]
    files = [f for f in files if f.name != "content.md"]  # the glossary names the words it rules out
    assert [str(f.relative_to(root)) for f in files if "예제" in f.read_text(encoding="utf-8")] == []


def test_reduction_is_ri_deok_syeon_in_the_topic_names():
    """The topic reduction and scan reads "리덕션과 scan" wherever it is named (docs/content.md: reduction is 리덕션),
    not "Reduction과 scan"."""
    from problems.core.topics import TOPIC_NAMES, Topic

    assert TOPIC_NAMES[Topic.REDUCTION]["ko"] == "리덕션과 scan"
    reduction = [(mid, mstr) for _ctx, mid, mstr in ENTRIES if re.search(r"\breductions?\b", PLACEHOLDERS.sub("", mid), re.I)]
    assert reduction and all("Reduction" not in mstr and "reduction" not in PLACEHOLDERS.sub("", mstr)
                             for _mid, mstr in reduction), reduction
