"""The template editor's picker ("Add to the template"): a family id or kernel slug goes into a zone's
pool of the template being edited, through exams.core.template_edit (parse, insert, check), with the
ids checked first. The editor's script posts the form here and swaps the text in place (JSON answer);
without the script the same POST re-renders the editor with the new text. Nothing is saved."""
from __future__ import annotations

from django.utils.translation import gettext as _

from exams.core.template_edit import (AddedItem, EditProblem, PickKind, TemplateEditError, add_pool_item,
                                      check_id, zone_titles)
from practice.rendering import lang

from .catalogue import DbCatalogue


def known_ids(kind: PickKind, course) -> list[str]:
    """The ids the picker accepts: every question family, or the kernel problems the course's
    templates may use (its own and the bank's published ones, as the template check accepts them)."""
    if kind is PickKind.FAMILY:
        from practice.core.questions import FAMILIES

        return list(FAMILIES)
    return [i.slug for i in DbCatalogue(course).matching(None, None)]


def zone_options(text: str) -> list[dict]:
    """The zone <select>'s options for a template text: [{"index": 0, "label": "1. Occupancy"}, ...]."""
    return [{"index": i, "label": f"{i + 1}. {t}" if t else _("Zone %(n)s") % {"n": i + 1}}
            for i, t in enumerate(zone_titles(text, lang()))]


def add_from_post(post, course) -> tuple[AddedItem | None, str]:
    """Read the picker's fields from a POST (text, add = family|kernel, family_id or kernel_slug, zone =
    a 0-based index or "" for automatic) and add the item: (the result, a sentence for the reader),
    the result None when nothing was added (the sentence says why)."""
    text = (post.get("text") or "").replace("\r\n", "\n")
    try:
        kind = PickKind(post.get("add", ""))
    except ValueError:
        return None, _("Choose a question family or a kernel problem to add.")
    raw_zone = post.get("zone", "")
    zone = int(raw_zone) if raw_zone.isdigit() else None
    try:
        item_id = check_id(kind, post.get("family_id" if kind is PickKind.FAMILY else "kernel_slug", ""),
                           known_ids(kind, course))
        added = add_pool_item(text, kind, item_id, zone, lang())
    except TemplateEditError as exc:
        return None, problem_text(exc)
    title = (added.zones[added.zone] if added.zone < len(added.zones) else "") or _("Zone %(n)s") % {"n": added.zone + 1}
    said = _("Added %(id)s to the pool of zone %(n)s (%(zone)s), line %(line)s. Not saved yet: press Check and save.") % {
        "id": item_id, "n": added.zone + 1, "zone": title, "line": added.line}
    if added.rewritten:
        said += " " + _("The template was rewritten in plain YAML to add it, so its comments were dropped.")
    return added, said


def problem_text(exc: TemplateEditError) -> str:
    """Why nothing was added, in the reader's language."""
    p = exc.params
    if exc.problem is EditProblem.EMPTY_ID:
        return (_("Type or pick a question family id first.") if p["kind"] == PickKind.FAMILY
                else _("Type or pick a kernel problem slug first."))
    if exc.problem is EditProblem.UNKNOWN_ID:
        if p["kind"] == PickKind.FAMILY:
            text = _("There is no question family “%(id)s”.") % p
        else:
            text = _("There is no kernel problem “%(id)s” that this course's templates can use.") % p
        if p["close"]:
            text += " " + _("Did you mean “%(close)s”?") % p
        return text + " " + _("Nothing was added.")
    if exc.problem is EditProblem.UNREADABLE:
        return _("The template cannot be read at line %(line)s (%(detail)s): fix it, then add the item. "
                 "Nothing was added.") % p
    if exc.problem is EditProblem.NO_SUCH_ZONE:
        return _("The template has %(zones)s zones, not %(zone)s: choose a zone from the list. Nothing was added.") % p
    return _("The template must be a mapping with a list of zones to add an item to it. Nothing was added.")
