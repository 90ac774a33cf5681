"""Template helpers shared by every page: verdict badges, labels and small formatters."""
from django import template
from django.utils.translation import gettext_lazy as _

from exams.core.points import format_points, points_plural

register = template.Library()

# A label per verdict, translated; badge colours come from `verdict-<name>` classes in app.css.
VERDICT_LABELS = {
    "ACCEPTED": _("Accepted"),
    "WRONG_ANSWER": _("Wrong answer"),
    "COMPILE_ERROR": _("Compile error"),
    "RUNTIME_ERROR": _("Runtime error"),
    "TIME_LIMIT": _("Time limit"),
    "DEADLOCK": _("Deadlock"),
    "SYNC_ERROR": _("Sync error"),
    "MEMORY_ERROR": _("Memory error"),
    "INTERNAL_ERROR": _("Not graded (platform error)"),
}

STATUS_LABELS = {
    "QUEUED": _("Queued"),
    "COMPILING": _("Compiling"),
    "RUNNING": _("Running"),
    "CHECKING": _("Checking"),
    "RETRYING": _("Not graded, retrying"),
    "GRADED": _("Graded"),
}

DIAGNOSTIC_LABELS = {
    "divergent_barrier": _("Divergent barrier"),
    "warp_mask": _("Warp mask mismatch"),
    "race": _("Data race"),
    "deadlock": _("Deadlock"),
    "out_of_bounds": _("Out of bounds"),
    "misaligned": _("Misaligned access"),
    "timeout": _("Timeout"),
    "launch_error": _("Launch error"),
    "cuda_error": _("CUDA error"),
    "stack_overflow": _("Stack overflow"),
    "uninitialized": _("Uninitialized read"),
    "note": _("Note"),
}

PROBLEM_STATUS_LABELS = {"solved": _("Solved"), "tried": _("Tried"), "new": _("New")}


@register.filter
def verdict_label(verdict):
    return VERDICT_LABELS.get(str(verdict), verdict)


@register.filter
def verdict_class(verdict):
    """CSS class of a verdict badge, e.g. 'verdict-wrong-answer'."""
    return "verdict-" + str(verdict or "pending").lower().replace("_", "-")


@register.filter
def status_label(status):
    return STATUS_LABELS.get(str(status), status)


@register.filter
def diagnostic_label(kind):
    return DIAGNOSTIC_LABELS.get(str(kind), kind)


@register.filter
def topic_label(topic):
    """A topic's name in the active language (problems.core.topics.TOPIC_NAMES: every Topic has one
    in English and Korean). A key that is not a Topic is written as words ("shared_memory" ->
    "Shared memory"), translated where the catalogue knows them."""
    from django.utils.translation import get_language, gettext

    from problems.core.topics import humanize, topic_name as name_of

    name = name_of(str(topic), "ko" if (get_language() or "en").startswith("ko") else "en")
    return name if name is not None else gettext(humanize(str(topic)))


@register.filter
def inline_markdown(text):
    """A question family's inline Markdown (a choice's label) as safe HTML, as its prompt and worked
    solution are rendered (practice/core/inline.py). Only for the families' own text, never for what a
    student typed."""
    from practice.rendering import inline_html

    return inline_html(str(text if text is not None else ""))


@register.filter
def answer_html(field, which="expected"):
    """A question field's key (`which` "expected") or given answer ("given") as a page shows it: a
    choice's label as the family wrote it (code in <code>, else inline Markdown), any other value as
    plain text (a typed answer is never read as Markdown). `field` is a field row with its kind and
    choices ({"label", "code"})."""
    from django.utils.html import format_html

    value = str(field.get(which) or "")
    if field.get("kind") != "choice":
        return value
    choice = next((c for c in field.get("choices", []) if c.get("label") == value), None)
    if choice is not None and choice.get("code"):
        return format_html("<code>{}</code>", value)
    return inline_markdown(value)


@register.filter
def problem_status_label(status):
    return PROBLEM_STATUS_LABELS.get(str(status), status)


@register.filter
def dims(value):
    """(x, y, z) -> 'x,y,z' (or '' for None): a thread's or block's coordinates written as the judge's
    messages write them (the emulator's runtime and compute-sanitizer print 'thread (1,0,0)')."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


@register.filter
def params(value):
    """{'n': 1025, 'm': 3} -> 'n = 1025, m = 3'."""
    if not value:
        return ""
    return ", ".join(f"{k} = {v}" for k, v in dict(value).items())


@register.filter
def as_percent(value):
    """0.833 -> '83.3 %'; a value above 1 is taken to be a percentage already."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return ""
    if number <= 1:
        number *= 100
    return f"{number:.1f} %".replace(".0 %", " %")


@register.filter
def plural_count(value) -> int:
    """The whole number that picks the plural form for an amount of points, for
    `{% blocktranslate count %}` (gettext wants an integer), from the amount as the `points` filter
    writes it: 1 -> 1 ("1 point"), 2.0 -> 2, and any fraction -> 2, since English says "0.5 points"
    and "1.5 points" (Korean has one form). See exams.core.points.points_plural."""
    return points_plural(value)


