"""Adding a pool item to a template's text, as the template editor's "Add to the template" does.

Plain Python, no Django. The editor used to paste `- {family: ID}` after the line the caret was on;
with the caret never placed (line 1, `title:`) that broke the YAML (the tester's shot 12). Here the
text is parsed, the item goes into one zone's pool, and the text is checked to load as the same data
with the item appended:

- YAML: the item is written as one new line below the pool's last item, at that pool's indentation
  (or inside a flow list `[...]`, or under an empty `pool:`), so the author's comments and layout
  stay; anything else (a flow-style zone, no zones yet) is re-serialised whole, which drops comments
  (`AddedItem.rewritten` says so).
- JSON: loaded, appended and written back as indented JSON.

Ids are checked before anything is inserted: an unknown family or kernel slug is an error naming the
closest known id, and an item the template has already (the same kernel problem, or the same family at
the same difficulty: exams.core.template.item_key, the rule its validation applies) is an error naming
its zone; the text is then left as it was. `used_items` lists what a template has, for the picker to mark.
"""
from __future__ import annotations

import copy
import difflib
import enum
import json
from dataclasses import dataclass, field
from typing import Any, Iterable

import yaml

from .nesting import TooDeepError, load_json_or_yaml
from .repeats import item_key
from .template import default_zone_title


class PickKind(enum.StrEnum):
    """What the picker adds."""

    FAMILY = "family"  # a generated question: {family: id}
    KERNEL = "kernel"  # a kernel problem by slug: {kernel: slug}


class EditProblem(enum.StrEnum):
    """Why nothing was added (the edge renders each in the reader's language with `params`)."""

    EMPTY_ID = "empty_id"  # no id was typed
    UNKNOWN_ID = "unknown_id"  # params: kind, id, close ("" when no known id is close)
    UNREADABLE = "unreadable"  # the text is not JSON or YAML; params: line (1-based), detail (the parser's words)
    NOT_A_TEMPLATE = "not_a_template"  # the text is not a mapping (with a list of zones)
    NO_SUCH_ZONE = "no_such_zone"  # params: zone (1-based), zones
    ALREADY_THERE = "already_there"  # the template has this item; params: kind, id, zone (1-based)
    TOO_DEEP = "too_deep"  # the text nests deeper than a template can; params: depth (the limit)


class TemplateEditError(ValueError):
    """The item could not be added; `problem` and `params` say why. The text is unchanged."""

    def __init__(self, problem: EditProblem, **params: Any):
        self.problem = problem
        self.params = params
        super().__init__(f"{problem}: {params}")


@dataclass(frozen=True)
class AddedItem:
    """The template text with the item added."""

    text: str  # the whole new text
    zone: int  # 0-based index of the zone whose pool got the item (len(zones) when a zone was created)
    line: int  # 1-based line of the new item in `text`
    rewritten: bool = False  # the whole text was re-serialised (YAML comments and layout were not kept)
    zones: list[str] = field(default_factory=list)  # the zones' titles afterwards (see zone_titles)


@dataclass(frozen=True)
class UsedItem:
    """A family or kernel problem (by slug) that a template's pool has."""

    kind: PickKind
    id: str
    zone: int  # 0-based index of its zone
    difficulty: tuple[int, int] | None  # a family's difficulty range; None for a kernel problem


def used_items(text: str) -> list[UsedItem]:
    """The family and kernel-slug items of a template text, in the text's order ([] when it cannot be
    read; topic/tag kernel items are not listed: each draws a problem of its own)."""
    out = []
    for zi, zone in enumerate(readable_zones(text)):
        for raw in _items(zone):
            key = item_key(raw)
            if key is not None and isinstance(key[1], str):
                out.append(UsedItem(PickKind(key[0]), key[1], zi, key[2] if key[0] == "family" else None))
    return out


def check_id(kind: PickKind, item_id: str, known: Iterable[str]) -> str:
    """The id stripped, if it is one of `known`. Raises TemplateEditError EMPTY_ID or UNKNOWN_ID (with
    the closest known id in params["close"], difflib ratio >= 0.8, or "")."""
    item_id = (item_id or "").strip()
    known = list(known)
    if not item_id:
        raise TemplateEditError(EditProblem.EMPTY_ID, kind=str(kind))
    if item_id not in known:
        close = difflib.get_close_matches(item_id, known, n=1, cutoff=0.8)
        raise TemplateEditError(EditProblem.UNKNOWN_ID, kind=str(kind), id=item_id, close=close[0] if close else "")
    return item_id


