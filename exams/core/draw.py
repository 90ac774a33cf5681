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

One student never gets one problem twice: the kernel problems the chosen items name are set aside
before a topic/tag item draws, a topic/tag item takes a problem no other item has (moving an earlier
one to another of its problems when that is the only way), and a question whose variant (family and
params) the student already has is drawn again with a further seed. When that cannot be done, the
draw fails (DrawError) rather than repeat a problem; template validation refuses such templates.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import random
from dataclasses import dataclass
from typing import Any

from .families import Field, family
from .catalogue import KernelCatalogue
from .template import ExamTemplateSpec, ItemKind, KernelPoolItem, QuestionPoolItem

LANGS = ("en", "ko")


class DrawError(RuntimeError):
    """A template cannot be drawn now (a kernel problem vanished or lost its version since validation),
    or not without giving one student the same problem twice."""


QUESTION_TRIES = 50  # seeds tried for a question variant the student does not have yet


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
              target_cc: str | None, seen: set[str]) -> dict:
    """The item's question: the first of its seeds whose variant is not in `seen` (the variants the
    student has already, as variant_id writes them), which it is then added to. The first seed is the
    one drawn before repeats were avoided, so a draw without a repeat is what it was."""
    lo, hi = pool_item.difficulty
    for again in range(QUESTION_TRIES):
        seed = derive_seed(secret, student, key, generation, *((f"again{again}",) if again else ()))
        difficulty = lo if lo == hi else random.Random(seed).randint(lo, hi)
        question = question_variant(pool_item.family, difficulty, seed, target_cc)
        if variant_id(question) not in seen:
            seen.add(variant_id(question))
            return question
    raise DrawError(f"{pool_item.family!r} gave no variant this student does not have already in {QUESTION_TRIES} "
                    "seeds")


def variant_id(question: dict) -> str:
    """What makes two stored questions the same one: the family and its params (which give its prompt,
    answer and solution)."""
    return question["family"] + json.dumps(question["params"], sort_keys=True)


def repeats(items: list[dict]) -> list[str]:
    """The problems that drawn `items` hold more than once: kernel slugs and question variant_ids
    (an empty list for a good draw; a draw stored before repeats were avoided may have some)."""
    ids = [i["kernel"]["slug"] if i.get("kernel") else variant_id(i["question"]) for i in items
           if i.get("kernel") or i.get("question")]
    return sorted({x for x in ids if ids.count(x) > 1})


def _named_info(pool_item: KernelPoolItem, catalogue: KernelCatalogue):
    """The catalogue's KernelInfo of a slug item. Raises DrawError when it is not available."""
    info = catalogue.get(pool_item.slug)
    if info is None or info.error or info.version_id is None:
        raise DrawError(f"problem {pool_item.slug!r} is not available: {info.error if info else 'unknown'}")
    return info


def _kernel(info, pool_item: KernelPoolItem, secret: str, student: str, key: str, generation: int) -> dict:
    """The stored kernel dict of problem `info` for this item, with the student's variant."""
    variants = getattr(info, "variants", None)
    variant = variants.draw(derive_seed(secret, student, key, generation, "variant"), salt=info.slug) if variants else {}
    return {"slug": info.slug, "version_id": info.version_id, "version_number": info.version_number,
            "attempts": pool_item.attempts, "attempt_points": list(pool_item.attempt_points),
            "partial_credit": pool_item.partial_credit, "variant": variant}


class _Problems:
    """The kernel problems of one student's draw: the slugs the chosen slug items name, set aside
    before any topic/tag item draws, and which topic/tag item holds which problem. An item whose
    problems are all held moves an earlier item to another of its own (an augmenting path, as in
    bipartite matching), so distinct problems are found whenever they exist."""

    def __init__(self, named: set[str]):
        self.named = named
        self.holder: dict[str, str] = {}  # slug -> key of the topic/tag item holding it
        self.order: dict[str, list[str]] = {}  # key -> its candidate slugs, most wanted first

    def taken(self) -> set[str]:
        return self.named | set(self.holder)

    def place(self, key: str, order: list[str]) -> bool:
        """Give item `key` one of `order` that no other item has (moving others if need be)."""
        self.order[key] = order
        return self._augment(key, set())

    def _augment(self, key: str, visited: set[str]) -> bool:
        for slug in self.order[key]:
            if slug in self.named or slug in visited:
                continue
            visited.add(slug)
            other = self.holder.get(slug)
            if other is None or self._augment(other, visited):
                self.holder[slug] = key
                return True
        return False

    def slug_of(self) -> dict[str, str]:
        return {key: slug for slug, key in self.holder.items()}


