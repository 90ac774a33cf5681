"""Korean particles after the words a question fills in: 은/는, 이/가, 을/를, 과/와, 으로/로, 이나/나.

A Korean particle depends on how the word before it ends when read aloud: a final consonant (받침) takes
은, 이, 을, 과, 으로; a vowel takes 는, 가, 를, 와, 로; and ㄹ takes 로 (not 으로). The families glue
particles to numbers ("i = n − 1 = 24255와"), to the CUDA terms the glossary keeps in English ("tile은") and
to code (`s[0]`을), so the sound is found by how a Korean reader says each:

- Hangul: by the last syllable's 받침.
- Numbers: by their Korean reading's last syllable. A number that ends in zeros ends in its place word:
  십, 백, 천, 만, 억 and 경 have a 받침, 조 has none (10 십 → 은, 1000 천 → 은, 10¹² 조 → 는). Otherwise
  the last digit: 0 영, 1 일 (ㄹ), 3 삼, 6 육, 7 칠 (ㄹ), 8 팔 (ㄹ) have a 받침; 2 이, 4 사, 5 오, 9 구 do
  not. A decimal is read digit by digit after its point ("0.25" ends in 오).
- A single Latin letter, and an upper-case acronym by its last letter: letter names (엘, 엠, 엔, 알 have a
  받침; 에이, 비, 엑스, ... do not): `n`은, `x`가, SM은, GPU는.
- English words: first the table of field terms and the other words the families use (EXCEPTIONS, each with
  its Korean reading; a word that ends in one reads as it: synccheck 체크, timeout 아웃, cudaMalloc 맬록), then
  a rule for how English is written in Hangul: a silent final e is dropped; a final m, n or ng is a 받침
  (stream 스트림, scan 스캔); a final l is ㄹ (tile 타일, kernel 커널, shuffle 셔플); a final ck or ic, and a p
  or k after one short vowel, is a 받침 (stack 스택, atomic 아토믹, trap 트랩, step 스텝); anything else (a
  vowel, r, t, or a consonant Hangul writes with ㅡ: grid 그리드, warp 워프, mask 마스크, byte 바이트) has none.
  Acronyms written in capitals are read letter by letter (SM 에스엠, GPU 지피유) unless listed (FLOP 플롭).
- Code (`s[0]`, `A[i]`, f(x), `__syncthreads()`) is read by its last name or number: `s[0]` ends in 영 → 을.

A word none of these reads (a symbol, an empty string) gets both forms, "은(는)", as a last resort.

A translated template (the Korean catalogue's msgstr) writes a particle after a placeholder in both forms,
"%(name)s은(는)"; `fill` formats it and chooses the form from the value it fills in (the judge's messages,
grader/core/messages.py). Both forms stay only where the value is unreadable: the last resort above.
"""
from __future__ import annotations

import enum
import re


class Final(enum.Enum):
    """How a word ends when read aloud in Korean."""

    VOWEL = "vowel"  # no 받침: 는, 가, 를, 와, 로
    RIEUL = "rieul"  # a ㄹ 받침: 은, 이, 을, 과, but 로
    CONSONANT = "consonant"  # any other 받침: 은, 이, 을, 과, 으로
    UNKNOWN = "unknown"  # not readable here: both forms, 은(는)


# Each particle by either of its forms: (after a 받침, after a vowel).
PAIRS: dict[str, tuple[str, str]] = {}
for _pair in (("은", "는"), ("이", "가"), ("을", "를"), ("과", "와"), ("으로", "로"), ("이나", "나")):
    PAIRS[_pair[0]] = PAIRS[_pair[1]] = _pair

# Digits 0-9 read in Sino-Korean: 영 일 이 삼 사 오 육 칠 팔 구.
DIGITS = (Final.CONSONANT, Final.RIEUL, Final.VOWEL, Final.CONSONANT, Final.VOWEL,
          Final.VOWEL, Final.CONSONANT, Final.RIEUL, Final.RIEUL, Final.VOWEL)
# The place word a number ending in k zeros ends in: 십 백 천 (k mod 4 = 1, 2, 3), else 만 억 조 경 (k / 4 = 1..4).
PLACES = {1: Final.CONSONANT, 2: Final.CONSONANT, 3: Final.CONSONANT}
MYRIADS = {1: Final.CONSONANT, 2: Final.CONSONANT, 3: Final.VOWEL, 4: Final.CONSONANT}  # 만 억 조 경
# Latin letter names as Korean reads them: 엘 and 알 end in ㄹ, 엠 and 엔 in another 받침, the rest in a vowel.
LETTERS = {"l": Final.RIEUL, "r": Final.RIEUL, "m": Final.CONSONANT, "n": Final.CONSONANT}

# English words whose Korean reading the rule below would miss or that the families use most; each with its
# reading. The field terms the glossary keeps in English are all here, so none depends on the rule.
EXCEPTIONS: dict[str, str] = {
    "thread": "스레드", "block": "블록", "warp": "워프", "lane": "레인", "tile": "타일", "grid": "그리드",
    "barrier": "배리어", "kernel": "커널", "index": "인덱스", "memory": "메모리", "register": "레지스터",
    "mask": "마스크", "host": "호스트", "device": "디바이스", "stride": "스트라이드", "sector": "섹터",
    "byte": "바이트", "bit": "비트", "word": "워드", "bank": "뱅크", "step": "스텝", "loop": "루프",
    "guard": "가드", "pixel": "픽셀", "atomic": "아토믹", "scan": "스캔", "stream": "스트림", "event": "이벤트",
    "copy": "카피", "engine": "엔진", "driver": "드라이버", "timer": "타이머", "occupancy": "오큐펀시",
    "coarsening": "코어스닝", "shuffle": "셔플", "ballot": "밸럿", "cache": "캐시", "row": "로우",
    "column": "칼럼", "phase": "페이즈", "halo": "헤일로", "sync": "싱크", "major": "메이저", "check": "체크",
    "out": "아웃", "group": "그룹", "target": "타깃", "flop": "플롭", "matlab": "매트랩", "malloc": "맬록",
}


