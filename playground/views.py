"""Playground pages: the form (new, or opened from a submission or a run), a run (live), sharing."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_POST

from accounts.roles import is_instructor
from grader.core.errors import BadRequestError, http_status_for
from grader.core.results import diagnostic_lines
from grader.serializers import localized
from grader.views import calculator_url

from . import actions
from .core.errors import PlaygroundSpecError
from .core.signature import E_MISMATCH, kernel_parameters, rows_for
from .core.spec import C_TYPES, MAX_ARGUMENTS, ArgKind, Init
from .forms import example_form, form_from_post, form_from_run, form_from_submission
from .models import PlaygroundRun

RECENT_RUNS = 10
# The badge colour of each way a run ends (the verdicts' colours, though nothing here is a verdict).
ENDING_CLASSES = {"ok": "verdict-accepted", "compile_error": "verdict-compile-error", "fault": "verdict-memory-error",
                  "deadlock": "verdict-deadlock", "timeout": "verdict-time-limit", "launch_error": "verdict-runtime-error"}


def user_message(exc: BadRequestError) -> str:
    """The error in the reader's language (grader.api.error_text: a PlaygroundSpecError's message rendered
    with gettext; any other error's text as it is)."""
    from grader.api import error_text

    return error_text(exc)


def visible_run(request, key: str, owner_only: bool = False) -> PlaygroundRun:
    """The run if the user owns it, or (unless `owner_only`) it is shared. Else 404, as for a missing key."""
    run = get_object_or_404(PlaygroundRun.objects.select_related("user"), key=key)
    if run.user_id != request.user.pk and (owner_only or not run.shared):
        raise Http404("No such run.")
    return run


def _choices() -> dict:
    return {"dtypes": list(C_TYPES), "kinds": [(k.value, k) for k in ArgKind], "inits": [i.value for i in Init]}


def _page(request, form: dict, error: str = "", status: int = 200, run: PlaygroundRun | None = None):
    rows = form["args"] + [{} for _ in range(MAX_ARGUMENTS - len(form["args"]))]
    recent = PlaygroundRun.objects.filter(user=request.user).only("key", "kernel", "state", "created_at")[:RECENT_RUNS]
    context = {"form": form, "rows": rows[:MAX_ARGUMENTS], "error": error, "recent": recent, **_choices()}
    if run is not None:
        context.update(run_context(run, request.user), is_owner=run.user_id == request.user.pk)
    return render(request, "playground/page.html", context, status=status)


@login_required
def playground(request):
    """GET: the form (an example, or ?from=<submission id>, or ?run=<key> to edit a copy of a run).
    POST: run it; a refused request shows the form again with the reason and everything kept."""
    if request.method == "POST":
        form = form_from_post(request.POST)
        form["submission"] = _own_submission(request.user, form["submission_id"])
        try:
            run = actions.create_run(request.user, form["source"], form["kernel"], form["args"], form["grid"],
                                     form["block"], form["shared_bytes"], from_submission=form.get("submission"))
        except BadRequestError as exc:
            if isinstance(exc, PlaygroundSpecError) and exc.message.code == E_MISMATCH.code:
                # The signature changed: the rows follow it.
                params = kernel_parameters(form["source"], exc.message.params["kernel"])
                form["args"], form["rows_rederived"] = rows_for(params, form["args"]), True
            return _page(request, form, user_message(exc), status=http_status_for(exc))
        return redirect(run)
    if request.GET.get("from"):
        from grader.models import Submission
        from grader.access import visible_to

        try:
            submission = Submission.objects.select_related("problem_version__problem").get(pk=int(request.GET["from"]))
        except (ValueError, Submission.DoesNotExist):
            raise Http404("No such submission.") from None
        if not visible_to(request.user, submission):
            raise Http404("No such submission.")
        return _page(request, form_from_submission(submission, full=is_instructor(request.user)))
    if request.GET.get("run"):
        return _page(request, form_from_run(visible_run(request, request.GET["run"])))
    return _page(request, example_form(get_language()))


def _own_submission(user, submission_id: str):
    """The user's submission `submission_id` that the form was opened from, or None."""
    from grader.models import Submission

    return Submission.objects.filter(pk=int(submission_id), user=user).first() if submission_id.isdigit() else None