@register.filter
def points(value) -> str:
    """An amount of points with at most two decimals and no trailing zeros: 2.5 -> "2.5", 3.0 -> "3",
    0.333333 -> "0.33" ("" for None). See exams.core.points.format_points."""
    return format_points(value)


@register.filter
def milliseconds(seconds):
    try:
        return f"{float(seconds) * 1000:.1f} ms"
    except (TypeError, ValueError):
        return ""


@register.filter
def difficulty_stars(level):
    try:
        level = int(level)
    except (TypeError, ValueError):
        return ""
    return "●" * level + "○" * max(0, 5 - level)


@register.simple_tag
def judge_setting_up() -> bool:
    """Whether a worker is still setting up the judge (grader.live.setting_up): `{% judge_setting_up as x %}`."""
    from grader import live

    return live.setting_up()


@register.filter
def topic_name(topic):
    """The same as topic_label (one name per topic on every page)."""
    return topic_label(topic)


# ---- dates and times: one format, the zone named (accounts/core/times.py) ----------------------------


@register.filter(expects_localtime=False)
def when(value):
    """A datetime as every page writes it, in the reader's zone with the zone named:
    "2026-12-05 20:08 KST" (accounts/core/times.py; no other precision: one format everywhere).
    "" for None; a value that is not a datetime is shown as it is."""
    from datetime import datetime

    from django.utils import timezone

    from accounts.timezones import when as when_text

    if value in (None, ""):
        return ""
    if not isinstance(value, datetime):
        return value
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    return when_text(value)


@register.filter
def student_id(user) -> str:
    """The student ID (학번) the user gave (accounts.profiles), or "". Load lists of users with
    select_related("profile") (or "user__profile")."""
    from accounts.profiles import student_id_of

    return student_id_of(user) if user is not None else ""


@register.simple_tag
def time_zone_attrs():
    """The <html> element's data-tz and data-tz-abbrs attributes: the zone the page's times are in and
    its abbreviations by UTC offset, so static/js/timezone.js writes times as the `when` filter does."""
    import json

    from django.utils.html import format_html

    from accounts.timezones import zone_hints

    hints = zone_hints()
    return format_html(' data-tz="{}" data-tz-abbrs="{}"', hints["zone"],
                       json.dumps({str(k): v for k, v in hints["abbreviations"].items()}, separators=(",", ":")))


@register.simple_tag
def time_zone_note():
    """The sentence a form that takes times shows: which zone they are read in (the reader's browser's,
    or the site's default), e.g. "Times are in the Asia/Seoul time zone (KST)."."""
    from django.utils import timezone
    from django.utils.html import format_html
    from django.utils.translation import gettext

    from accounts.core.times import zone_abbreviation
    from accounts.timezones import reader_zone_is_the_sites

    name = timezone.get_current_timezone_name()
    abbreviation = zone_abbreviation(timezone.localtime())
    if reader_zone_is_the_sites():
        text = gettext("Times are in the %(zone)s time zone (%(abbr)s), the site's.")
    else:
        text = gettext("Times are in the %(zone)s time zone (%(abbr)s), your browser's.")
    return format_html('<p class="muted small time-zone-note" id="time-zone">{}</p>',
                       text % {"zone": name, "abbr": abbreviation})


# A message a view means for one section of the page it redirects to (".../manage/#invites") carries
# the extra tag "at-<the section's id>": the jump to the section scrolls the page's top, and the
# messages there, out of view, so the section shows it under its heading instead. A page names the
# sections that show their messages in its context's `message_sections`; a message for a section the
# page does not name is shown at the top, as any other.
SECTION_TAG_PREFIX = "at-"


def _section_of(message) -> str:
    return next((t[len(SECTION_TAG_PREFIX):] for t in (message.extra_tags or "").split()
                 if t.startswith(SECTION_TAG_PREFIX)), "")


def _alerts(messages) -> str:
    from django.utils.html import format_html, format_html_join

    return format_html_join("", '<div class="alert alert-{}" role="status">{}</div>',
                            ((m.level_tag or "info", m.message) for m in messages))


@register.simple_tag(takes_context=True)
def page_messages(context):
    """The messages at the top of the page (base.html): all but those a section of this page shows."""
    from django.utils.html import format_html

    sections = set(context.get("message_sections") or ())
    top = [m for m in context.get("messages") or () if _section_of(m) not in sections]
    return format_html('<div class="container messages">{}</div>', _alerts(top)) if top else ""


@register.simple_tag(takes_context=True)
def section_messages(context, section: str):
    """The messages meant for `section` (extra tag "at-<section>"), where the page names the section in
    `message_sections`; put under the section's heading."""
    from django.utils.html import format_html

    if section not in (context.get("message_sections") or ()):
        return ""
    mine = [m for m in context.get("messages") or () if _section_of(m) == section]
    return format_html('<div class="section-messages">{}</div>', _alerts(mine)) if mine else ""