def _hangul(ch: str) -> Final:
    code = ord(ch) - 0xAC00
    jong = code % 28
    return Final.VOWEL if jong == 0 else Final.RIEUL if jong == 8 else Final.CONSONANT


def _number(token: str) -> Final:
    if "." in token:  # a decimal's digits after the point are read one by one
        return DIGITS[int(token[-1])]
    digits = token.replace(",", "").lstrip("0") or "0"
    if digits == "0":
        return DIGITS[0]
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros == 0:
        return DIGITS[int(digits[-1])]
    if zeros % 4:
        return PLACES[zeros % 4]
    return MYRIADS.get(zeros // 4, Final.UNKNOWN)


def _english(word: str) -> Final:
    w = word.lower()
    if w in EXCEPTIONS:
        return final_sound(EXCEPTIONS[w])
    if len(word) == 1 or (word.isupper() and len(word) <= 5):  # a letter, or an acronym read letter by letter
        return LETTERS.get(w[-1], Final.VOWEL)
    # A compound read as its last listed word (cudaMalloc, timeout, synccheck); the longest one wins.
    tails = [key for key in EXCEPTIONS if len(key) >= 3 and w.endswith(key)]
    if tails:
        return final_sound(EXCEPTIONS[max(tails, key=len)])
    if len(w) > 2 and w.endswith("e") and w[-2] not in "aeiouy":  # a silent e: lane, tile, byte
        w = w[:-1]
    if w.endswith(("m", "n", "ng")):
        return Final.CONSONANT
    if w.endswith("l"):
        return Final.RIEUL
    if w.endswith(("ck", "ic")) or re.search(r"(^|[^aeiou])[aeiou][pk]$", w):
        return Final.CONSONANT
    return Final.VOWEL


# The last thing a reader says: a Hangul syllable, a number (commas and a decimal point allowed) or a Latin name.
_LAST = re.compile(r"([\uac00-\ud7a3])|(\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?)|([A-Za-z]+)")


def final_sound(word: str) -> Final:
    """How `word` ends when read aloud in Korean (module docstring): Hangul by its 받침, numbers by their
    Korean reading, English by EXCEPTIONS or the spelling rule, code by its last name or number. Brackets,
    parentheses, `<<<>>>`, backticks, quotes, underscores and trailing punctuation are not read; anything
    else after the last word (%, ², …) makes the sound UNKNOWN."""
    matches = list(_LAST.finditer(word))
    if not matches:
        return Final.UNKNOWN
    last = matches[-1]
    if re.search(r"[^\s()\[\]{}<>`'\"_*.,:;]", word[last.end():]):
        return Final.UNKNOWN  # something unread follows (a symbol such as %, ², …)
    hangul, number, latin = last.groups()
    if hangul:
        return _hangul(hangul)
    if number:
        return _number(number)
    return _english(latin)


def particle(word: str, which: str) -> str:
    """The form of particle `which` (either form: "은" or "는", "이" or "가", "을" or "를", "과" or "와",
    "으로" or "로", "이나" or "나") that follows `word` in Korean: particle("tile", "는") == "은",
    particle("24255", "과") == "와", particle("`s[0]`", "를") == "을", particle("1", "으로") == "로"."""
    after_consonant, after_vowel = PAIRS[which]
    sound = final_sound(word)
    if sound is Final.UNKNOWN:
        return f"{after_consonant}({after_vowel})"
    if sound is Final.RIEUL and after_consonant == "으로":
        return after_vowel
    return after_consonant if sound is not Final.VOWEL else after_vowel


def josa(word: object, which: str) -> str:
    """`word` (any value; numbers are shown with str) followed by the right form of particle `which`:
    josa("tile", "는") == "tile은", josa(24255, "과") == "24255와", josa("thread 255", "은") == "thread 255는"."""
    text = str(word)
    return text + particle(text, which)


# Both forms of a particle as a translated template writes them after a placeholder, and the particle they name.
BOTH_FORMS = {"은(는)": "은", "는(은)": "은", "이(가)": "이", "가(이)": "이", "을(를)": "을", "를(을)": "을",
              "과(와)": "과", "와(과)": "과", "(으)로": "으로", "(이)나": "이나"}
# A placeholder (%(name)s, %(n)d), what may stand between it and its particle without being read (closing quotes,
# brackets, backticks and HTML end tags: '%(name)s'은(는), <code>%(file)s</code>은(는)), and the both-forms particle.
PLACEHOLDER_PARTICLE = re.compile(
    r"(?<!%)%\((\w+)\)([#0 +-]*\d*(?:\.\d+)?[sdifr])((?:[)\]'\"`’”]|</\w+>)*)("
    + "|".join(re.escape(both) for both in BOTH_FORMS) + ")")


def fill(template: str, params: dict[str, object]) -> str:
    """`template % params`, where a particle written in both forms right after a placeholder ("%(n)d(으)로",
    "'%(name)s'은(는)") becomes the form that follows the value filled in ("버전 3으로", "'printf'는"); a value
    that cannot be read keeps both forms. A template without such a particle (English) is `template % params`.
    Raises KeyError for a placeholder that `params` lacks, as % does."""
    def choose(m: re.Match) -> str:
        name, conversion, between, both = m.groups()
        value = ("%" + conversion) % (params[name],)
        return f"%({name}){conversion}{between}{particle(value, BOTH_FORMS[both])}"

    return PLACEHOLDER_PARTICLE.sub(choose, template) % params
