"""A template's zones as the editor's zone list edits them: add one, remove one, rename one.

Plain Python, no Django. Like the picker (template_edit.py), an edit changes the template's text, not a
saved template: the text is parsed, the zone's lines are added, cut or changed in place (YAML comments
and layout stay), and the new text is checked to load as the old data with that one change; anything
else (a flow-style `zones: [...]`, a layout not handled here) is re-serialised whole, which drops YAML
comments (`ZoneEdit.rewritten` says so). JSON stays JSON.

A zone without a title used to be called "Part 2", in English on Korean pages too (the tester's
"unhelpful default names"); a new zone is titled "Zone 2" / "구역 2" by its place, and so is one that
a template leaves untitled.
"""
from __future__ import annotations

import copy
import enum
import json
from dataclasses import dataclass

import yaml

from .template import ZONE_WORD, Text, default_zone_title
from .template_edit import EditProblem, TemplateEditError, _content_end, _flow, _key, _line_end, _load, readable_zones


class ZoneOp(enum.StrEnum):
    """What the zone list does to the text."""

    ADD = "add"  # a new zone at the end, titled by its place, with an empty pool
    REMOVE = "remove"  # a zone and its pool are cut
    RENAME = "rename"  # a zone's title is replaced


@dataclass(frozen=True)
class ZoneSummary:
    """One zone of a template text, as the zone list shows it."""

    index: int  # 0-based
    title: Text  # its title as written ({} when it has none; a plain string is {"en": it})
    items: int  # the items in its pool
    choose: int | None  # how many a student gets, as written (None: the whole pool)


@dataclass(frozen=True)
class ZoneEdit:
    """The template text after one zone edit."""

    text: str  # the whole new text
    op: ZoneOp
    zone: int  # 0-based index of the zone added, removed or renamed
    title: Text  # that zone's title (a removed zone's as it was; default_zone_title where it had none)
    items: int = 0  # the items of a removed zone's pool (cut with it)
    rewritten: bool = False  # the whole text was re-serialised (YAML comments and layout were not kept)


def zone_summaries(text: str) -> list[ZoneSummary]:
    """The zones of a template text, in order; [] when it cannot be read as a template."""
    out = []
    for i, z in enumerate(readable_zones(text)):
        z = z if isinstance(z, dict) else {}
        pool = z.get("pool")
        choose = z.get("choose")
        out.append(ZoneSummary(i, _title_of(z), len(pool) if isinstance(pool, list) else 0,
                               choose if isinstance(choose, int) and not isinstance(choose, bool) else None))
    return out


def add_zone(text: str) -> ZoneEdit:
    """Add a zone at the end of the template `text`, titled by its place ("Zone 3" / "구역 3", or the next
    number no zone is titled with), with an empty `pool:` for the picker to fill. A text without zones
    (or an empty one) gets its first. Raises TemplateEditError UNREADABLE or NOT_A_TEMPLATE."""
    data, is_json, zones = _template(text)
    taken = {v for z in zones for v in _title_of(z if isinstance(z, dict) else {}).values()}
    number = len(zones) + 1
    while any(t in taken for t in default_zone_title(number).values()):
        number += 1
    title = default_zone_title(number)
    expected = _with_zones(data, [*zones, {"title": title, "pool": None}])
    new = None if is_json else _yaml_append_zone(text, title)
    return _edit(text, new, expected, is_json, ZoneOp.ADD, len(zones), title)


def remove_zone(text: str, index: int) -> ZoneEdit:
    """Cut the zone at 0-based `index`, its pool with it. Raises TemplateEditError UNREADABLE,
    NOT_A_TEMPLATE or NO_SUCH_ZONE."""
    data, is_json, zones = _template(text)
    _check_index(index, zones)
    zone = zones[index] if isinstance(zones[index], dict) else {}
    pool = zone.get("pool")
    expected = _with_zones(data, zones[:index] + zones[index + 1:])
    new = None if is_json else _yaml_cut_zone(text, index)
    title = _title_of(zone) or default_zone_title(index + 1)
    items = len(pool) if isinstance(pool, list) else 0
    return _edit(text, new, expected, is_json, ZoneOp.REMOVE, index, title, items=items)


def rename_zone(text: str, index: int, title: Text) -> ZoneEdit:
    """Give the zone at 0-based `index` the `title` ({"en": ..., "ko": ...}; texts are stripped, an empty
    language left out, an empty English one is the zone's default title). Raises TemplateEditError
    UNREADABLE, NOT_A_TEMPLATE or NO_SUCH_ZONE."""
    data, is_json, zones = _template(text)
    _check_index(index, zones)
    clean = {la: " ".join(str(t).split()) for la, t in title.items() if la in ZONE_WORD and str(t).strip()}
    if not clean.get("en"):  # no English title: the zone's default one (and its Korean where none was given)
        clean = {**default_zone_title(index + 1), **clean}
    clean = {"en": clean["en"], **{la: t for la, t in clean.items() if la != "en"}}
    zone = zones[index]
    if not isinstance(zone, dict):
        raise TemplateEditError(EditProblem.NOT_A_TEMPLATE)
    renamed = {"title": clean, **{k: v for k, v in zone.items() if k != "title"}} if "title" not in zone else {
        k: (clean if k == "title" else v) for k, v in zone.items()}
    expected = _with_zones(data, zones[:index] + [renamed] + zones[index + 1:])
    new = None if is_json else _yaml_retitle(text, index, clean)
    return _edit(text, new, expected, is_json, ZoneOp.RENAME, index, clean)