def _draw_kernels(spec: ExamTemplateSpec, chosen: list[tuple[int, int]], catalogue: KernelCatalogue | None,
                  secret: str, student: str, generation: int) -> dict[str, object]:
    """The problem (KernelInfo) of every chosen kernel item, by key, no two the same. A topic/tag item
    wants the problem its seed picks among those still free (as it always has), else any of its own.
    Raises DrawError for a problem not available, or when distinct problems cannot be found."""
    kernel_items = [(zi, pi, spec.zones[zi].pool[pi]) for zi, pi in chosen
                    if spec.zones[zi].pool[pi].kind is ItemKind.KERNEL]
    if not kernel_items:
        return {}
    if catalogue is None:
        raise DrawError("a catalogue is needed to draw kernel items")
    out: dict[str, object] = {}
    named: set[str] = set()
    for zi, pi, item in kernel_items:
        if item.slug:
            if item.slug in named:
                raise DrawError(f"problem {item.slug!r} is named twice by the template; a student would get it twice")
            named.add(item.slug)
            out[f"z{zi}.p{pi}"] = _named_info(item, catalogue)
    problems, infos = _Problems(named), {}
    for zi, pi, item in kernel_items:
        if item.slug:
            continue
        key = f"z{zi}.p{pi}"
        candidates = catalogue.matching(item.topic, item.tag)
        if not candidates:
            raise DrawError(f"no usable problem with topic {item.topic!r} / tag {item.tag!r}")
        infos.update((c.slug, c) for c in candidates)
        rng = random.Random(derive_seed(secret, student, key, generation, "kernel"))
        fresh = [c for c in candidates if c.slug not in problems.taken()]
        first = [rng.choice(fresh).slug] if fresh else []
        rest = [c.slug for c in candidates if c.slug not in first]
        rng.shuffle(rest)
        if not problems.place(key, first + rest):
            raise DrawError(f"too few problems with topic {item.topic!r} / tag {item.tag!r} for a student to get "
                            "distinct ones")
    out.update((key, infos[slug]) for key, slug in problems.slug_of().items())
    return out


def _item(spec: ExamTemplateSpec, zi: int, pi: int, secret: str, student: str, generation: int,
          target_cc: str | None, seen: set[str], problem=None) -> dict:
    """Item (zi, pi) in full: its question (not one of the variants in `seen`), or its kernel
    problem `problem` (a KernelInfo) with the student's variant."""
    pool_item = spec.zones[zi].pool[pi]
    key = f"z{zi}.p{pi}"
    item: dict[str, Any] = {"key": key, "number": 0, "zone": zi, "kind": str(pool_item.kind),
                            "points": pool_item.points, "generation": generation}
    if pool_item.kind is ItemKind.QUESTION:
        item["question"] = _question(pool_item, secret, student, key, generation, target_cc, seen)
    else:
        item["kernel"] = _kernel(problem, pool_item, secret, student, key, generation)
    return item


def draw_exam(spec: ExamTemplateSpec, secret: str, student: str | int,
              catalogue: KernelCatalogue | None = None, target_cc: str | None = None) -> DrawnExam:
    """The student's exam: for each zone, `choose` pool items (shuffled when the zone says so),
    each generated in full, no problem twice (see the module docstring). The same (spec, secret,
    student, catalogue) always gives the same result; `student` is any stable id (the user's id).
    Raises DrawError for a kernel problem the catalogue no longer offers, or a template that cannot
    give distinct problems. Cost: one generator call per question item (about 0.03-30 ms each).
    `target_cc` is the course's target GPU (Course.target_cc): occupancy questions are drawn for it.
    """
    student = str(student)
    chosen: list[tuple[int, int]] = []
    for zi, zone in enumerate(spec.zones):
        rng = random.Random(derive_seed(secret, student, f"zone{zi}"))
        picks = rng.sample(range(len(zone.pool)), zone.choose)
        if not zone.shuffle:
            picks.sort()
        chosen.extend((zi, pi) for pi in picks)
    problems = _draw_kernels(spec, chosen, catalogue, secret, student, 0)
    seen: set[str] = set()
    items = [_item(spec, zi, pi, secret, student, 0, target_cc, seen, problems.get(f"z{zi}.p{pi}"))
             for zi, pi in chosen]
    for n, item in enumerate(items, start=1):
        item["number"] = n
    return DrawnExam(student, items)


def redraw_item(spec: ExamTemplateSpec, item: dict, secret: str, student: str | int,
                catalogue: KernelCatalogue | None = None, target_cc: str | None = None,
                others: list[dict] = ()) -> dict:
    """A fresh variant of the same pool item (a staff reset): generation + 1, a new seed, the same
    key, number and points slot, and nothing that `others` (the attempt's other items) have: a question
    variant of theirs is drawn again. A kernel item keeps its problem (slug) but takes its current
    version; a topic/tag item whose problem is gone draws another that `others` do not have.
    Raises DrawError when the template no longer has that pool item, or no such problem is left.
    """
    zi, pi = (int(part[1:]) for part in item["key"].split("."))
    if zi >= len(spec.zones) or pi >= len(spec.zones[zi].pool):
        raise DrawError(f"the template has no pool item {item['key']}")
    student, generation = str(student), int(item.get("generation", 0)) + 1
    pool_item = spec.zones[zi].pool[pi]
    seen = {variant_id(o["question"]) for o in others if o.get("question")}
    problem = None
    if pool_item.kind is ItemKind.KERNEL:
        if catalogue is None:
            raise DrawError("a catalogue is needed to draw kernel items")
        if pool_item.slug:
            problem = _named_info(pool_item, catalogue)
        else:  # keep the problem drawn for this student while it is there
            kept = catalogue.get(item["kernel"]["slug"]) if item.get("kernel") else None
            if kept is not None and not kept.error and kept.version_id is not None:
                problem = kept
            else:
                held = {o["kernel"]["slug"] for o in others if o.get("kernel")} | {item.get("kernel", {}).get("slug")}
                free = [c for c in catalogue.matching(pool_item.topic, pool_item.tag) if c.slug not in held]
                if not free:
                    raise DrawError(f"no other usable problem with topic {pool_item.topic!r} / tag {pool_item.tag!r}")
                problem = random.Random(derive_seed(secret, student, item["key"], generation, "kernel")).choice(free)
    new = _item(spec, zi, pi, secret, student, generation, target_cc, seen, problem)
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
