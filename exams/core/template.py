"""Exam templates as data: ordered zones, each choosing N items from a pool.

A template is JSON or YAML (a mapping) of this shape:

    title: {en: Midterm 1, ko: 중간고사 1}
    zones:
      - title: {en: Occupancy, ko: Occupancy}
        choose: 2                 # how many items of the pool each student gets (default: all)
        shuffle: true             # shuffle the chosen items within the zone (default true)
        points: 5                 # default points of this zone's items
        pool:
          - family: occupancy.blocks_per_sm
            difficulty: [1, 2]    # one level (2) or an inclusive range [lo, hi]; default 1
            points: 5
          - kernel: block-sum     # a kernel problem by slug ...
            attempts: 3
            attempt_points: [10, 7, 5]   # points if the k-th counted attempt is accepted
            partial_credit: true  # a failed attempt earns attempt points x tests passed / tests
          - kernel: {topic: reduction}   # ... or any problem of a topic (or a tag)

`parse_template(data, catalogue)` checks it and returns an ExamTemplateSpec, or raises
TemplateError listing every problem with its path (`zones[1].pool[2]: unknown family 'x'`).
A template never gives one student the same problem twice: a kernel problem named twice, or a
family named twice with the same difficulty, is refused, and topic/tag kernel items need enough
matching problems besides the ones the template names (exams/core/repeats.py).
Kernel problems are looked up through an injected KernelCatalogue (exams/core/catalogue.py), so this
module needs no database.
"""
from __future__ import annotations

import difflib
import enum
from dataclasses import dataclass
from typing import Any, Mapping

import yaml

from .catalogue import KernelCatalogue
from .families import DIFFICULTIES, FAMILIES
from .nesting import TooDeepError, load_json_or_yaml
from .repeats import check_kernel_pools, check_repeats, item_key, pool_words  # noqa: F401
from .template_problems import TemplateProblem, message as _m, unknown_key as _unknown_key

Text = dict[str, str]  # language -> text; "en" always present
# The word for a zone in each language of a template's texts: a zone without a title is "Zone 2" / "구역 2".
ZONE_WORD: Text = {"en": "Zone", "ko": "구역"}
FORMAT = 1  # the template format; export writes it, import accepts it or its absence
MAX_ITEMS = 200  # items drawn per student, over all zones


class ItemKind(enum.StrEnum):
    """What a pool item is."""

    QUESTION = "question"  # a generated question of one family
    KERNEL = "kernel"  # a kernel problem graded by the judge


