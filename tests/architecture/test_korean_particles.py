"""A Korean particle after a number, a field term or code follows how it is read aloud (practice/core/korean.py):
the families wrote "i = n − 1 = 24255과" (이만 사천 이백 오십 오 → 와), "thread 255은(는)" (a generic fallback
where the number is known), "`s[0]`를" (영 → 을) and "`tile`는" (타일 → 은).

Read here: every question family's Korean text (title, prompt, fields, choices, solution) over seeds and
difficulties. Three kinds of word are checked where a particle is glued to them: a number ("24255와", "warp 1이"),
a code span ("`s[0]`을", "`<<<80, 256>>>`으로"), and the field terms the glossary keeps in English ("tile은",
"block은", "warp는"); and no sentence keeps the both-forms fallback ("은(는)"), since the families know their words.
A word followed by a parenthesis is not read: the particle there belongs to the word before the aside."""
from __future__ import annotations

import re

from practice.core.korean import EXCEPTIONS, particle

from .test_korean_kernel_word import _korean_text

PARTICLE = r"(은|는|이|가|을|를|과|와|으로|로)(?![\uac00-\ud7a3])"
# A number glued to a particle, not the end of a name (x2가) nor a decimal's fraction alone; a range's end is
# read ("lane 0..15가").
NUMBER = re.compile(r"(?<![A-Za-z_\d,])(?<!\d\.)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)" + PARTICLE)
CODE = re.compile(r"(`[^`\n]+`)" + PARTICLE)
TERMS = "|".join(sorted((k for k in EXCEPTIONS if k.islower()), key=len, reverse=True))
TERM = re.compile(rf"(?<![A-Za-z_`.])({TERMS})" + PARTICLE)
FALLBACK = re.compile(r"은\(는\)|이\(가\)|을\(를\)|과\(와\)|와\(과\)|\(으\)로")


def wrong_particles(text: str) -> list[str]:
    """The words of Korean text `text` glued to the wrong form of their particle, with it ("24255과"), and any
    both-forms fallback ("은(는)")."""
    found = [m.group(0) for m in FALLBACK.finditer(text)]
    for rule in (NUMBER, CODE, TERM):
        for m in rule.finditer(text):
            word, given = m.group(1), m.group(2)
            if particle(word, given) != given:
                found.append(m.group(0))
    return found


def test_the_rule_reads_the_words_final_sound():
    """The check itself: the field test's wrong particles are found, right ones and asides are not."""
    assert wrong_particles("i = n − 1 = 24255과 i = n을") == ["24255과"]
    assert wrong_particles("thread 255은(는) `s[0]`를 쓰고") == ["은(는)", "255은", "`s[0]`를"]
    assert wrong_particles("`tile`는 어디에, tile는 block 하나") == ["`tile`는", "tile는"]
    assert wrong_particles("`<<<80, 256>>>`로 실행합니다, warp 1가, lane 0..15이") == ["1가", "15이", "`<<<80, 256>>>`로"]
    for fine in ("i = n − 1 = 24255와 i = n을", "thread 255는 `s[0]`을 쓰고", "`tile`은", "warp는 block이",
                 "`<<<80, 128>>>`로", "1000은", "10가지", "thread 1)가", "version B(warp aggregation)는",
                 "x2가", "0.5를", "lane 0..15가"):
        assert wrong_particles(fine) == [], fine


def test_every_question_family_glues_the_right_particles():
    from practice.core.questions import DIFFICULTIES, FAMILIES

    found = set()
    for family_id, family in sorted(FAMILIES.items()):
        for seed in range(16):
            for difficulty in DIFFICULTIES:
                for sentence in _korean_text(family.generate(seed, difficulty)):
                    found.update((family_id, difficulty, w) for w in wrong_particles(sentence))
    assert not found, f"choose the particle with practice.core.korean.josa: {sorted(found)}"