def zone_titles(text: str, lang: str = "en") -> list[str]:
    """The titles of the template's zones in `lang` ("" for a zone without one), or [] when the text
    cannot be read as a template."""
    try:
        data, _is_json = _load(text)
    except TemplateEditError:
        return []
    zones = data.get("zones") if isinstance(data, dict) else None
    if not isinstance(zones, list):
        return []
    out = []
    for z in zones:
        title = z.get("title") if isinstance(z, dict) else None
        if isinstance(title, dict):
            title = title.get(lang) or title.get("en") or ""
        out.append(title if isinstance(title, str) else "")
    return out


def add_pool_item(text: str, kind: PickKind, item_id: str, zone: int | None = None, lang: str = "en") -> AddedItem:
    """Add `{kind: item_id}` to a zone's pool in the template `text` (JSON or YAML).

    `zone` is a 0-based zone index; None picks the last zone whose pool already holds an item of this
    kind, else the last zone. A template without zones gets one. `item_id` must have been checked
    (check_id). Raises TemplateEditError UNREADABLE, NOT_A_TEMPLATE, NO_SUCH_ZONE or ALREADY_THERE (the
    template has the item already: that kernel problem, or that family at difficulty 1, as it is added
    here); the text is then not changed.
    """
    data, is_json = _load(text)
    if not isinstance(data, dict):
        raise TemplateEditError(EditProblem.NOT_A_TEMPLATE)
    zones = data.get("zones")
    if zones is not None and not isinstance(zones, list):
        raise TemplateEditError(EditProblem.NOT_A_TEMPLATE)
    item = {str(kind): item_id}
    zones = zones or []
    for zi, z in enumerate(zones):
        if any(item_key(raw) == item_key(item) for raw in _items(z)):
            raise TemplateEditError(EditProblem.ALREADY_THERE, kind=str(kind), id=item_id, zone=zi + 1)
    if zone is None:
        zone = _auto_zone(zones, kind)
    elif not 0 <= zone < len(zones):
        raise TemplateEditError(EditProblem.NO_SUCH_ZONE, zone=zone + 1, zones=len(zones))
    expected = _with_item(data, zone, item)
    if not is_json:
        edited = _yaml_insert(text, zone, _flow(item)) if zones else None
        if edited is not None:
            new, line = edited
            try:
                if yaml.safe_load(new) == expected:
                    return AddedItem(new, zone, line, zones=zone_titles(new, lang))
            except yaml.YAMLError:
                pass
    # Written whole: the item is first written as a marker, to find its line, then as itself.
    marked = _with_item(data, zone, {str(kind): _MARK})
    if is_json:
        new = json.dumps(marked, indent=2, ensure_ascii=False) + "\n"
    else:
        new = yaml.safe_dump(marked, allow_unicode=True, sort_keys=False)
    line = new[:new.index(_MARK)].count("\n") + 1
    new = new.replace(_MARK, item_id)
    return AddedItem(new, zone, line, rewritten=not is_json, zones=zone_titles(new, lang))


_MARK = "ITEM-ADDED-HERE-7f3c"  # a placeholder no template contains

# ---- helpers -------------------------------------------------------------------------------------------


def readable_zones(text: str) -> list:
    """The `zones` list of a template text as written (each entry unchecked); [] when the text cannot
    be read as a mapping with a zones list."""
    try:
        data, _is_json = _load(text)
    except TemplateEditError:
        return []
    zones = data.get("zones") if isinstance(data, dict) else None
    return zones if isinstance(zones, list) else []


def _load(text: str) -> tuple[Any, bool]:
    """(data, was JSON). Raises TemplateEditError UNREADABLE with the line of the YAML problem, and
    TOO_DEEP for text nested deeper than exams.core.nesting.MAX_DEPTH levels."""
    if not text.strip():
        return {}, False
    try:
        return load_json_or_yaml(text)
    except TooDeepError as exc:
        raise TemplateEditError(EditProblem.TOO_DEEP, depth=exc.depth) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise TemplateEditError(EditProblem.UNREADABLE, line=(mark.line + 1) if mark else 1,
                                detail=getattr(exc, "problem", None) or str(exc)) from None


