"""Usernames that cannot pass for someone else's: Unicode normalisation and a confusables skeleton.

A username is shown to instructors and other students (rosters, submissions, exams), so
"іnstructor" with a Cyrillic "і" must not be accepted beside "instructor". Following Unicode's
UTS #39 in a small way:

- the name is NFKC-normalised (Django does this too), so compatibility forms ("ｉｎｓｔ") fold;
- its letters must come from one script (Latin, Cyrillic, Hangul, ...; Han with Hiragana and
  Katakana counts as one), so no mixed-script look-alike is possible;
- its *skeleton* (case-folded, each character mapped to the Latin letter or digit it looks like)
  must differ from every existing user's, which catches whole-script look-alikes ("асе", all
  Cyrillic, beside "ace") and "I"/"l"/"1" or "O"/"0" swaps.

`username_problem` is plain Python: the Django form calls it with the existing users' names.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from enum import Enum


class UsernameProblem(str, Enum):
    """Why a username is refused."""

    MIXED_SCRIPTS = "mixed_scripts"  # letters from more than one script
    INVISIBLE = "invisible"  # a control, format or private-use character
    LOOKS_LIKE_EXISTING = "looks_like_existing"  # its skeleton equals an existing user's


# Characters that look like a Latin letter or digit (a subset of Unicode's confusables.txt:
# the Cyrillic, Greek and other letters that render identically in common fonts), and the
# ASCII swaps that the skeleton also folds.
CONFUSABLES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "ѕ": "s", "т": "t", "у": "y", "х": "x", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ү": "y", "ɡ": "g", "ӏ": "l",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    # Latin look-alikes and ASCII swaps
    "ı": "i", "ȷ": "j", "ℓ": "l", "1": "l", "|": "l", "0": "o", "5": "s",
}
_SAME_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "CJK": "CJK", "HALFWIDTH": "CJK"}


def normalize(name: str) -> str:
    """The username as stored: NFKC."""
    return unicodedata.normalize("NFKC", name)


def skeleton(name: str) -> str:
    """What `name` looks like: NFKC, case-folded, accents dropped, confusables mapped to Latin."""
    folded = unicodedata.normalize("NFKD", normalize(name).casefold())
    text = "".join(ch for ch in folded if not unicodedata.combining(ch))
    text = text.replace("rn", "m")
    return "".join(CONFUSABLES.get(ch, ch) for ch in text).replace("_", "").replace("-", "").replace(".", "")


def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None
    word = unicodedata.name(ch, "UNKNOWN").split()[0]
    return _SAME_SCRIPT.get(word, word)


def username_problem(name: str, existing: Iterable[str]) -> UsernameProblem | None:
    """Why `name` may not be registered beside the `existing` usernames, or None when it may."""
    name = normalize(name)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp") for ch in name):
        return UsernameProblem.INVISIBLE
    if len({s for s in map(_script, name) if s}) > 1:
        return UsernameProblem.MIXED_SCRIPTS
    mine = skeleton(name)
    if any(skeleton(other) == mine for other in existing):
        return UsernameProblem.LOOKS_LIKE_EXISTING
    return None
