"""Template validation messages in the reader's language.

exams.core.template writes its messages in English (it has no Django); the template form shows
them through `localize`. A message that carries its code and parameters (core TemplateMessage,
exams.core.template_problems: an unknown key, an empty list, a bad number, an item the template has
twice, ...) is rendered from them; a few older ones are still recognised by their wording (PATTERNS).
Any other message is shown as written.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext as _

from exams.core.template_problems import TemplateMessage, TemplateProblem

_POOL = r"(?P<pool>(?:of topic '[^']*')?(?: ?with tag '[^']*')?)"
PATTERNS = [
    (re.compile(rf"^no usable problem {_POOL}$"), lambda g: _("no usable problem %(pool)s") % g),
    (re.compile(r"^chooses (?P<choose>\d+) items from a pool of (?P<size>\d+)$"),
     lambda g: _("chooses %(choose)s items from a pool of %(size)s") % g),
    (re.compile(r"^unknown problem (?P<slug>'[^']*')$"), lambda g: _("unknown problem %(slug)s") % g),
    (re.compile(r"^unknown problem (?P<slug>'[^']*') \(did you mean (?P<close>'[^']*')\?\)$"),
     lambda g: _("unknown problem %(slug)s (did you mean %(close)s?)") % g),
    (re.compile(r"^unknown family (?P<family>'[^']*')$"), lambda g: _("unknown family %(family)s") % g),
    (re.compile(r"^unknown family (?P<family>'[^']*') \(did you mean (?P<close>'[^']*')\?\)$"),
     lambda g: _("unknown family %(family)s (did you mean %(close)s?)") % g),
]


def _reason(why: str) -> str:
    """Why a kernel problem does not validate (exams.catalogue's words), in the active language; a
    package's own parse error is shown as written."""
    from .catalogue import NO_EXAM_VERSION

    known = {
        "it is not published": _("it is not published"),
        "it has no version in use": _("it has no version in use"),
        NO_EXAM_VERSION: _("it has no validated version in use: validate a version, then publish it or use it "
                           "in exams only (authoring)"),
    }
    return known.get(why, why)


PATTERNS.append((re.compile(r"^problem (?P<slug>'[^']*') does not validate: (?P<why>.*)$", re.S),
                 lambda g: _("problem %(slug)s does not validate: %(why)s") % {"slug": g["slug"], "why": _reason(g["why"])}))


def _pool_words(words: str) -> str:
    return words.replace("of topic ", _("of topic ")).replace("with tag ", _("with tag "))


def too_deep_text(depth: int) -> str:
    """Why a template text nested deeper than `depth` levels cannot be read, in the active language."""
    return _("The template is nested too deeply (more than %(depth)s levels of lists and mappings; a template "
             "needs about 7). Remove the extra brackets or indentation.") % {"depth": depth}


# A pool item's two keys, quoted as the author types them: names, not words of the sentence.
ITEM_KEYS = {"family": "'family'", "kernel": "'kernel'"}


def _plain_texts() -> dict[TemplateProblem, str]:
    """The coded messages that are one sentence with %-parameters, in the active language."""
    P = TemplateProblem
    return {
        P.EMPTY: _("the template is empty"),
        P.UNREADABLE: _("not valid JSON or YAML: %(error)s"),
        P.NOT_A_TEMPLATE: _("a template must be a mapping with 'zones'"),
        P.UNKNOWN_KEY: _("unknown key (allowed: %(allowed)s)"),
        P.BAD_FORMAT: _("must be %(format)s"),
        P.EMPTY_LIST: _("must be a non-empty list"),
        P.ZONE_NOT_MAPPING: _("must be a mapping with 'pool'"),
        P.NEEDS_ENGLISH: _("needs an English text ('en')"),
        P.NOT_TEXT: _("must be a text or a mapping {en: ..., ko: ...}"),
        P.NOT_NUMBER: _("must be a number, not %(value)s"),
        P.NOT_WHOLE_NUMBER: _("must be a whole number, not %(value)s"),
        P.TOO_SMALL: _("must be at least %(minimum)s, not %(value)s"),
        P.NOT_A_LEVEL: _("must be a level or a range [lo, hi] of levels %(levels)s, not %(value)s"),
        P.LEVELS_OUT_OF_RANGE: _("levels must be in %(levels)s with lo <= hi, not %(value)s"),
        P.ITEM_NOT_MAPPING: _("must be a mapping with %(family)s or %(kernel)s"),
        P.ITEM_KIND: _("needs exactly one of %(family)s (a generated question) or %(kernel)s (a kernel problem)"),
        P.NOT_A_KERNEL: _("must be a slug or a mapping {topic: ..., tag: ...}"),
        P.NO_CATALOGUE: _("kernel problems cannot be checked here (no catalogue)"),
        P.ATTEMPT_POINTS_COUNT: _("has %(n)s values for %(attempts)s attempts"),
        P.ATTEMPT_POINTS_GROW: _("must not grow from one attempt to the next"),
        P.NOT_A_NUMBER_LIST: _("must be a non-empty list of numbers"),
        P.NOT_BOOLEAN: _("must be true or false, not %(value)s"),
        P.POINTS_NOT_BEST: _("is %(points)s but the best attempt earns %(best)s"),
        P.NOT_ONE_OF: _("must be one of %(values)s, not %(value)s"),
        P.TOO_MANY_ITEMS: _("draw %(total)s items per student; at most %(most)s"),
    }


def _coded(message: TemplateMessage) -> str:
    """A coded message in the active language, from its parameters."""
    p = dict(message.params)
    plain = _plain_texts().get(message.code)
    if plain is not None:
        return plain % {**ITEM_KEYS, **p} if "%" in plain else plain
    if message.code is TemplateProblem.TOO_DEEP:
        return too_deep_text(p["depth"])
    if message.code is TemplateProblem.DUPLICATE_ITEM:
        if p["kind"] == "kernel":
            return _("kernel problem '%(id)s' is already in the template (%(first)s): a student would get it twice; "
                     "remove one of them") % p
        lo, hi = p["difficulty"]
        p["levels"] = (_("difficulty %(level)s") % {"level": lo} if lo == hi
                       else _("difficulties %(lo)s-%(hi)s") % {"lo": lo, "hi": hi})
        return _("question family '%(id)s' at %(levels)s is already in the template (%(first)s): a student could get "
                 "it twice; remove one of them or give it another difficulty") % p
    p["pool"] = _pool_words(p["pool"])
    if message.code is TemplateProblem.POOL_TOO_SMALL:
        return _("matches %(n)s usable problem(s) %(pool)s (%(slugs)s), fewer than the %(need)s this zone can draw: "
                 "a student would get the same problem twice") % p
    return _("matches %(n)s usable problem(s) %(pool)s (%(slugs)s), fewer than the %(need)s that %(items)s can draw "
             "for one student: a student would get the same problem twice") % p


def localize(path: str, message: str) -> str:
    """'path: message' with the message in the active language where a translation is known."""
    if isinstance(message, TemplateMessage):
        message = _coded(message)
        return f"{path}: {message}" if path else message
    for pattern, render in PATTERNS:
        match = pattern.match(message)
        if match:
            groups = match.groupdict()
            if "pool" in groups:
                groups["pool"] = _pool_words(groups["pool"])
            message = render(groups)
            break
    return f"{path}: {message}" if path else message
