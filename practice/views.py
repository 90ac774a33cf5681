"""Practice pages (generated questions) and the occupancy calculator. Thin: parse, call, render."""
from __future__ import annotations


from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from homework.services import set_item_of
from problems.core.gpus import CAPABILITIES, gpus_for
from problems.core.occupancy import LIMITER_NAMES, OccupancyResult, occupancy, series

from . import actions as practice
from .core.answers import field_correct
from .core.questions import DIFFICULTIES, TOPIC_NAMES, Topic, family
from .labels import DIFFICULTY_LABELS
from .models import QuestionVariant
from .progress import progress, streak
from .rendering import blocks_html, lang



def topic_choices() -> list[dict]:
    la = lang()
    return [{"key": str(t), "label": TOPIC_NAMES[t][la]} for t in Topic] + [{"key": practice.MIXED, "label": _("Mixed")}]


# ---- practice ---------------------------------------------------------------------------------------


def _home_context(request, **extra) -> dict:
    la = lang()
    rows = progress(request.user)
    for row in rows:
        row.label = TOPIC_NAMES[Topic(row.topic)][la]
    extra.setdefault("streak", streak(request.user))
    extra.setdefault("has_practised", any(row.questions for row in rows))
    recent = (QuestionVariant.objects.filter(user=request.user).order_by("-created_at")
              .prefetch_related("attempts")[:8])
    return {
        "topics": topic_choices(), "difficulties": [(d, DIFFICULTY_LABELS[d]) for d in DIFFICULTIES],
        "progress": rows, "recent": [_variant_row(v, la) for v in recent],
        "chosen_topic": request.session.get("practice_topic", practice.MIXED),
        "chosen_difficulty": request.session.get("practice_difficulty", 2), **extra,
    }


def _variant_row(v: QuestionVariant, la: str) -> dict:
    fam = family(v.family)
    attempts = list(v.attempts.all())
    return {"pk": v.pk, "title": fam.title[la], "topic": TOPIC_NAMES[fam.topic][la], "difficulty": v.difficulty,
            "solved": any(a.counts_as_solved for a in attempts), "attempts": len(attempts)}


@login_required
def home(request):
    """Pick a topic (or mixed) and a difficulty; the student's progress per topic and recent questions."""
    return render(request, "practice/home.html", _home_context(request))


@login_required
@require_POST
def start(request):
    """Create the next question for the chosen topic and difficulty, then show it."""
    topic = request.POST.get("topic", practice.MIXED)
    try:
        difficulty = int(request.POST.get("difficulty", "2"))
        variant = practice.next_variant(request.user, topic, difficulty)
    except (ValueError, practice.PracticeError):
        context = _home_context(request, error=_("Choose a topic and a difficulty from the lists."))
        return render(request, "practice/home.html", context, status=400)
    request.session["practice_topic"], request.session["practice_difficulty"] = topic, difficulty
    return redirect("practice:question", pk=variant.pk)


@login_required
@require_http_methods(["GET", "POST"])
def question(request, pk: int):
    """A question: GET shows it with the last graded attempt (right or wrong per field); the answer key
    and the worked solution only once it is shown (a right answer, PRACTICE_TRIES wrong ones, or
    "Show the answer"). POST grades an answer. An unreadable answer is shown back with its error and
    costs no attempt."""
    variant = get_object_or_404(QuestionVariant, pk=pk)
    if variant.user_id != request.user.pk:
        raise Http404("No such question.")
    la = lang()
    fields = practice.answer_fields(variant)
    typed = {f.name: "" for f in fields}
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        typed = {f.name: request.POST.get(f"answer-{f.name}", "") for f in fields}
        outcome = practice.submit_answer(variant, typed)
        if outcome.graded:
            return redirect(f"{request.path}#result")
        errors = {e.field: e.text(la) for e in outcome.errors}
        status = 400
    q = practice.question_for(variant)
    rendered = q.render(la)
    attempts = list(variant.attempts.all())
    last = attempts[0] if attempts else None
    key_visible = practice.key_shown(variant)
    key = variant.answer["values"]
    field_rows = []
    for f, shown in zip(fields, rendered["fields"]):
        row = dict(shown)
        row["value"] = typed.get(f.name, "")
        row["error"] = errors.get(f.name)
        # The key column is filled whenever the key is shown, with or without an answer given
        # ("Show the answer" before any try left it blank: the tester's shot 39).
        row["expected"] = f.format_value(key[f.name], la) if key_visible else ""
        if last is not None:
            row["given"] = f.format_value(last.response.get(f.name), la) if f.name in last.response else ""
            row["right"] = f.name in last.response and field_correct(f, key[f.name], last.response[f.name])
        field_rows.append(row)
    topic = request.session.get("practice_topic", practice.MIXED)
    return render(request, "practice/question.html", {
        "origin": set_item_of(variant),  # a question opened from a problem set links back to it
        "variant": variant, "q": rendered, "prompt": blocks_html(rendered["prompt"]), "fields": field_rows,
        "errors": errors, "last": last, "attempts": attempts, "solved": any(a.counts_as_solved for a in attempts),
        "key_shown": key_visible, "tries_left": practice.tries_left(variant),
        "shown_because": practice.why_key_shown(variant), "max_tries": practice.PRACTICE_TRIES,
        "solution": blocks_html(q.render_solution(la)) if key_visible else None,
        "topic_label": TOPIC_NAMES[Topic(rendered["topic"])][la], "next_topic": topic,
        "difficulty_label": DIFFICULTY_LABELS.get(variant.difficulty, variant.difficulty),
    }, status=status)


