"""Template validation messages in the reader's language.

exams.core.template writes its messages in English (it has no Django); the template form shows
them through `localize`, which gives the pool messages (the ones an author meets when a pool is too
small or matches nothing) in Korean. Any other message is shown as written.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext as _

_POOL = r"(?P<pool>(?:of topic '[^']*')?(?: ?with tag '[^']*')?)"
PATTERNS = [
    (re.compile(rf"^no usable problem {_POOL}$"), lambda g: _("no usable problem %(pool)s") % g),
    (re.compile(rf"^matches (?P<n>\d+) usable problem\(s\) {_POOL} \((?P<slugs>[^)]*)\), fewer than the (?P<need>\d+) "
                r"this zone can draw: a student would get the same problem twice$"),
     lambda g: _("matches %(n)s usable problem(s) %(pool)s (%(slugs)s), fewer than the %(need)s this zone can draw: "
                 "a student would get the same problem twice") % g),
    (re.compile(r"^chooses (?P<choose>\d+) items from a pool of (?P<size>\d+)$"),
     lambda g: _("chooses %(choose)s items from a pool of %(size)s") % g),
    (re.compile(r"^unknown problem (?P<slug>'[^']*')$"), lambda g: _("unknown problem %(slug)s") % g),
    (re.compile(r"^unknown problem (?P<slug>'[^']*') \(did you mean (?P<close>'[^']*')\?\)$"),
     lambda g: _("unknown problem %(slug)s (did you mean %(close)s?)") % g),
    (re.compile(r"^unknown family (?P<family>'[^']*')$"), lambda g: _("unknown family %(family)s") % g),
    (re.compile(r"^unknown family (?P<family>'[^']*') \(did you mean (?P<close>'[^']*')\?\)$"),
     lambda g: _("unknown family %(family)s (did you mean %(close)s?)") % g),
]


def _pool_words(words: str) -> str:
    return words.replace("of topic ", _("of topic ")).replace("with tag ", _("with tag "))


def localize(path: str, message: str) -> str:
    """'path: message' with the message in the active language where a translation is known."""
    for pattern, render in PATTERNS:
        match = pattern.match(message)
        if match:
            groups = match.groupdict()
            if "pool" in groups:
                groups["pool"] = _pool_words(groups["pool"])
            message = render(groups)
            break
    return f"{path}: {message}" if path else message