# ---- helpers -------------------------------------------------------------------------------------------


def _title_of(zone: dict) -> Text:
    title = zone.get("title")
    if isinstance(title, str) and title.strip():
        return {"en": title}
    if isinstance(title, dict):
        return {str(k): v for k, v in title.items() if isinstance(v, str) and v.strip()}
    return {}


def _template(text: str) -> tuple[dict, bool, list]:
    """(data, was JSON, its zones list). A text with no `zones` (or an empty text) has none."""
    data, is_json = _load(text)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise TemplateEditError(EditProblem.NOT_A_TEMPLATE)
    zones = data.get("zones")
    if zones is not None and not isinstance(zones, list):
        raise TemplateEditError(EditProblem.NOT_A_TEMPLATE)
    return data, is_json, list(zones or [])


def _check_index(index: int, zones: list) -> None:
    if not 0 <= index < len(zones):
        raise TemplateEditError(EditProblem.NO_SUCH_ZONE, zone=index + 1, zones=len(zones))


def _with_zones(data: dict, zones: list) -> dict:
    new = copy.deepcopy(data)
    new["zones"] = copy.deepcopy(zones)
    return new


def _edit(text: str, new: str | None, expected: dict, is_json: bool, op: ZoneOp, zone: int, title: Text,
          items: int = 0) -> ZoneEdit:
    """The edit with the text changed in place where that loads as `expected`, else `expected` written whole."""
    if new is not None:
        try:
            if yaml.safe_load(new) == expected:
                return ZoneEdit(new, op, zone, title, items)
        except yaml.YAMLError:
            pass
    # Written whole, an empty pool is `[]` (in place it is a bare `pool:` for the picker to fill as a block).
    for z in expected["zones"]:
        if isinstance(z, dict) and "pool" in z and z["pool"] is None:
            z["pool"] = []
    if is_json:
        return ZoneEdit(json.dumps(expected, indent=2, ensure_ascii=False) + "\n", op, zone, title, items)
    return ZoneEdit(yaml.safe_dump(expected, allow_unicode=True, sort_keys=False), op, zone, title, items,
                    rewritten=bool(text.strip()))


def _zones_node(text: str) -> yaml.SequenceNode | None:
    """The block sequence under `zones:` with at least one item, or None for any other layout."""
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    zones = _key(root, "zones")
    if zones is None or not isinstance(zones[1], yaml.SequenceNode) or zones[1].flow_style or not zones[1].value:
        return None
    return zones[1]


def _dash(text: str, item: yaml.Node) -> int:
    """The index of the `-` that opens a block sequence's `item`."""
    return text.rfind("-", 0, item.start_mark.index)


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _yaml_append_zone(text: str, title: Text) -> str | None:
    zones = _zones_node(text)
    if zones is None:  # no `zones:` yet in an empty text or a block mapping: one below the rest
        try:
            root = yaml.compose(text)
        except yaml.YAMLError:
            return None
        if root is not None and (not isinstance(root, yaml.MappingNode) or root.flow_style
                                 or _key(root, "zones") is not None):
            return None
        before = "" if not text.strip() else text if text.endswith("\n") else text + "\n"
        return f"{before}zones:\n  - title: {_flow(title)}\n    pool:\n"
    last = zones.value[-1]
    dash = _dash(text, last)
    col = dash - _line_start(text, dash)
    at = _line_end(text, _content_end(last))
    piece = f"\n{' ' * col}- title: {_flow(title)}\n{' ' * (col + 2)}pool:"
    return text[:at] + piece + text[at:]


def _yaml_cut_zone(text: str, index: int) -> str | None:
    zones = _zones_node(text)
    if zones is None or len(zones.value) < 2:  # the last zone: `zones: []` is written whole
        return None
    item = zones.value[index]
    start = _line_start(text, _dash(text, item))
    if index + 1 < len(zones.value):
        end = _line_start(text, _dash(text, zones.value[index + 1]))
    else:  # the last item: up to the end of its last line, and the newline before it goes
        end = _line_end(text, _content_end(item))
        start = max(0, start - 1)
    return text[:start] + text[end:]


def _yaml_retitle(text: str, index: int, title: Text) -> str | None:
    zones = _zones_node(text)
    if zones is None:
        return None
    zone = zones.value[index]
    if not isinstance(zone, yaml.MappingNode) or zone.flow_style or not zone.value:
        return None
    found = _key(zone, "title")
    if found is None:  # a `title:` line before the zone's first key, at its indentation
        first = zone.value[0][0].start_mark
        return text[:first.index] + f"title: {_flow(title)}\n{' ' * first.column}" + text[first.index:]
    name, value = found  # from the key's colon: a block title's lines go, the new one stays on the key's line
    colon = text.find(":", name.end_mark.index)
    if colon < 0 or colon >= value.start_mark.index + 1:
        return None
    return text[:colon + 1] + " " + _flow(title) + text[_content_end(value):]
