"""The Korean particle after a filled-in word follows how the word ends when read aloud (practice/core/korean.py):
the families wrote "tile는", "i = n − 1 = 24255과", "thread 255은(는)" and "`s[0]`를"."""
import pytest

from practice.core.korean import Final, fill, final_sound, josa, particle

TABLE = [
    # Hangul: by the last syllable's 받침 (ㄹ takes 로, not 으로).
    ("커널", "는", "은"), ("스레드", "은", "는"), ("행", "를", "을"), ("열", "으로", "로"), ("값", "로", "으로"),
    # Digits by their Sino-Korean reading: 영 일 이 삼 사 오 육 칠 팔 구.
    ("0", "는", "은"), ("1", "가", "이"), ("2", "은", "는"), ("3", "를", "을"), ("4", "과", "와"),
    ("5", "이", "가"), ("6", "를", "을"), ("7", "는", "은"), ("8", "가", "이"), ("9", "을", "를"),
    ("1", "으로", "로"), ("7", "으로", "로"), ("8", "으로", "로"), ("3", "로", "으로"), ("6", "로", "으로"),
    ("24255", "과", "와"), ("255", "은", "는"), ("132803", "를", "을"), ("1160", "가", "이"), ("511", "를", "을"),
    # A number ending in zeros ends in its place word: 십 백 천 만 억 (받침), 조 (none), 경 (받침).
    ("10", "는", "은"), ("20", "가", "이"), ("100", "는", "은"), ("1000", "는", "은"), ("10000", "는", "은"),
    ("100000", "를", "을"), ("10000000", "가", "이"), ("100000000", "는", "은"), ("1000000000000", "은", "는"),
    ("10000000000000000", "는", "은"), ("1,000", "가", "이"), ("24,255", "과", "와"),
    # Decimals digit by digit after the point.
    ("0.25", "은", "는"), ("1.5", "이", "가"), ("0.1", "으로", "로"),
    # Letters and acronyms by their letter names (엘 엠 엔 알 end in a 받침).
    ("n", "가", "이"), ("x", "은", "는"), ("i", "을", "를"), ("l", "으로", "로"), ("SM", "는", "은"),
    ("GPU", "은", "는"), ("DRAM", "가", "이"),
    # The glossary's field terms, from the exception table.
    ("thread", "은", "는"), ("block", "는", "은"), ("warp", "은", "는"), ("lane", "는", "은"), ("tile", "는", "은"),
    ("grid", "을", "를"), ("barrier", "이", "가"), ("kernel", "으로", "로"), ("index", "은", "는"),
    ("shared memory", "을", "를"), ("register", "이", "가"), ("FLOP", "를", "을"), ("MATLAB", "는", "은"),
    # Other English by the spelling rule, compounds by their last listed word.
    ("stream", "는", "은"), ("shuffle", "으로", "로"), ("atomic", "가", "이"), ("trap", "가", "이"),
    ("stack", "는", "은"), ("byte", "을", "를"), ("stride", "은", "는"), ("core", "이", "가"),
    ("timeout", "로", "으로"), ("copy-out", "는", "은"), ("synccheck", "이", "가"), ("cudaMalloc", "로", "으로"),
    # Code by its last name or number.
    ("`s[0]`", "를", "을"), ("`hist[1]`", "을", "을"), ("`sdata[0..511]`", "를", "을"), ("`a[i]`", "을", "를"),
    ("`<<<80, 256>>>`", "로", "으로"), ("`<<<80, 128>>>`", "로", "로"), ("`__syncthreads()`", "을", "를"),
    ("cudaGetLastError()", "이", "가"), ("thread 255", "은", "는"), ("lane 0..15", "이", "가"), ("warp 1", "가", "이"),
]


@pytest.mark.parametrize(("word", "given", "expected"), TABLE)
def test_the_particle_follows_the_words_final_sound(word, given, expected):
    assert particle(word, given) == expected
    # Either form of the particle names the same particle.
    other = {"은": "는", "는": "은", "이": "가", "가": "이", "을": "를", "를": "을", "과": "와", "와": "과",
             "으로": "로", "로": "으로"}[given]
    assert particle(word, other) == expected


def test_a_word_read_nowhere_gets_both_forms():
    """Symbols the rule does not read keep the generic fallback rather than a guess."""
    assert final_sound("%") is Final.UNKNOWN and final_sound("2³¹") is Final.UNKNOWN and final_sound("") is Final.UNKNOWN
    assert particle("%", "는") == "은(는)" and particle("", "를") == "을(를)" and particle("x²", "으로") == "으로(로)"


def test_josa_glues_the_particle_to_any_value():
    assert josa(24255, "과") == "24255와" and josa("tile", "는") == "tile은" and josa("`s[0]`", "를") == "`s[0]`을"
    assert josa(256, "로") == "256으로" and josa("이나", "나") == "이나나"


def test_fill_chooses_the_particle_written_in_both_forms_after_a_placeholder():
    """A translated template's "은(는)" after a placeholder becomes the form its value takes; quotes, brackets and
    end tags between them are not read; an unreadable value keeps both forms; English is plain %."""
    assert fill("버전 %(n)d(으)로, 버전 %(m)d(으)로", {"n": 3, "m": 2}) == "버전 3으로, 버전 2로"
    assert fill("'%(name)s'은(는) 안 됩니다", {"name": "printf"}) == "'printf'는 안 됩니다"
    assert fill("<code>%(file)s</code>은(는) lane %(a)s이(가)", {"file": "a.cu", "a": "0-15"}) == "<code>a.cu</code>는 lane 0-15가"
    assert fill("%(value)s이(가) 한도 %(limit)s을(를) 넘고 %(x)s와(과) 100%%", {"value": 2048, "limit": 1024, "x": "x²"}) \
        == "2048이 한도 1024를 넘고 x²과(와) 100%"
    assert fill("version %(n)d is %(name)s", {"n": 7, "name": "a"}) == "version 7 is a"
