"""A Korean particle after a number, a field term or code follows how it is read aloud (practice/core/korean.py):
the families wrote "i = n − 1 = 24255과" (이만 사천 이백 오십 오 → 와), "thread 255은(는)" (a generic fallback
where the number is known), "`s[0]`를" (영 → 을) and "`tile`는" (타일 → 은).

Read here: every question family's Korean text (title, prompt, fields, choices, solution) over seeds and
difficulties. Three kinds of word are checked where a particle is glued to them: a number ("24255와", "warp 1이"),
a code span ("`s[0]`을", "`<<<80, 256>>>`으로"), and the field terms the glossary keeps in English ("tile은",
"block은", "warp는"); and no sentence keeps the both-forms fallback ("은(는)"), since the families know their words.
A word followed by a parenthesis is not read: the particle there belongs to the word before the aside.

Read too: the Korean catalogue (locale/ko). A msgstr that writes a particle in both forms after a placeholder
("버전 %(n)d(으)로", "'%(name)s'은(는)") showed them both on the page ("버전 3(으)로"). Only the judge's messages
(grader/core/messages.py) are rendered by `practice.core.korean.fill`, which chooses the form from the value; every
other entry is phrased so that no particle follows a value ("저장했습니다: 버전 3", "“%(title)s” 과제를"). Nor does any
entry write one fixed form after a value: "#%(id)s를 그 실행 구성으로" read "#3를" and "thread %(thread)s는" read
"thread 7는"; a page says "제출 #%(id)s의", a judge's message "thread %(thread)s은(는)". A particle after an aside
belongs to the word before it ("학번(%(account_id)s)이" follows 학번), which is the value where the aside follows one
("lane %(skipped)s(예: thread %(thread)s)은" follows the lanes, and fill would read the thread)."""
from __future__ import annotations

import re

from practice.core.korean import BOTH_FORMS, EXCEPTIONS, PLACEHOLDER_PARTICLE, particle

from .test_korean_catalogue_complete import PO, _entries
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


# Catalogue entries outside the judge's messages that may still write a particle in both forms, each with why:
# none now. An entry belongs here only if no wording without a particle after the value reads as Korean.
BOTH_FORMS_ALLOWED: dict[str, str] = {}
ANY_BOTH_FORMS = re.compile("|".join(re.escape(both) for both in BOTH_FORMS))


def _catalogue_both_forms():
    """(msgid, msgstr, the judge renders it) of each Korean entry that writes a particle in both forms."""
    from grader.core.messages import CATALOGUE

    judge = set(CATALOGUE.values())
    return [(mid, mstr, mid in judge) for _ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8"))
            if ANY_BOTH_FORMS.search(mstr)]


def test_no_page_shows_a_particle_in_both_forms():
    """Outside the judge's messages no msgstr writes "은(는)", "(으)로", ...: a page, a form error or a flash
    message formats it with %, which would show both forms after the value."""
    found = [(mid, mstr) for mid, mstr, judge in _catalogue_both_forms() if not judge and mid not in BOTH_FORMS_ALLOWED]
    assert not found, ("write the Korean with no particle after the value (\"문제 %(slug)s\", a trailing "
                       f"\"...: %(slug)s\") or justify it in BOTH_FORMS_ALLOWED: {found}")
    assert set(BOTH_FORMS_ALLOWED) <= {mid for _ctx, mid, _mstr in _entries(PO.read_text(encoding="utf-8"))}


def test_the_cli_shows_no_particle_in_both_forms():
    """The CLI fills its Korean sentences with str.format (cli/warpdrill_cli/messages.json), so none writes both
    forms: "{username} 계정으로", "{slug} 문제를"."""
    import json

    root = PO.parents[3]
    texts = json.loads((root / "cli" / "warpdrill_cli" / "messages.json").read_text(encoding="utf-8"))
    korean = [words["ko"] for group in texts.values() if isinstance(group, dict) for words in group.values()]
    assert len(korean) > 50
    assert [text for text in korean if ANY_BOTH_FORMS.search(text)] == []


def test_the_judges_particles_in_both_forms_follow_a_placeholder():
    """A judge's message writes both forms only right after a placeholder (quotes, brackets and end tags between),
    where Message.render's fill reaches them; anywhere else they would be shown as written."""
    judged = [(mid, mstr) for mid, mstr, judge in _catalogue_both_forms() if judge]
    assert len(judged) >= 20
    stray = [(mid, mstr) for mid, mstr in judged
             if len(ANY_BOTH_FORMS.findall(mstr)) != len(PLACEHOLDER_PARTICLE.findall(mstr))]
    assert not stray, stray


def test_the_judge_renders_the_particle_that_follows_the_value():
    """Rendered in Korean, the judge's messages carry one form: "2048이 한도 1024를", "'printf'는"."""
    import gettext

    from grader.core import messages as M

    with PO.with_suffix(".mo").open("rb") as f:
        korean = gettext.GNUTranslations(f).gettext
    text = M.LAUNCH_REASON["block_dimension"](axis="x", value=2048, limit=1024).render(korean)
    assert "2048이 한도 1024를 넘습니다" in text, text
    name = M.COMPILE_MESSAGE["not_a_kernel"](name="saxpy").render(korean)
    assert name.startswith("'saxpy'는 ") and wrong_particles(text + name) == [], name