@login_required
@require_POST
def reveal(request, pk: int):
    """"Show the answer": the student gives up on the question; its key and worked solution are shown
    from now on, and a right answer typed after that does not count as solved."""
    variant = get_object_or_404(QuestionVariant, pk=pk)
    if variant.user_id != request.user.pk:
        raise Http404("No such question.")
    practice.reveal(variant)
    return redirect(reverse("practice:question", args=[variant.pk]) + "#result")


@login_required
def progress_page(request):
    la = lang()
    rows = progress(request.user)
    for row in rows:
        row.label = TOPIC_NAMES[Topic(row.topic)][la]
        for fam in row.families:
            fam["label"] = fam["title"][la]
        for level in row.by_difficulty:
            level["label"] = DIFFICULTY_LABELS[level["difficulty"]]
    return render(request, "practice/progress.html", {"progress": rows, "streak": streak(request.user),
                                                      "has_practised": any(row.questions for row in rows)})


# ---- occupancy calculator ----------------------------------------------------------------------------


def cc_choices() -> list[tuple[str, str]]:
    out = []
    for cc, cap in CAPABILITIES.items():
        # Board variants of one chip (SXM, PCIe) are one name, so the label fits the select at 1366 px.
        short = (g.name.replace("NVIDIA ", "").replace("GeForce ", "").replace(" SXM", "").replace(" PCIe", "")
                 for g in gpus_for(cc))
        names = ", ".join(dict.fromkeys(short))
        out.append((cc, f"{cc} · {cap.architecture} — {names}"))
    return out


class CalculatorForm(forms.Form):
    """The calculator's inputs, all in the query string so a result can be bookmarked and linked to."""

    cc = forms.ChoiceField(label=_("Compute capability (GPU)"), choices=cc_choices, initial="9.0")
    threads = forms.IntegerField(label=_("Threads per block"), min_value=1, max_value=1024, initial=256)
    regs = forms.IntegerField(label=_("Registers per thread"), min_value=0, max_value=255, initial=32)
    smem = forms.IntegerField(label=_("Shared memory per block (bytes)"), min_value=0, max_value=232448, initial=0,
                              help_text=_("Static + dynamic. Above 48 KiB the kernel must opt in with "
                                          "cudaFuncAttributeMaxDynamicSharedMemorySize (assumed here)."))

    def clean_cc(self):
        return self.cleaned_data["cc"] or "9.0"


def calculator_course(request):
    """The course the calculator was opened from (?course=<code>), if the user is a member of it; else None."""
    code = request.GET.get("course", "")
    if not code or not request.user.is_authenticated:
        return None
    from courses import access
    from courses.models import Course

    course = Course.objects.filter(code=code).first()
    return course if course is not None and access.course_role(request.user, course) is not None else None


