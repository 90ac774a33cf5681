"""The template editor's zone list: the zones of the text being edited, each with its title (renamed in
place), its pool's size and a Remove button, and "Add a zone". Edits go through
exams.core.template_zones; nothing is saved until "Check and save".

With htmx the list posts the editor's form to exams:template_zones and swaps itself (and the picker's
Zone options) in place; it also refreshes itself as the text is typed, so a zone added or removed by
hand shows without a reload (the tester had to reload). Without a script the same buttons post the
form there and the editor comes back with the new text.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from exams.core.template import default_zone_title
from exams.core.template_edit import EditProblem, TemplateEditError
from exams.core.template_zones import ZoneEdit, ZoneOp, add_zone, remove_zone, rename_zone, zone_summaries
from practice.rendering import lang
from .template_messages import too_deep_text


def zone_title(title: dict, number: int) -> str:
    """A zone's title in the reader's language (its English where it has none in it; its default
    title, "Zone 2" / "구역 2", where it has none at all)."""
    return title.get(lang()) or title.get("en") or default_zone_title(number)[lang()]


def zone_rows(text: str) -> list[dict]:
    """The zone list's rows for a template text: index (0-based), number, label (its title in the
    reader's language), title_en and title_ko as written ("" where not), default_en and default_ko
    (the titles an untitled zone gets), items (its pool's size), choose (None: the whole pool)."""
    rows = []
    for z in zone_summaries(text):
        default = default_zone_title(z.index + 1)
        rows.append({"index": z.index, "number": z.index + 1, "label": zone_title(z.title, z.index + 1),
                     "title_en": z.title.get("en", ""), "title_ko": z.title.get("ko", ""),
                     "default_en": default["en"], "default_ko": default["ko"], "items": z.items, "choose": z.choose})
    return rows


def edit_from_post(post) -> tuple[ZoneEdit | None, str]:
    """Apply the zone list's POST (text, zone_op = "add" | "remove:<index>" | "rename:<index>" with
    zone-<index>-title-en and -ko) to the text: (the edit, a sentence for the reader); the edit is None
    when nothing changed (the sentence says why; "" for a plain refresh, zone_op "list")."""
    text = (post.get("text") or "").replace("\r\n", "\n")
    op, _sep, raw_index = (post.get("zone_op") or "").partition(":")
    if op == "list":
        return None, ""
    try:
        op = ZoneOp(op)
        index = int(raw_index) if op is not ZoneOp.ADD else 0
    except ValueError:
        return None, _("Choose what to do with a zone.")
    try:
        if op is ZoneOp.ADD:
            edit = add_zone(text)
        elif op is ZoneOp.REMOVE:
            edit = remove_zone(text, index)
        else:
            edit = rename_zone(text, index, {"en": post.get(f"zone-{index}-title-en", ""),
                                             "ko": post.get(f"zone-{index}-title-ko", "")})
    except TemplateEditError as exc:
        return None, problem_text(exc)
    return edit, said(edit)


def said(edit: ZoneEdit) -> str:
    """What a zone edit did, in the reader's language."""
    p = {"n": edit.zone + 1, "zone": zone_title(edit.title, edit.zone + 1), "items": edit.items}
    if edit.op is ZoneOp.ADD:
        text = _("Added zone %(n)s (%(zone)s) with an empty pool: pick questions for it below.") % p
    elif edit.op is ZoneOp.REMOVE:
        if edit.items:
            text = ngettext("Removed zone %(n)s (%(zone)s) and the %(items)s item of its pool.",
                            "Removed zone %(n)s (%(zone)s) and the %(items)s items of its pool.", edit.items) % p
        else:
            text = _("Removed zone %(n)s (%(zone)s).") % p
    else:
        text = _("Renamed zone %(n)s to “%(zone)s”.") % p
    text += " " + _("Not saved yet: press Check and save.")
    if edit.rewritten:
        text += " " + _("The template was rewritten in plain YAML to do it, so its comments were dropped.")
    return text


def problem_text(exc: TemplateEditError) -> str:
    """Why a zone edit changed nothing, in the reader's language."""
    p = exc.params
    if exc.problem is EditProblem.UNREADABLE:
        return _("The template cannot be read at line %(line)s (%(detail)s): fix it, then change its zones. "
                 "Nothing was changed.") % p
    if exc.problem is EditProblem.TOO_DEEP:
        return too_deep_text(p["depth"]) + " " + _("Nothing was changed.")
    if exc.problem is EditProblem.NO_SUCH_ZONE:
        return ngettext("The template has %(zones)s zone, not a zone %(zone)s: the list was out of date and is "
                        "now current. Nothing was changed.",
                        "The template has %(zones)s zones, not a zone %(zone)s: the list was out of date and is "
                        "now current. Nothing was changed.", p["zones"]) % p
    return _("The template must be a mapping with a list of zones. Nothing was changed.")