def test_the_judges_both_forms_follow_their_own_value():
    """fill chooses a both-forms particle from the placeholder right before it; after an aside ("lane %(passed)s(예:
    thread %(thread)s)은(는)") that is the aside's value, not the word the particle belongs to, so the aside goes
    after the verb ("lane %(passed)s은(는) ... 갔습니다(예: thread %(thread)s)")."""
    after_aside = [(mid, m.group(0)) for mid, mstr, judge in _catalogue_both_forms() if judge
                   for m in PLACEHOLDER_PARTICLE.finditer(mstr) if ")" in m.group(3)]
    assert not after_aside, after_aside


# One form of a particle as its own syllable (not the start of a word: "%(n)s가지", "%(x)s이라는"; not both forms).
SINGLE_PARTICLE = r"(으로|이나|은|는|이|가|을|를|과|와|로|나)(?![\uac00-\ud7a3(])"
VALUE = re.compile(r"(?<!%)%\((\w+)\)[#0 +-]*\d*(?:\.\d+)?[sdifr]")
# A value (marked \0name\1) with what may close around it unread (quotes, brackets, backticks, end tags), then one form.
MARKED_VALUE_PARTICLE = re.compile("\0(\\w+)\1((?:[\\]'\"`’”»]|</\\w+>)*)" + SINGLE_PARTICLE)
# An aside in parentheses, but not the parentheses of a both-forms particle ("은(는)", "(으)로").
ASIDE = re.compile(r"\((?!(?:으|는|은|가|이|를|을|과|와)\))[^()]*\)")


def fixed_particles(text: str) -> list[str]:
    """The values of catalogue text `text` followed by one fixed form of a particle, as "%(name)s" and the particle
    ("#%(id)s를" gives "%(id)s를"), read as written and with its asides dropped, innermost first ("lane
    %(skipped)s(예: thread %(thread)s)은" gives "%(skipped)s은"; "학번(%(account_id)s)이" gives nothing)."""
    marked = VALUE.sub(lambda m: f"\0{m.group(1)}\1", text)
    found = set()
    while True:
        found.update(f"%({m.group(1)})s{m.group(3)}" for m in MARKED_VALUE_PARTICLE.finditer(marked))
        shorter = ASIDE.sub("", marked)
        if shorter == marked:
            return sorted(found)
        marked = shorter


def test_the_fixed_particle_rule_reads_values_and_asides():
    """The check itself: a fixed particle after a value is found, through closing quotes, tags and asides; a
    particle after a noun's aside, both forms and words that start like a particle are not."""
    assert fixed_particles("<a>#%(id)s를 그 실행 구성으로 다시 열기</a>") == ["%(id)s를"]
    assert fixed_particles("<code>%(launch)s</code>를 썼습니다: '%(name)s'가 0으로") == ["%(launch)s를", "%(name)s가"]
    assert fixed_particles("`%(array)s[%(index)s]`를, 버전 %(n)d로") == ["%(index)s를", "%(n)s로"]
    assert fixed_particles("lane %(skipped)s(예: thread %(thread)s)은 건너뛰고") == ["%(skipped)s은"]
    assert fixed_particles("(block %(block)s의 thread %(thread)s와 %(other_thread)s)") == ["%(thread)s와"]
    for fine in ("학번(%(account_id)s)이 있어", "'%(name)s'은(는) 쓸 수 없습니다", "버전 %(n)d(으)로", "%(n)s번 구역을",
                 "thread %(count)s개(예: %(thread)s)가", "%(n)s가지", "'%(name)s'이라는", "v%(a)s부터 v%(b)s까지",
                 "제출 #%(id)s의 실행 구성으로", "%(student)s 학생은", "%%(n)s는"):
        assert fixed_particles(fine) == [], fine


# Catalogue entries that may write one fixed particle after a value: (msgid, placeholder) -> (the one value it is
# ever filled with, why). None now. An entry belongs here only where the value is fixed (a key name, a unit), so its
# final sound is known; the test checks the particle against that value.
FIXED_PARTICLE_ALLOWED: dict[tuple[str, str], tuple[str, str]] = {}


def test_no_entry_writes_one_fixed_particle_after_a_value():
    """No msgstr writes one form of a particle right after a value ("#%(id)s를", "thread %(thread)s는"): a page
    fills it with %, so the form would be wrong for half the values ("#3를"); a judge's message writes both forms
    ("%(thread)s은(는)") and fill chooses."""
    from grader.core.messages import CATALOGUE

    judge = set(CATALOGUE.values())
    entries = {mid: mstr for _ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8"))}
    found = []
    for mid, mstr in entries.items():
        for hit in fixed_particles(mstr):
            name, given = re.fullmatch(r"%\((\w+)\)s(.+)", hit).groups()
            allowed = FIXED_PARTICLE_ALLOWED.get((mid, name))
            if allowed is None or particle(allowed[0], given) != given:
                found.append(("judge: write both forms" if mid in judge else "page: no particle after the value",
                              mstr, hit))
    assert not found, ("a judge's message writes both forms (\"%(thread)s은(는)\"); any other entry puts the value "
                       f"last or after a noun (\"제출 #%(id)s의\", \"%(student)s 학생은\"): {found}")
    assert {mid for mid, _name in FIXED_PARTICLE_ALLOWED} <= set(entries)
