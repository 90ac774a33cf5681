"""Shared checks for the question-family tests: determinism, both languages, structure per difficulty,
and how guessable a choice field is. The answers themselves are checked in each topic's test file by a
computation written there, not by the family's code."""
import re
from collections import Counter

from practice.core.questions import generate

HANGUL = re.compile(r"[\uac00-\ud7a3]")
STRUCTURE_KEYS = ("kind", "shape", "model", "scheme")


def questions(family_id, difficulty, seeds=range(300)):
    return [generate(family_id, s, difficulty) for s in seeds]


def structure(q):
    """What shape a question has: its answer fields and its structural parameter."""
    tag = next((q.params[k] for k in STRUCTURE_KEYS if k in q.params), None)
    return tuple(f.name for f in q.fields), tag


def assert_family_basics(family_id, seeds=range(20)):
    """Same seed, same question; both languages render (prompt and solution); difficulties differ in shape."""
    shapes = {}
    for d in (1, 2, 3):
        for s in seeds:
            a, b = generate(family_id, s, d), generate(family_id, s, d)
            assert a.params == b.params and a.answer == b.answer and a.render("ko") == b.render("ko")
            en, ko = a.render("en"), a.render("ko")
            en_p = " ".join(x.get("text", "") for x in en["prompt"] if x["kind"] == "p")
            ko_p = " ".join(x.get("text", "") for x in ko["prompt"] if x["kind"] == "p")
            assert en_p and HANGUL.search(ko_p) and not HANGUL.search(en_p), (family_id, d, s)
            assert a.render_solution("en") and a.render_solution("ko")
            assert "은(는)" not in ko_p and "이(가)" not in ko_p and "을(를)" not in ko_p
            assert set(a.answer) == {f.name for f in a.fields}
        shapes[d] = {structure(generate(family_id, s, d)) for s in seeds}
    assert not (shapes[1] & shapes[2]) and not (shapes[1] & shapes[3]) and not (shapes[2] & shapes[3]), shapes


def assert_not_guessable(answers, n_options, limit=0.40):
    """No single answer value is the key of more than `limit` of the questions (for 4 options)."""
    counts = Counter(answers)
    assert len(counts) >= min(n_options, 2)
    assert max(counts.values()) / len(answers) <= limit, counts
