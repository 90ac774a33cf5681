"""One student never gets one problem twice: what makes two pool items of an exam template the same
problem, and the template checks that refuse a repeat. exams.core.template runs them while parsing;
exams.core.draw then always finds distinct problems, and the template editor's picker
(exams.core.template_edit) refuses and marks what a template has by the same rule (item_key).

Plain Python; the messages are English and carry a code and parameters (TemplateMessage,
exams.core.template_problems), so the edge shows them in the reader's language (exams/template_messages.py).
"""
from __future__ import annotations

from typing import Any, Mapping

from .catalogue import KernelCatalogue
from .template_problems import TemplateMessage, TemplateProblem  # noqa: F401  (re-exported)


def item_key(raw: Any) -> tuple | None:
    """What makes two pool items, as written, the same problem for a student: ("kernel", slug) for a
    kernel problem named by its slug, ("family", id, (lo, hi)) for a question family at a difficulty
    range (points do not change what is drawn). None for a topic/tag kernel item (each draws a
    problem the others have not) and for anything that is not a readable item."""
    if isinstance(raw, str):
        return ("family", raw, (1, 1))
    if not isinstance(raw, Mapping) or ("family" in raw) == ("kernel" in raw):
        return None
    if "kernel" in raw:
        return ("kernel", raw["kernel"]) if isinstance(raw["kernel"], str) else None
    if not isinstance(raw["family"], str):
        return None
    level = raw.get("difficulty", 1)
    if isinstance(level, int) and not isinstance(level, bool):
        return ("family", raw["family"], (level, level))
    if isinstance(level, (list, tuple)) and len(level) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in level):
        return ("family", raw["family"], (level[0], level[1]))
    return None


def check_repeats(raw_zones: list, problems) -> None:
    """Refuse a pool item that is already in the template (item_key), at its second place, naming the first:
    the tester's template named block-sum twice and a student was given it twice."""
    first: dict[tuple, str] = {}
    for zi, zraw in enumerate(raw_zones):
        pool = zraw.get("pool") if isinstance(zraw, Mapping) else None
        for pi, raw in enumerate(pool if isinstance(pool, list) else []):
            key = item_key(raw)
            if key is None:
                continue
            path = f"zones[{zi}].pool[{pi}]"
            if key not in first:
                first[key] = path
                continue
            if key[0] == "kernel":
                params = {"kind": "kernel", "id": key[1], "first": first[key]}
                english = (f"kernel problem {key[1]!r} is already in the template ({first[key]}): a student would "
                           "get it twice; remove one of them")
            else:
                lo, hi = key[2]
                params = {"kind": "family", "id": key[1], "difficulty": (lo, hi), "first": first[key]}
                levels = f"difficulty {lo}" if lo == hi else f"difficulties {lo}-{hi}"
                english = (f"question family {key[1]!r} at {levels} is already in the template ({first[key]}): a "
                           "student could get it twice; remove one of them or give it another difficulty")
            problems.add(f"{path}.{key[0]}", TemplateMessage(TemplateProblem.DUPLICATE_ITEM, params, english))


MAX_POOL_GROUPS = 8  # topic/tag groups whose every combination is checked (2^8 unions at most)


def check_kernel_pools(zones: list[tuple[int, int, list]], catalogue: KernelCatalogue, problems) -> None:
    """Topic/tag kernel items draw distinct problems, also from the problems other items name.

    `zones`: (zone index, choose, parsed pool). For every set of topic/tag groups (every
    combination up to MAX_POOL_GROUPS groups, else each alone), the items a student can get from
    those groups and the slug items naming one of their problems (in each zone at most `choose`)
    need as many distinct problems as the groups match; else some student would get one problem
    twice (Hall's condition, so exams.core.draw can always find distinct problems). Reported at the
    groups' first item, once per group."""
    groups: dict[tuple, list[tuple[int, int]]] = {}  # (topic, tag) -> [(zone, pool index)]
    named: dict[str, list[tuple[int, int]]] = {}  # slug -> [(zone, pool index)]
    for zi, _choose, pool in zones:
        for pi, item in enumerate(pool):
            if getattr(item, "kind", None) == "kernel":
                (groups.setdefault((item.topic, item.tag), []) if item.slug is None
                 else named.setdefault(item.slug, [])).append((zi, pi))
    found = {g: catalogue.matching(*g) for g in groups}
    keys = [g for g in groups if found[g]]
    if len(keys) <= MAX_POOL_GROUPS:
        subsets = [[g for b, g in enumerate(keys) if mask >> b & 1] for mask in range(1, 1 << len(keys))]
        subsets.sort(key=len)
    else:
        subsets = [[g] for g in keys]
    choose = {zi: c for zi, c, _pool in zones}
    reported: set[tuple] = set()
    for subset in subsets:
        if reported.intersection(subset):
            continue
        slugs = sorted({i.slug for g in subset for i in found[g]})
        places = [p for g in subset for p in groups[g]] + [p for s in slugs for p in named.get(s, [])]
        per_zone: dict[int, int] = {}
        for zi, _pi in places:
            per_zone[zi] = per_zone.get(zi, 0) + 1
        need = sum(min(choose[zi], n) for zi, n in per_zone.items())
        if need <= len(slugs):
            continue
        reported.update(subset)
        zi, pi = min(groups[subset[0]])
        pool = " / ".join(pool_words(*g) for g in subset)
        params = {"n": len(slugs), "pool": pool, "slugs": ", ".join(slugs), "need": need}
        if len(subset) == 1 and len(per_zone) == 1 and not any(named.get(s) for s in slugs):
            problems.add(f"zones[{zi}].pool[{pi}].kernel", TemplateMessage(
                TemplateProblem.POOL_TOO_SMALL, params,
                f"matches {len(slugs)} usable problem(s) {pool} ({params['slugs']}), fewer than the {need} this zone "
                "can draw: a student would get the same problem twice"))
        else:
            params["items"] = ", ".join(f"zones[{z}].pool[{p}]" for z, p in sorted(places))
            problems.add(f"zones[{zi}].pool[{pi}].kernel", TemplateMessage(
                TemplateProblem.POOLS_OVERLAP, params,
                f"matches {len(slugs)} usable problem(s) {pool} ({params['slugs']}), fewer than the {need} that "
                f"{params['items']} can draw for one student: a student would get the same problem twice"))


def pool_words(topic: str | None, tag: str | None) -> str:
    """"of topic 'reduction' with tag 'shared-memory'", as the messages name a pool."""
    return " ".join(w for w in (f"of topic {topic!r}" if topic else "", f"with tag {tag!r}" if tag else "") if w)