def run_context(run: PlaygroundRun, user) -> dict:
    """What the run's live part shows: the result with every message in the reader's language, the
    source listing with the diagnostics' lines marked."""
    result = run.playground_result()
    data = result.to_dict() if result else None
    source_lines = run.source.splitlines()

    def quote(line):
        return source_lines[line - 1] if line and 1 <= line <= len(source_lines) else None

    diagnostics, compile_messages = [], []
    if data:
        diagnostics = [localized(d, gettext) for d in data["diagnostics"]]
        for d in diagnostics:
            d["source_line"] = quote(d.get("line"))
            d["other_lines"] = diagnostic_lines(d)[1:] if d.get("line") else diagnostic_lines(d)
        if data["compile"] and not data["compile"]["ok"]:
            compile_messages = [localized(m, gettext) for m in data["compile"]["messages"]
                                if m["severity"] in ("error", "warning")]
            for m in compile_messages:
                m["source_line"] = quote(m["line"])
    marked = {m["line"] for m in compile_messages if m["line"]} | {n for d in diagnostics for n in diagnostic_lines(d)}
    resources = data["resources"] if data else None
    ending = data["ending"] if data else ""
    return {
        # The colour of the ending: a clean finish is green, a finish with findings is a sync error's.
        "ending_class": "verdict-sync-error" if ending == "ok" and diagnostics else ENDING_CLASSES.get(ending, ""),
        "run": run,
        "result": data,
        "diagnostics": diagnostics,
        "compile_messages": compile_messages,
        "compile_log": data["compile"]["log"] if data and data["compile"] and not data["compile"]["ok"] else "",
        "listing": [{"number": i, "text": t, "marked": i in marked} for i, t in enumerate(source_lines, start=1)],
        "has_marks": bool(marked),
        "resources": resources,
        "occupancy": (resources or {}).get("occupancy") or None,
        "calculator_url": calculator_url(resources),
        "writemap_svg": _writemap_svg(data),
    }


def _writemap_svg(data: dict | None) -> list:
    """[(output name, SVG markup)] of the run's write maps, drawn in the reader's language; [] when
    none was recorded. A stored map that does not decode is skipped (the page shows without it)."""
    if not data or not data.get("writemaps"):
        return []
    try:
        from grader.core.writemap.store import render_stored
    except ImportError:
        return []
    found = []
    for stored in data["writemaps"]:
        try:
            found.append((stored.get("output", ""), mark_safe(render_stored(stored, gettext))))  # built escaped
        except (ValueError, KeyError, TypeError):
            continue
    return found


@login_required
def run_detail(request, key):
    """A run: its state while queued or running (live), then its result; the form to run it again
    (the owner) or to open a copy (anyone it is shared with: read-only)."""
    run = visible_run(request, key)
    return _page(request, form_from_run(run), run=run)


def live_etag(request, key: str) -> str | None:
    """The live partial's ETag: one small query of what it shows (state, result time, sharing), plus
    the language. None (no validator: the view answers 404) when the run is gone or not visible, so a
    304 never confirms that someone else's run exists."""
    row = PlaygroundRun.objects.filter(key=key).values("pk", "user_id", "shared", "state", "tries",
                                                        "finished_at").first()
    if row is None or (row["user_id"] != request.user.pk and not row["shared"]):
        return None
    finished = row["finished_at"].timestamp() if row["finished_at"] else ""
    return f'"{row["pk"]}-{row["state"]}-{row["tries"]}-{finished}-{get_language()}"'


@login_required
@cache_control(private=True, no_cache=True)
@condition(etag_func=live_etag)
def run_live(request, key):
    """The live part of a run's page, polled by htmx until the run is final (every 2 s while queued,
    every second while it compiles or runs). Each poll is a conditional GET: while nothing shown has
    changed the answer is 304 after one small query."""
    run = visible_run(request, key)
    return render(request, "playground/_live.html", run_context(run, request.user))


@login_required
@require_POST
def run_share(request, key):
    """Share a run by its link (shared=1) or stop sharing; only its owner may (others: 404)."""
    run = visible_run(request, key, owner_only=True)
    actions.set_shared(run, request.POST.get("shared") == "1")
    return redirect(run)