def calculator(request):
    """The occupancy of (cc, threads, regs, smem) with the working and three charts. Works logged out.
    Opened from a course (?course=<code>, for its members), the course's target GPU is the default cc."""
    course = calculator_course(request)
    default_cc = course.target_cc if course is not None else "9.0"
    data = {k: request.GET.get(k) for k in ("cc", "threads", "regs", "smem")}
    if not any(data.values()):
        data = {k: CalculatorForm.base_fields[k].initial for k in data}
        data["cc"] = default_cc
    if data.get("cc") in ("", None):
        data["cc"] = default_cc
    form = CalculatorForm(data)
    context: dict = {"form": form, "course": course}
    if form.is_valid():
        c = form.cleaned_data
        cap = CAPABILITIES[c["cc"]]
        # More shared memory than the cc allows is not a form error: the working explains why nothing fits.
        result = occupancy(c["cc"], c["threads"], c["regs"], c["smem"])
        context.update(_calculator_context(result, c, cap))
    context["inputs_key"] = "|".join(str(data.get(k) or "") for k in ("cc", "threads", "regs", "smem"))
    # An htmx update while the student types shows the errors in place (htmx swaps only 2xx answers).
    status = 200 if form.is_valid() or request.htmx else 400
    return render(request, "practice/calculator.html", context, status=status)


def _calculator_context(r: OccupancyResult, c: dict, cap) -> dict:
    la = lang()
    limiter_keys = {str(x) for x in r.limiters}
    steps = [{"text": s.text(la), "formula": "" if s.formula.isdigit() else s.formula,
              "binding": s.resource is not None and str(s.resource) in limiter_keys and r.fits,
              "resource": str(s.resource) if s.resource else ""} for s in r.steps]
    limits = [{"key": str(k), "label": LIMITER_NAMES[k][la], "value": v, "binding": str(k) in limiter_keys}
              for k, v in r.limits.items()]
    gpus = [{"name": g.name, "sms": g.sm_count, "blocks": r.blocks_per_sm * g.sm_count} for g in gpus_for(r.cc)]
    charts = [
        _chart(series(r.cc, c["threads"], c["regs"], c["smem"], "threads"), c["threads"], _("Threads per block"), ""),
        _chart(series(r.cc, c["threads"], c["regs"], c["smem"], "regs"), c["regs"], _("Registers per thread"), ""),
        _chart(series(r.cc, c["threads"], c["regs"], c["smem"], "smem"), c["smem"], _("Shared memory per block"), "B"),
    ]
    return {"result": r, "limiter_label": LIMITER_NAMES[r.limiter][la], "steps": steps, "limits": limits,
            "gpus": gpus, "charts": charts, "cap": cap, "occupancy_pct": f"{r.occupancy * 100:.1f}"}


# Chart geometry (SVG user units).
W, H, LEFT, RIGHT, TOP, BOTTOM = 560, 210, 44, 14, 14, 36


def _chart(points: list[tuple[int, float]], current: int, title, unit: str) -> dict:
    """A step chart of occupancy against one input, with the current point and the cliffs marked."""
    xs = [x for x, _ in points]
    x0, x1 = min(xs), max(xs)
    span = max(x1 - x0, 1)

    def px(x: float) -> float:
        return round(LEFT + (min(max(x, x0), x1) - x0) / span * (W - LEFT - RIGHT), 1)

    def py(y: float) -> float:
        return round(TOP + (1 - y) * (H - TOP - BOTTOM), 1)

    path = [f"M{px(points[0][0])},{py(points[0][1])}"]
    cliffs = []
    for (xa, ya), (xb, yb) in zip(points, points[1:]):
        path.append(f"H{px(xb)}")
        if yb != ya:
            path.append(f"V{py(yb)}")
        if yb < ya:
            cliffs.append({"x": px(xb), "value": xb, "from_pct": round(ya * 100), "to_pct": round(yb * 100)})
    cur_y = dict(points).get(current)
    if cur_y is None:  # a value between sample points: the step to its left holds
        left = [y for x, y in points if x <= current]
        cur_y = left[-1] if left else points[0][1]
    nxt = next((cl for cl in cliffs if cl["value"] > current), None)
    ticks_x = sorted({x0, x1, *[x0 + round(span * k / 4) for k in (1, 2, 3)]})
    label = (lambda v: f"{v / 1024:.0f} KiB") if unit == "B" else str
    return {
        "title": title, "unit": unit, "path": "".join(path), "cliffs": cliffs, "next_cliff": nxt,
        "current": {"x": px(current), "y": py(cur_y), "value": current, "pct": f"{cur_y * 100:.1f}"},
        "ticks_x": [{"x": px(t), "label": label(t)} for t in ticks_x],
        "ticks_y": [{"y": py(v / 100), "label": f"{v}%"} for v in (0, 25, 50, 75, 100)],
        "width": W, "height": H, "plot_left": LEFT, "plot_right": W - RIGHT, "plot_top": TOP, "plot_bottom": H - BOTTOM,
    }
