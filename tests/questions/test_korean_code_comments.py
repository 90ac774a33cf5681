"""A generated question read in Korean has Korean comments in its code: a tester found
"// a lane that also took part" on a Korean page. Every comment of every family's code blocks (prompt,
worked solution and code choices), over many seeds and each difficulty, is Korean or holds only what
needs no translation: identifiers of the code itself, numbers, one-letter labels and the label words
the Korean text also keeps in English ("version A", "step 1", "host", "10 cycle")."""
from __future__ import annotations

import re

import pytest

from practice.core.questions import DIFFICULTIES, FAMILIES

SEEDS = range(40)
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
# Words the Korean prose of the questions keeps in English beside a label or a value.
KEPT = {"version", "step", "host", "cycle", "seeds", "in", "AoS", "SoA", "blockDim"}


def _untranslated(src: str) -> list[str]:
    """The comments of `src` that read as English prose."""
    names = set(WORD.findall(COMMENT.sub(" ", src)))
    out = []
    for comment in COMMENT.findall(src):
        if HANGUL.search(comment):
            continue
        words = [w for w in WORD.findall(comment) if len(w) > 1 and w not in names and w not in KEPT
                 and not w.startswith(("cuda", "__"))]
        if words:
            out.append(comment)
    return out


def _code_of(question) -> list[str]:
    shown = question.render("ko")
    blocks = [b for b in (*shown["prompt"], *question.render_solution("ko")) if b["kind"] == "code"]
    choices = [c["label"] for f in shown["fields"] for c in f["choices"] if c["code"]]
    return [b["text"] for b in blocks] + choices


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_code_comments_are_korean_on_a_korean_page(family_id):
    found = set()
    for seed in SEEDS:
        for difficulty in DIFFICULTIES:
            for src in _code_of(FAMILIES[family_id].generate(seed, difficulty)):
                found.update(_untranslated(src))
    assert not found, f"{family_id}: comments left in English: {sorted(found)}"


def test_english_pages_keep_the_english_comments():
    q = FAMILIES["synchronization.syncwarp_mask"]
    for seed in SEEDS:
        question = q.generate(seed, 2)
        en = [b["text"] for b in question.render("en")["prompt"] if b["kind"] == "code"]
        ko = [b["text"] for b in question.render("ko")["prompt"] if b["kind"] == "code"]
        if any("a lane that also took part" in t for t in en):
            assert not any("a lane that also took part" in t for t in ko)
            # Only the comment differs: the code is the same in both languages.
            strip = lambda t: COMMENT.sub("", t)  # noqa: E731
            assert [strip(t) for t in en] == [strip(t) for t in ko]
            return
    pytest.fail("no seed drew the shape with the partner-lane comment")
