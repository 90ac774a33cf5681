"""memory.scopes and programming_model.api: instance counts from the declaration rules written here, and the
choice questions' answers spread over positions and values."""
from collections import Counter

from practice.core.questions.model import FACTS

from .familycheck import assert_family_basics, assert_not_guessable, questions

RULE = {"i": "thread", "tile": "block", "counter": "device", "coeff": "device"}


def test_basics():
    assert_family_basics("memory.scopes")
    assert_family_basics("programming_model.api")


def test_scope_counts_and_bytes():
    for q in questions("memory.scopes", 2, range(60)):
        G, T = q.params["grid"], q.params["block"]
        per = {"thread": G * T, "block": G, "device": 1}
        assert q.answer == {v: per[RULE[v]] for v in ("i", "tile", "counter")}
    for q in questions("memory.scopes", 3, range(60)):
        G, T, K, S = q.params["grid"], q.params["block"], q.params["k"], q.params["s"]
        assert q.answer == {"local": G * T * K * 4, "shared": G * S * 4}


def test_scope_choice_is_not_guessable():
    qs = questions("memory.scopes", 1)
    expected = {"i": "register", "tile": "shared", "counter": "global", "coeff": "constant"}
    for q in qs:
        var = q.render("en")["prompt"][2]["text"].split("`")[1]
        assert q.answer["space"] == expected[var]
    assert_not_guessable([q.answer["space"] for q in qs], 4)
    positions = [[c.key for c in q.fields[0].choices].index(q.answer["space"]) for q in qs]
    assert_not_guessable(positions, 4)


def test_api_answers_spread_and_are_the_right_fact():
    for d in (1, 2, 3):
        qs = questions("programming_model.api", d)
        for q in qs:
            right = FACTS[d][q.params["fact"]][1]["en"]
            chosen = next(c for c in q.fields[0].choices if c.key == q.answer["option"])
            assert chosen.label["en"] == right
            assert len({c.label["en"] for c in q.fields[0].choices}) == 4
        assert_not_guessable([q.answer["option"] for q in qs], 4)
        assert_not_guessable([q.params["fact"] for q in qs], 4)
        assert len(Counter(q.params["fact"] for q in qs)) == len(FACTS[d])