def _items(zone: Any) -> list:
    pool = zone.get("pool") if isinstance(zone, dict) else None
    return pool if isinstance(pool, list) else []


def _auto_zone(zones: list, kind: PickKind) -> int:
    """The last zone holding an item of `kind` (a bare string is a family), else the last zone
    (len(zones) == 0: a new zone)."""
    def holds(item: Any) -> bool:
        return (isinstance(item, dict) and str(kind) in item) or (kind is PickKind.FAMILY and isinstance(item, str))

    for i in range(len(zones) - 1, -1, -1):
        if any(holds(it) for it in _items(zones[i])):
            return i
    return max(len(zones) - 1, 0)


def _with_item(data: dict, zone: int, item: dict) -> dict:
    """A copy of `data` with `item` appended to zones[zone].pool (a zone created when there is none)."""
    new = copy.deepcopy(data)
    zones = new.get("zones") or []
    new["zones"] = zones
    if not zones:  # a template's first zone, titled as the zone list titles a new one
        zones.append({"title": default_zone_title(1), "pool": []})
    z = zones[zone]
    if not isinstance(z, dict):
        raise TemplateEditError(EditProblem.NOT_A_TEMPLATE)
    if not isinstance(z.get("pool"), list):
        z["pool"] = []
    z["pool"].append(item)
    return new


def _flow(item: dict) -> str:
    """`{family: id}` as one YAML flow mapping."""
    return yaml.safe_dump(item, default_flow_style=True, allow_unicode=True, width=10**6).strip()


def _key(mapping: yaml.MappingNode, name: str) -> tuple[yaml.Node, yaml.Node] | None:
    for k, v in mapping.value:
        if isinstance(k, yaml.ScalarNode) and k.value == name:
            return k, v
    return None


def _content_end(node: yaml.Node) -> int:
    """Index just past the last character that belongs to `node` (a block collection's end mark lies
    on the next token, past blank and comment lines; its last child's does not)."""
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        return _content_end(last[1] if isinstance(node, yaml.MappingNode) else last)
    return node.end_mark.index


def _line_end(text: str, index: int) -> int:
    end = text.find("\n", index)
    return len(text) if end < 0 else end


def _yaml_insert(text: str, zone: int, flow: str) -> tuple[str, int] | None:
    """Insert `flow` as the last item of zones[zone].pool, keeping the rest of the text; (new text,
    1-based line of the item), or None where the layout is not one handled here (the caller then
    re-serialises)."""
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    zones = _key(root, "zones")
    if zones is None or not isinstance(zones[1], yaml.SequenceNode) or zone >= len(zones[1].value):
        return None
    znode = zones[1].value[zone]
    if not isinstance(znode, yaml.MappingNode) or znode.flow_style:
        return None
    pool = _key(znode, "pool")
    if pool is None:  # no pool yet: a `pool:` key below the zone's last line, at its keys' indentation
        col = znode.value[0][0].start_mark.column
        at = _line_end(text, _content_end(znode))
        piece = "\n" + " " * col + "pool:\n" + " " * (col + 2) + "- " + flow
        return text[:at] + piece + text[at:], text[:at].count("\n") + 3
    key, value = pool
    if isinstance(value, yaml.ScalarNode) and value.tag.endswith(":null"):  # `pool:` with nothing after it
        at = _line_end(text, key.end_mark.index)
        piece = "\n" + " " * (key.start_mark.column + 2) + "- " + flow
        return text[:at] + piece + text[at:], text[:at].count("\n") + 2
    if not isinstance(value, yaml.SequenceNode):
        return None
    if value.flow_style:  # pool: [a, b]
        close = value.end_mark.index - 1
        if text[close] != "]":
            return None
        piece = (", " if value.value else "") + flow
        return text[:close] + piece + text[close:], text[:close].count("\n") + 1
    if not value.value:
        return None
    at = _line_end(text, _content_end(value))
    piece = "\n" + " " * value.start_mark.column + "- " + flow
    return text[:at] + piece + text[at:], text[:at].count("\n") + 2