class TemplateError(ValueError):
    """A template that cannot be used. `problems` lists (path, message) pairs; str() joins them."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__("; ".join(f"{p}: {m}" if p else m for p, m in problems))

    def messages(self) -> list[str]:
        """One line per problem: 'path: message'."""
        return [f"{p}: {m}" if p else m for p, m in self.problems]


@dataclass(frozen=True)
class QuestionPoolItem:
    """A generated question of `family`, at a difficulty drawn from [lo, hi]."""

    family: str
    difficulty: tuple[int, int]  # inclusive range, 1..3
    points: float
    kind: ItemKind = ItemKind.QUESTION

    def to_dict(self) -> dict:
        lo, hi = self.difficulty
        return {"family": self.family, "difficulty": lo if lo == hi else [lo, hi], "points": self.points}


@dataclass(frozen=True)
class KernelPoolItem:
    """A kernel problem: one slug, or any usable problem of a topic/tag."""

    slug: str | None
    topic: str | None
    tag: str | None
    points: float  # the most the item can earn (= max(attempt_points))
    attempts: int  # counted attempts allowed (platform faults never count)
    attempt_points: tuple[float, ...]  # points when the k-th counted attempt is accepted; len == attempts
    partial_credit: bool  # a failed attempt earns its attempt points x tests passed / tests
    kind: ItemKind = ItemKind.KERNEL

    def to_dict(self) -> dict:
        which: Any = self.slug if self.slug else {k: v for k, v in (("topic", self.topic), ("tag", self.tag)) if v}
        return {"kernel": which, "points": self.points, "attempts": self.attempts,
                "attempt_points": list(self.attempt_points), "partial_credit": self.partial_credit}


PoolItem = QuestionPoolItem | KernelPoolItem


@dataclass(frozen=True)
class Zone:
    title: Text
    choose: int
    shuffle: bool
    pool: tuple[PoolItem, ...]
    feedback: str | None = None  # overrides the exam's feedback during the exam for this zone

    def to_dict(self) -> dict:
        d = {"title": dict(self.title), "choose": self.choose, "shuffle": self.shuffle,
             "pool": [p.to_dict() for p in self.pool]}
        if self.feedback:
            d["feedback"] = self.feedback
        return d


@dataclass(frozen=True)
class ExamTemplateSpec:
    """A parsed, validated template."""

    title: Text
    zones: tuple[Zone, ...]

    @property
    def item_count(self) -> int:
        return sum(z.choose for z in self.zones)

    def to_dict(self) -> dict:
        """The template as data again (export): parse_template(spec.to_dict()) gives the same spec."""
        return {"format": FORMAT, "title": dict(self.title), "zones": [z.to_dict() for z in self.zones]}


FEEDBACK_VALUES = ("none", "verdict", "full")
ZONE_KEYS = ("title", "choose", "shuffle", "points", "pool", "feedback")


def load_text(text: str) -> Any:
    """JSON or YAML text -> data. Raises TemplateError when it is neither, or nests deeper than
    exams.core.nesting.MAX_DEPTH levels (Python's parsers recurse once per level)."""
    text = text.strip()
    if not text:
        raise TemplateError([("", _m(TemplateProblem.EMPTY, "the template is empty"))])
    try:
        return load_json_or_yaml(text)[0]
    except TooDeepError as exc:
        raise TemplateError([("", _m(TemplateProblem.TOO_DEEP, "the template is nested too deeply (more than "
                                     f"{exc.depth} levels of lists and mappings)", depth=exc.depth))]) from None
    except yaml.YAMLError as exc:
        raise TemplateError([("", _m(TemplateProblem.UNREADABLE, f"not valid JSON or YAML: {exc}",
                                     error=str(exc)))]) from None


def dump_yaml(spec: ExamTemplateSpec) -> str:
    """The template as YAML text (what the edit form shows)."""
    return yaml.safe_dump(spec.to_dict(), allow_unicode=True, sort_keys=False)


class _Problems:
    def __init__(self):
        self.items: list[tuple[str, str]] = []

    def add(self, path: str, message: str) -> None:
        self.items.append((path, message))


def default_zone_title(number: int) -> Text:
    """The title of the `number`th zone (1-based) when it has none: {"en": "Zone 2", "ko": "구역 2"} (was
    "Part 2", in English on Korean pages too)."""
    return {la: f"{word} {number}" for la, word in ZONE_WORD.items()}


def _text(value: Any, path: str, problems: _Problems, default: str = "") -> Text:
    if value is None:
        return {"en": default}
    if isinstance(value, str):
        return {"en": value}
    if isinstance(value, Mapping) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        if "en" not in value:
            problems.add(path, _m(TemplateProblem.NEEDS_ENGLISH, "needs an English text ('en')"))
            return {"en": default, **value}
        return dict(value)
    problems.add(path, _m(TemplateProblem.NOT_TEXT, "must be a text or a mapping {en: ..., ko: ...}"))
    return {"en": default}


def _number(value: Any, path: str, problems: _Problems, *, minimum: float = 0) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problems.add(path, _m(TemplateProblem.NOT_NUMBER, f"must be a number, not {value!r}", value=repr(value)))
        return None
    if value < minimum:
        problems.add(path, _m(TemplateProblem.TOO_SMALL, f"must be at least {minimum:g}, not {value!r}",
                              minimum=f"{minimum:g}", value=repr(value)))
        return None
    return float(value)


def _int(value: Any, path: str, problems: _Problems, *, minimum: int = 0) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        problems.add(path, _m(TemplateProblem.NOT_WHOLE_NUMBER, f"must be a whole number, not {value!r}",
                              value=repr(value)))
        return None
    return value if _number(value, path, problems, minimum=minimum) is not None else None  # the same minimum check


def _difficulty(value: Any, path: str, problems: _Problems) -> tuple[int, int]:
    if value is None:
        return (1, 1)
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    elif isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        lo, hi = value
    else:
        problems.add(path, _m(TemplateProblem.NOT_A_LEVEL, "must be a level or a range [lo, hi] of levels "
                              f"{DIFFICULTIES}, not {value!r}", levels=str(DIFFICULTIES), value=repr(value)))
        return (1, 1)
    if lo not in DIFFICULTIES or hi not in DIFFICULTIES or lo > hi:
        problems.add(path, _m(TemplateProblem.LEVELS_OUT_OF_RANGE, f"levels must be in {DIFFICULTIES} with lo <= hi, "
                              f"not {value!r}", levels=str(DIFFICULTIES), value=repr(value)))
        return (1, 1)
    return (lo, hi)


_QUESTION_KEYS = {"family", "difficulty", "points"}
_KERNEL_KEYS = {"kernel", "points", "attempts", "attempt_points", "partial_credit"}


def _pool_item(raw: Any, path: str, zone_points: float | None, catalogue: KernelCatalogue | None,
               problems: _Problems) -> PoolItem | None:
    if isinstance(raw, str):  # a bare family id
        raw = {"family": raw}
    if not isinstance(raw, Mapping):
        problems.add(path, _m(TemplateProblem.ITEM_NOT_MAPPING, "must be a mapping with 'family' or 'kernel'"))
        return None
    if ("family" in raw) == ("kernel" in raw):
        problems.add(path, _m(TemplateProblem.ITEM_KIND,
                              "needs exactly one of 'family' (a generated question) or 'kernel' (a kernel problem)"))
        return None
    allowed = _QUESTION_KEYS if "family" in raw else _KERNEL_KEYS
    for key in raw:
        if key not in allowed:
            problems.add(f"{path}.{key}", _unknown_key(allowed))
    default_points = zone_points if zone_points is not None else (1.0 if "family" in raw else 10.0)
    points = default_points if raw.get("points") is None else _number(raw["points"], f"{path}.points", problems)
    if "family" in raw:
        fam = raw["family"]
        if not isinstance(fam, str) or fam not in FAMILIES:
            problems.add(f"{path}.family", f"unknown family {fam!r}{_did_you_mean(fam, FAMILIES)}")
            return None
        diff = _difficulty(raw.get("difficulty"), f"{path}.difficulty", problems)
        return QuestionPoolItem(fam, diff, points if points is not None else default_points)
    return _kernel_item(raw, path, points, catalogue, problems)


def _did_you_mean(name, known) -> str:
    """" (did you mean 'x'?)" naming the known id closest to a mistyped `name` (difflib's ratio at
    least 0.8: a letter or two off), or "" when none is that close."""
    if not isinstance(name, str) or not name:
        return ""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.8)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _kernel_item(raw: Mapping, path: str, points: float | None, catalogue: KernelCatalogue | None,
                 problems: _Problems) -> KernelPoolItem | None:
    which = raw["kernel"]
    slug = topic = tag = None
    if isinstance(which, str):
        slug = which
    elif isinstance(which, Mapping) and set(which) <= {"topic", "tag"} and which:
        topic, tag = which.get("topic"), which.get("tag")
    else:
        problems.add(f"{path}.kernel", _m(TemplateProblem.NOT_A_KERNEL,
                                          "must be a slug or a mapping {topic: ..., tag: ...}"))
        return None
    if catalogue is None:
        problems.add(f"{path}.kernel", _m(TemplateProblem.NO_CATALOGUE,
                                          "kernel problems cannot be checked here (no catalogue)"))
    elif slug is not None:
        info = catalogue.get(slug)
        if info is None:
            usable = [i.slug for i in catalogue.matching(None, None)] if isinstance(slug, str) else []
            problems.add(f"{path}.kernel", f"unknown problem {slug!r}{_did_you_mean(slug, usable)}")
        elif info.error:
            problems.add(f"{path}.kernel", f"problem {slug!r} does not validate: {info.error}")
    elif not catalogue.matching(topic, tag):
        problems.add(f"{path}.kernel", f"no usable problem {pool_words(topic, tag)}")
    attempts_raw = raw.get("attempts")
    attempts = 1 if attempts_raw is None else _int(attempts_raw, f"{path}.attempts", problems, minimum=1)
    ap_raw = raw.get("attempt_points")
    if ap_raw is None:
        base = points if points is not None else 10.0
        ap = tuple([base] * (attempts or 1))
    elif isinstance(ap_raw, (list, tuple)) and ap_raw:
        values = [_number(v, f"{path}.attempt_points[{i}]", problems) for i, v in enumerate(ap_raw)]
        ap = tuple(v or 0.0 for v in values)
        if attempts_raw is None:
            attempts = len(ap)
        elif attempts is not None and len(ap) != attempts:
            problems.add(f"{path}.attempt_points", _m(TemplateProblem.ATTEMPT_POINTS_COUNT, f"has {len(ap)} values for "
                                                      f"{attempts} attempts", n=len(ap), attempts=attempts))
        if any(b > a for a, b in zip(ap, ap[1:])):
            problems.add(f"{path}.attempt_points", _m(TemplateProblem.ATTEMPT_POINTS_GROW,
                                                      "must not grow from one attempt to the next"))
    else:
        problems.add(f"{path}.attempt_points", _m(TemplateProblem.NOT_A_NUMBER_LIST,
                                                  "must be a non-empty list of numbers"))
        ap = (points or 10.0,)
    partial = raw.get("partial_credit", False)
    if not isinstance(partial, bool):
        problems.add(f"{path}.partial_credit", _m(TemplateProblem.NOT_BOOLEAN,
                                                  f"must be true or false, not {partial!r}", value=repr(partial)))
        partial = False
    if raw.get("points") is not None and points is not None and ap and max(ap) != points:
        problems.add(f"{path}.points", _m(TemplateProblem.POINTS_NOT_BEST,
                                          f"is {points:g} but the best attempt earns {max(ap):g}",
                                          points=f"{points:g}", best=f"{max(ap):g}"))
    return KernelPoolItem(slug, topic, tag, max(ap) if ap else 0.0, attempts or len(ap), ap, partial)


