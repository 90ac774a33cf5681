"""The template editor's picker ("Add to the template"): a family id or kernel slug goes into a zone's
pool of the template being edited, through exams.core.template_edit (parse, insert, check), with the
ids checked first. The editor's script posts the form here and swaps the text in place (JSON answer);
without the script the same POST re-renders the editor with the new text. Nothing is saved."""
from __future__ import annotations

from django.utils.translation import gettext as _

from exams.core.template import default_zone_title
from exams.core.template_edit import (AddedItem, EditProblem, PickKind, TemplateEditError, add_pool_item,
                                      check_id, used_items, zone_titles)
from practice.rendering import lang

from exams.core.kernel_refs import kernel_refs, kernel_refs_in_text

from .catalogue import DbCatalogue
from .template_messages import too_deep_text


def known_ids(kind: PickKind, course) -> list[str]:
    """The ids the picker accepts: every question family, or the kernel problems the course's
    templates may use (its own with a validated version in use, published or not, and the bank's
    published ones, as the template check accepts them)."""
    if kind is PickKind.FAMILY:
        from practice.core.questions import FAMILIES

        return list(FAMILIES)
    return [i.slug for i in DbCatalogue(course).matching(None, None)]


def bank_slugs(course) -> set[str]:
    """The slugs of the shipped bank's kernel problems this course's templates may use (public ones)."""
    from problems.models import Problem

    usable = {i.slug for i in DbCatalogue(course).matching(None, None)}
    return set(Problem.objects.filter(course__isnull=True, slug__in=usable).values_list("slug", flat=True))


def public_kernels(template, course) -> list[str]:
    """The shipped bank's problems that a template (its text, or its data) would draw, named or matched
    by a topic/tag pool, in its order: public problems, which students can practise with full feedback
    before and during the exam (only a course's own problem is kept secret: exams.reservations)."""
    refs = kernel_refs_in_text(template) if isinstance(template, str) else kernel_refs(template)
    if not refs:
        return []
    bank, catalogue, out = bank_slugs(course), DbCatalogue(course), []
    for ref in refs:
        slugs = [ref.slug] if ref.slug else [i.slug for i in catalogue.matching(ref.topic, ref.tag)]
        out += [s for s in slugs if s in bank and s not in out]
    return out


def bank_warning(slugs: list[str]) -> str:
    """Why a template that draws the bank's problems `slugs` does not keep them secret, in the reader's language."""
    return _("This template uses problems of the shipped bank (%(slugs)s). They are public: students can practise "
             "them with full feedback before and during the exam. Use a course problem to keep a problem secret: "
             "an exam hides its course's problems from students until every student's window has closed.") % {
        "slugs": ", ".join(slugs)}


def zone_options(text: str) -> list[dict]:
    """The zone <select>'s options for a template text: [{"index": 0, "label": "1. Occupancy"}, ...]."""
    return [{"index": i, "label": f"{i + 1}. {t}" if t else default_zone_title(i + 1)[lang()]}
            for i, t in enumerate(zone_titles(text, lang()))]


def used_marks(text: str) -> dict[str, dict[str, dict[str, str]]]:
    """What the template text has already, for the picker's lists to mark, in the reader's language:
    {"family": {id: {"where": "zone 1, difficulty 2", "label": "in the template: zone 1, difficulty 2"}},
    "kernel": {slug: {"where": "zone 2", "label": ...}}}. Adding one again is refused where a student
    would get it twice (add_pool_item's ALREADY_THERE)."""
    places: dict[tuple[str, str], list[str]] = {}
    for u in used_items(text):
        if u.difficulty is None:
            where = _("zone %(n)s") % {"n": u.zone + 1}
        else:
            lo, hi = u.difficulty
            level = str(lo) if lo == hi else f"{lo}–{hi}"
            where = _("zone %(n)s, difficulty %(level)s") % {"n": u.zone + 1, "level": level}
        places.setdefault((str(u.kind), u.id), []).append(where)
    marks: dict[str, dict] = {str(PickKind.FAMILY): {}, str(PickKind.KERNEL): {}}
    for (kind, item_id), wheres in places.items():
        where = "; ".join(wheres)
        marks[kind][item_id] = {"where": where, "label": _("in the template: %(where)s") % {"where": where}}
    return marks


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
    title = ((added.zones[added.zone] if added.zone < len(added.zones) else "")
             or default_zone_title(added.zone + 1)[lang()])
    said = _("Added %(id)s to the pool of zone %(n)s (%(zone)s), line %(line)s. Not saved yet: press Check and save.") % {
        "id": item_id, "n": added.zone + 1, "zone": title, "line": added.line}
    if added.rewritten:
        said += " " + _("The template was rewritten in plain YAML to add it, so its comments were dropped.")
    if kind is PickKind.KERNEL and item_id in bank_slugs(course):
        said += " " + _("“%(id)s” is a problem of the shipped bank, which is public: students can practise it with "
                        "full feedback before and during the exam. Use a course problem to keep it secret.") % {
            "id": item_id}
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
    if exc.problem is EditProblem.ALREADY_THERE:
        if p["kind"] == PickKind.FAMILY:
            text = _("The question family “%(id)s” is already in zone %(zone)s of the template at this difficulty: "
                     "a student could get it twice.") % p
        else:
            text = _("The kernel problem “%(id)s” is already in zone %(zone)s of the template: a student would get it "
                     "twice.") % p
        return text + " " + _("Nothing was added.")
    if exc.problem is EditProblem.NO_SUCH_ZONE:
        return _("The template has %(zones)s zones, not %(zone)s: choose a zone from the list. Nothing was added.") % p
    if exc.problem is EditProblem.TOO_DEEP:
        return too_deep_text(p["depth"]) + " " + _("Nothing was added.")
    return _("The template must be a mapping with a list of zones to add an item to it. Nothing was added.")
