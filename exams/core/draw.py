"""Drawing a student's exam: deterministic per (exam secret, student), different between students.

`draw_exam(spec, secret, student, catalogue)` returns a DrawnExam whose items are plain,
JSON-ready dicts (`DrawnExam.to_dict()`), stored in full when the student presses Start:

    {"key": "z0.p3",            # zone 0, pool item 3: the same question slot for every student
     "number": 1,               # its position on the student's paper (1-based)
     "zone": 0, "kind": "question" | "kernel", "points": 5.0, "generation": 0,
     "question": {"family", "generator_version", "difficulty", "seed", "params",
                  "title": {en, ko}, "prompt": {en: [block], ko: [block]},
                  "fields": [Field.to_dict()], "answer": {field: value},
                  "solution": {en: [block], ko: [block]}},      # kind == "question"
     "kernel": {"slug", "version_id", "version_number", "attempts", "attempt_points",
                "partial_credit", "variant"}}                   # kind == "kernel"

A kernel problem with variant parameters gets the student's variant ({"BLOCK": 256, "LAYOUT": "col"};
{} for one without), drawn from the same seed family, so its statement, launch and tests are theirs.

A stored question is shown and graded from these fields alone, so a later change to a generator
(or a problem package) never changes an attempt that has started. `generation` counts resets by
staff: a reset draws the same pool item again with a fresh seed (`redraw_item`).
"""
from __future__ import annotations

import hashlib
import hmac
import random
from dataclasses import dataclass
from typing import Any

from .families import Field, family
from .catalogue import KernelCatalogue
from .template import ExamTemplateSpec, ItemKind, KernelPoolItem, QuestionPoolItem

LANGS = ("en", "ko")


class DrawError(RuntimeError):
    """A template cannot be drawn now (a kernel problem vanished or lost its version since validation)."""


def derive_seed(secret: str, *parts: Any) -> int:
    """A 48-bit seed from the exam's secret and the parts (student, zone, item, generation).

    HMAC-SHA256, so a student who knows their own seeds learns nothing about anyone else's.
    """
    msg = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hmac.new(secret.encode(), msg, hashlib.sha256).digest()[:6], "big")


@dataclass
class DrawnExam:
    """A student's drawn items, in the order they are shown."""

    student: str
    items: list[dict]

    def to_dict(self) -> dict:
        return {"student": self.student, "items": self.items}


def question_variant(family_id: str, difficulty: int, seed: int, target_cc: str | None = None) -> dict:
    """A generated question, complete and JSON-ready (see the module docstring's "question").
    `target_cc`: the course's target GPU, which occupancy families draw their GPU for."""
    fam = family(family_id)
    q = fam.generate(seed, difficulty, target_cc)
    key = q.answer_key()
    return {
        "family": q.family, "generator_version": q.version, "difficulty": q.difficulty, "seed": seed,
        "params": q.params, "title": dict(q.title),
        "prompt": {lang: [b.render(lang) for b in q.prompt] for lang in LANGS},
        "fields": key["fields"], "answer": key["values"],
        "solution": {lang: q.render_solution(lang) for lang in LANGS},
    }


def _question(pool_item: QuestionPoolItem, secret: str, student: str, key: str, generation: int,
              target_cc: str | None) -> dict:
    lo, hi = pool_item.difficulty
    seed = derive_seed(secret, student, key, generation)
    difficulty = lo if lo == hi else random.Random(seed).randint(lo, hi)
    return question_variant(pool_item.family, difficulty, seed, target_cc)


def _kernel(pool_item: KernelPoolItem, catalogue: KernelCatalogue, secret: str, student: str, key: str,
            generation: int, taken: set[str]) -> dict:
    if pool_item.slug:
        info = catalogue.get(pool_item.slug)
        if info is None or info.error or info.version_id is None:
            raise DrawError(f"problem {pool_item.slug!r} is not available: {info.error if info else 'unknown'}")
    else:
        candidates = catalogue.matching(pool_item.topic, pool_item.tag)
        if not candidates:
            raise DrawError(f"no usable problem with topic {pool_item.topic!r} / tag {pool_item.tag!r}")
        fresh = [c for c in candidates if c.slug not in taken] or candidates
        info = random.Random(derive_seed(secret, student, key, generation, "kernel")).choice(fresh)
    taken.add(info.slug)
    variants = getattr(info, "variants", None)
    variant = variants.draw(derive_seed(secret, student, key, generation, "variant"), salt=info.slug) if variants else {}
    return {"slug": info.slug, "version_id": info.version_id, "version_number": info.version_number,
            "attempts": pool_item.attempts, "attempt_points": list(pool_item.attempt_points),
            "partial_credit": pool_item.partial_credit, "variant": variant}