def parse_template(data: Any, catalogue: KernelCatalogue | None = None) -> ExamTemplateSpec:
    """Check a template (parsed JSON/YAML data, or its text) and return its spec.

    Raises TemplateError naming every problem by its path: a zone whose pool is smaller than
    `choose`, an unknown family or slug, a kernel problem that does not validate (the catalogue's
    KernelInfo.error), a bad number, an item the template has already (item_key), topic/tag items
    that match fewer problems than a student can draw from them. `catalogue` is required for
    templates with kernel items; a lenient one (AnyCatalogue: a template validated when it was saved)
    skips the last two checks, so an exam stored before them still reads.
    """
    if isinstance(data, str):
        data = load_text(data)
    problems = _Problems()
    if not isinstance(data, Mapping):
        raise TemplateError([("", _m(TemplateProblem.NOT_A_TEMPLATE, "a template must be a mapping with 'zones'"))])
    for key in data:
        if key not in ("format", "title", "zones"):
            problems.add(str(key), _unknown_key(("format", "title", "zones")))
    if data.get("format", FORMAT) != FORMAT:
        problems.add("format", _m(TemplateProblem.BAD_FORMAT, f"must be {FORMAT}", format=FORMAT))
    title = _text(data.get("title"), "title", problems, default="Exam")
    zones_raw = data.get("zones")
    if not isinstance(zones_raw, list) or not zones_raw:
        problems.add("zones", _m(TemplateProblem.EMPTY_LIST, "must be a non-empty list"))
        raise TemplateError(problems.items)
    zones = []
    strict = not getattr(catalogue, "lenient", False)
    drawn: list[tuple[int, int, list]] = []  # (zone index, choose, pool) of zones the pool checks read
    for zi, zraw in enumerate(zones_raw):
        zpath = f"zones[{zi}]"
        if not isinstance(zraw, Mapping):
            problems.add(zpath, _m(TemplateProblem.ZONE_NOT_MAPPING, "must be a mapping with 'pool'"))
            continue
        for key in zraw:
            if key not in ZONE_KEYS:
                problems.add(f"{zpath}.{key}", _unknown_key(ZONE_KEYS))
        ztitle = (default_zone_title(zi + 1) if zraw.get("title") is None
                  else _text(zraw["title"], f"{zpath}.title", problems, default=f"Zone {zi + 1}"))
        zpoints = None if zraw.get("points") is None else _number(zraw["points"], f"{zpath}.points", problems)
        pool_raw = zraw.get("pool")
        if not isinstance(pool_raw, list) or not pool_raw:
            problems.add(f"{zpath}.pool", _m(TemplateProblem.EMPTY_LIST, "must be a non-empty list"))
            continue
        pool = [_pool_item(p, f"{zpath}.pool[{pi}]", zpoints, catalogue, problems) for pi, p in enumerate(pool_raw)]
        choose = len(pool_raw) if zraw.get("choose") is None else _int(zraw["choose"], f"{zpath}.choose", problems,
                                                                        minimum=1)
        if choose is not None and choose > len(pool_raw):
            problems.add(f"{zpath}.choose", f"chooses {choose} items from a pool of {len(pool_raw)}")
        elif choose:
            drawn.append((zi, choose, pool))
        shuffle = zraw.get("shuffle", True)
        if not isinstance(shuffle, bool):
            problems.add(f"{zpath}.shuffle", _m(TemplateProblem.NOT_BOOLEAN, f"must be true or false, not {shuffle!r}",
                                                 value=repr(shuffle)))
        feedback = zraw.get("feedback")
        if feedback is not None and feedback not in FEEDBACK_VALUES:
            values = ", ".join(FEEDBACK_VALUES)
            problems.add(f"{zpath}.feedback", _m(TemplateProblem.NOT_ONE_OF,
                                                 f"must be one of {values}, not {feedback!r}", values=values,
                                                 value=repr(feedback)))
        zones.append(Zone(ztitle, choose or 1, bool(shuffle), tuple(p for p in pool if p is not None),
                          feedback if feedback in FEEDBACK_VALUES else None))
    if strict:
        check_repeats(zones_raw, problems)
        if catalogue is not None:
            check_kernel_pools(drawn, catalogue, problems)
    total = sum(z.choose for z in zones)
    if total > MAX_ITEMS:
        problems.add("zones", _m(TemplateProblem.TOO_MANY_ITEMS, f"draw {total} items per student; at most {MAX_ITEMS}",
                                  total=total, most=MAX_ITEMS))
    if problems.items:
        raise TemplateError(problems.items)
    return ExamTemplateSpec(title, tuple(zones))
