"""Template helpers shared by every page: verdict badges, labels and small formatters."""
from django import template
from django.utils.translation import gettext_lazy as _

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

TOPIC_LABELS = {
    "occupancy": _("Occupancy"),
    "indexing": _("Thread indexing"),
    "synchronization": _("Synchronization"),
    "memory": _("Memory"),
    "reduction": _("Reductions and scans"),
    "atomics": _("Atomics"),
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
    return TOPIC_LABELS.get(str(topic), str(topic).title())


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
    """A topic's name as the practice pages write it (problems.core.topics.TOPIC_NAMES), in the
    active language; the key itself for a topic that no longer exists."""
    from django.utils.translation import get_language

    from problems.core.topics import TOPIC_NAMES, Topic

    try:
        names = TOPIC_NAMES[Topic(str(topic))]
    except ValueError:
        return str(topic)
    return names["ko" if (get_language() or "en").startswith("ko") else "en"]