def _item(spec: ExamTemplateSpec, zi: int, pi: int, catalogue: KernelCatalogue | None, secret: str, student: str,
          generation: int, taken: set[str], target_cc: str | None = None) -> dict:
    pool_item = spec.zones[zi].pool[pi]
    key = f"z{zi}.p{pi}"
    item: dict[str, Any] = {"key": key, "number": 0, "zone": zi, "kind": str(pool_item.kind),
                            "points": pool_item.points, "generation": generation}
    if pool_item.kind is ItemKind.QUESTION:
        item["question"] = _question(pool_item, secret, student, key, generation, target_cc)
    else:
        if catalogue is None:
            raise DrawError("a catalogue is needed to draw kernel items")
        item["kernel"] = _kernel(pool_item, catalogue, secret, student, key, generation, taken)
    return item


def draw_exam(spec: ExamTemplateSpec, secret: str, student: str | int,
              catalogue: KernelCatalogue | None = None, target_cc: str | None = None) -> DrawnExam:
    """The student's exam: for each zone, `choose` pool items (shuffled when the zone says so),
    each generated in full. The same (spec, secret, student, catalogue) always gives the same
    result; `student` is any stable id (the user's id). Raises DrawError for a kernel problem the
    catalogue no longer offers. Cost: one generator call per question item (about 0.03-30 ms each).
    `target_cc` is the course's target GPU (Course.target_cc): occupancy questions are drawn for it.
    """
    student = str(student)
    items: list[dict] = []
    taken: set[str] = set()
    for zi, zone in enumerate(spec.zones):
        rng = random.Random(derive_seed(secret, student, f"zone{zi}"))
        chosen = rng.sample(range(len(zone.pool)), zone.choose)
        if not zone.shuffle:
            chosen.sort()
        for pi in chosen:
            items.append(_item(spec, zi, pi, catalogue, secret, student, 0, taken, target_cc))
    for n, item in enumerate(items, start=1):
        item["number"] = n
    return DrawnExam(student, items)


def redraw_item(spec: ExamTemplateSpec, item: dict, secret: str, student: str | int,
                catalogue: KernelCatalogue | None = None, target_cc: str | None = None) -> dict:
    """A fresh variant of the same pool item (a staff reset): generation + 1, a new seed, the same
    key, number and points slot. A kernel item keeps its problem (slug) but takes its current version.
    Raises DrawError when the template no longer has that pool item.
    """
    zi, pi = (int(part[1:]) for part in item["key"].split("."))
    if zi >= len(spec.zones) or pi >= len(spec.zones[zi].pool):
        raise DrawError(f"the template has no pool item {item['key']}")
    generation = int(item.get("generation", 0)) + 1
    new = _item(spec, zi, pi, catalogue, secret, str(student), generation,
                {item["kernel"]["slug"]} if item.get("kernel") else set(), target_cc)
    if item.get("kernel") and spec.zones[zi].pool[pi].slug is None and catalogue is not None:
        info = catalogue.get(item["kernel"]["slug"])  # keep the problem drawn for this student
        if info and not info.error:
            new["kernel"].update(slug=info.slug, version_id=info.version_id, version_number=info.version_number)
    new["number"] = item["number"]
    return new


def question_view(question: dict, lang: str = "en", with_key: bool = False) -> dict:
    """What a page shows of a stored question in one language: title, prompt blocks, fields
    (label, hint, unit, choices). The answer and the worked solution only when `with_key`."""
    lang = lang if lang in LANGS else "en"
    fields = []
    for d in question["fields"]:
        f = Field.from_dict(d)
        fields.append({"name": f.name, "kind": str(f.kind), "label": f.label.get(lang, f.label["en"]),
                       "hint": f.hint(lang), "unit": f.unit,
                       "choices": [{"key": c.key, "label": c.label.get(lang, c.label["en"]), "code": c.code}
                                   for c in f.choices]})
    view = {"title": question["title"].get(lang, question["title"]["en"]),
            "prompt": question["prompt"].get(lang) or question["prompt"]["en"], "fields": fields}
    if with_key:
        view["solution"] = question["solution"].get(lang) or question["solution"]["en"]
        view["answer"] = {d["name"]: Field.from_dict(d).format_value(question["answer"][d["name"]], lang)
                          for d in question["fields"]}
    return view
