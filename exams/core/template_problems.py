"""What can be wrong with an exam template, as codes with parameters: the template checks
(exams.core.template, exams.core.repeats) write each problem's English message as a TemplateMessage,
which also carries its code and parameters, so the edge (exams/template_messages.py) shows it in the
reader's language without reading the sentence back.

Plain Python; parameters are plain values, and a value the author wrote is passed as its repr
("'red'", "[3, 1]"), as the English shows it.
"""
from __future__ import annotations

import enum


class TemplateProblem(enum.StrEnum):
    """Problems whose message the edge renders from a code and parameters (exams/template_messages.py)."""

    # params: kind ("kernel" | "family"), id, difficulty ((lo, hi), families only), first (its first path)
    DUPLICATE_ITEM = "duplicate_item"
    # params: n, pool (words), slugs, need: one zone's topic/tag items can draw more than match
    POOL_TOO_SMALL = "pool_too_small"
    # params: n, pool, slugs, need, items (the paths that draw from them): several items together
    POOLS_OVERLAP = "pools_overlap"
    # params: depth (exams.core.nesting.MAX_DEPTH): the text nests deeper than a template can
    TOO_DEEP = "too_deep"
    # no params: the text is blank
    EMPTY = "empty"
    # params: error (the parser's own words, shown as written): neither JSON nor YAML
    UNREADABLE = "unreadable"
    # no params: the whole template is not a mapping
    NOT_A_TEMPLATE = "not_a_template"
    # params: allowed (the keys, comma-separated): a key the mapping at the path does not have
    UNKNOWN_KEY = "unknown_key"
    # params: format (the one accepted): `format` names another
    BAD_FORMAT = "bad_format"
    # no params: `zones` or a zone's `pool` is missing, not a list, or empty
    EMPTY_LIST = "empty_list"
    # no params: a zone is not a mapping
    ZONE_NOT_MAPPING = "zone_not_mapping"
    # no params: a text mapping lacks "en"
    NEEDS_ENGLISH = "needs_english"
    # no params: a title is neither a text nor a {en, ko} mapping
    NOT_TEXT = "not_text"
    # params: value: not a number
    NOT_NUMBER = "not_number"
    # params: value: not a whole number
    NOT_WHOLE_NUMBER = "not_whole_number"
    # params: minimum, value: a number below its minimum
    TOO_SMALL = "too_small"
    # params: levels (the difficulties, "(1, 2, 3)"), value: neither a level nor a [lo, hi] pair
    NOT_A_LEVEL = "not_a_level"
    # params: levels, value: a level outside the difficulties, or lo > hi
    LEVELS_OUT_OF_RANGE = "levels_out_of_range"
    # no params: a pool item is neither a family id nor a mapping
    ITEM_NOT_MAPPING = "item_not_mapping"
    # no params: a pool item has both or neither of `family` and `kernel`
    ITEM_KIND = "item_kind"
    # no params: `kernel` is neither a slug nor a {topic, tag} mapping
    NOT_A_KERNEL = "not_a_kernel"
    # no params: kernel items met without a catalogue to check them against
    NO_CATALOGUE = "no_catalogue"
    # params: n (values), attempts: attempt_points and attempts disagree
    ATTEMPT_POINTS_COUNT = "attempt_points_count"
    # no params: a later attempt would earn more than an earlier one
    ATTEMPT_POINTS_GROW = "attempt_points_grow"
    # no params: attempt_points is not a non-empty list
    NOT_A_NUMBER_LIST = "not_a_number_list"
    # params: value: not true or false
    NOT_BOOLEAN = "not_boolean"
    # params: points, best: an item's points differ from its best attempt's
    POINTS_NOT_BEST = "points_not_best"
    # params: values (comma-separated), value: not one of the values
    NOT_ONE_OF = "not_one_of"
    # params: total, most: the zones draw more items per student than an exam may have
    TOO_MANY_ITEMS = "too_many_items"


class TemplateMessage(str):
    """A problem's English message that also carries its code and parameters, so the edge can show it
    in the reader's language without reading the sentence back. Compares equal to its English text."""

    code: TemplateProblem
    params: dict

    def __new__(cls, code: TemplateProblem, params: dict, english: str):
        message = super().__new__(cls, english)
        message.code, message.params = code, params
        return message


def message(code: TemplateProblem, english: str, **params) -> TemplateMessage:
    """A problem's English message with its code and parameters."""
    return TemplateMessage(code, params, english)


def unknown_key(allowed) -> TemplateMessage:
    """The message for a key that is not one of `allowed` (named in sorted order)."""
    names = ", ".join(sorted(allowed))
    return message(TemplateProblem.UNKNOWN_KEY, f"unknown key (allowed: {names})", allowed=names)
