"""Submission pages: one submission (updating live through htmx), and the list of mine."""
from __future__ import annotations

import time
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.roles import is_instructor

from . import access, live
from .access import exam_work_q, visible_to
from .core.results import diagnostic_lines
from .models import Purpose, Status, Submission
from .runs import run_origin
from .serializers import public_result
from .writemaps import request_writemap, visible_writemaps, writemap_requestable

PAGE_SIZE = 25


def _visible_submission(request, pk: int) -> Submission:
    """The submission if the user may see it (access.visible_to). Else 404."""
    submission = get_object_or_404(Submission.objects.select_related("problem_version__problem__course", "user", "course"),
                                   pk=pk)
    if not visible_to(request.user, submission):
        raise Http404("No such submission.")
    return submission


def calculator_url(resources: dict | None) -> str:
    """The occupancy calculator pre-filled with the kernel's launch and resources ("" when unknown)."""
    if not resources or resources.get("registers") is None:
        return ""
    try:
        base = reverse("practice:calculator")
    except NoReverseMatch:
        return ""
    smem = (resources.get("shared_static_bytes") or 0) + (resources.get("shared_dynamic_bytes") or 0)
    query = {"cc": resources.get("compute_capability") or "", "threads": resources.get("threads_per_block") or "",
             "regs": resources["registers"], "smem": smem}
    return f"{base}?{urlencode(query)}"


def launch_used(submission: Submission) -> dict | None:
    """The launch expressions a submission is graded with ({"block", "grid", "shared_bytes"}):
    the problem's, or for a student-chosen launch the form's fields, else its `// launch:` line,
    else the problem's (grader.core.judge.launch_expressions). None when the package cannot be read."""
    from grader.core.judge import LaunchChoice, launch_expressions

    try:
        package = submission.problem_version.package()
    except Exception:  # a version that no longer parses: the page still shows everything else
        return None
    choice = LaunchChoice(submission.launch_block, submission.launch_grid, submission.launch_shared_bytes)
    block, grid, shared = launch_expressions(package, submission.source, choice)
    return {"block": block, "grid": grid, "shared_bytes": "" if str(shared).strip() in ("", "0") else shared}


# What each check of a package looks for, as the live card names it while the check pass runs.
CHECK_FINDINGS = {"racecheck": _("races"), "synccheck": _("divergent barriers"), "memcheck": _("out-of-bounds accesses")}


def _check_pass(submission: Submission) -> dict:
    """The check pass's test and what it looks for: 'races and divergent barriers', 'small'."""
    package = submission.problem_version.package()
    found = [str(CHECK_FINDINGS[str(c)]) for c in package.checks if str(c) in CHECK_FINDINGS]
    if not found or not package.tests:
        return {}
    what = found[0] if len(found) == 1 else gettext("%(most)s and %(last)s") % {"most": ", ".join(found[:-1]), "last": found[-1]}
    return {"check_test": package.smallest_test().name, "check_what": what}


def submission_context(submission: Submission, user) -> dict:
    """Everything the submission page and its live partial show, with hidden data already removed."""
    full = is_instructor(user)
    judged = submission.judge_result()
    result = public_result(judged, full, translate=gettext)  # in the reader's language
    source_lines = submission.source.splitlines()

    def quote(line):
        if line and 1 <= line <= len(source_lines):
            return source_lines[line - 1]
        return None

    compile_messages = []
    if result["compile"] and not result["compile"]["ok"]:
        compile_messages = [m for m in result["compile"]["messages"] if m["severity"] in ("error", "warning")]
    for m in compile_messages:
        m["source_line"] = quote(m["line"])
    diagnostics = result["diagnostics"]
    for d in diagnostics:
        d["source_line"] = quote(d.get("line"))
    for d in diagnostics:  # a race or a deadlock names two lines (or more): each is linked and highlighted
        d["other_lines"] = diagnostic_lines(d)[1:] if d.get("line") else diagnostic_lines(d)
    marked = {m["line"] for m in compile_messages if m["line"]} | {n for d in diagnostics for n in diagnostic_lines(d)}
    listing = [{"number": i, "text": text, "marked": i in marked} for i, text in enumerate(source_lines, start=1)]

    tests = result["tests"]
    mismatch = next(((t["name"], t["mismatch"]) for t in tests if t.get("mismatch") and (t["sample"] or full)), None)
    printf_logs = [(t["name"], t["output_log"]) for t in tests if t.get("output_log")]
    done, total = submission.progress_done, submission.progress_total
    resources = result["resources"]
    return {
        "submission": submission,
        "problem": submission.problem_version.problem,
        "result": result,
        "tests": tests,
        "passed_count": sum(1 for t in tests if t["verdict"] == "ACCEPTED"),
        # Every test case of the version: after a hang the rest are not run, and count as not passed.
        "tests_total": max(len(tests), submission.progress_total or 0),
        "mismatch": mismatch,
        "writemaps": visible_writemaps(judged, full),
        "writemap_requestable": writemap_requestable(submission),
        "writemap_pending": bool((submission.result or {}).get("writemap_requested")),
        "writemap_unavailable": bool((submission.result or {}).get("writemap_unavailable")),
        "compile_messages": compile_messages,
        "compile_log": result["compile"]["log"] if result["compile"] and not result["compile"]["ok"] else "",
        "diagnostics": diagnostics,
        "listing": listing,
        "has_marks": bool(marked),
        "printf_logs": printf_logs,
        "resources": resources,
        "occupancy": (resources or {}).get("occupancy") or None,
        "calculator_url": calculator_url(resources),
        "progress": {"done": done, "total": total, "current": min(done + 1, total) if total else 0,
                     "percent": int(100 * done / total) if total else 0},
        **(_check_pass(submission) if submission.status == Status.CHECKING else {}),
        "is_final": submission.status == Status.GRADED,
        "poll_s": live_poll_interval(submission),
        "show_full": full,
        "graded_backend": result["backend"] or submission.backend,  # "emulator" | "gpu" ("" before grading)
        "graded_device": result["device"],
        "limits": result.get("limits") or {},  # the time limits it was judged under (budget.RunBudget.report)
    }


FAST_POLL_FOR_S = 20  # a submission younger than this is polled every half second while it is graded


def live_poll_interval(submission, now=None) -> str:
    """How often the live partial is polled, as htmx's `every` wants it ("0.25s", "0.5s", "1s", "2s").

    A poll that finds nothing new is a 304 with no SQL (grader.live), so a young submission is
    polled fast: in its first WARPDRILL_POLL_FAST_START_S seconds (5) every quarter second whatever
    its state, so that a trivial kernel's verdict (graded in about half a second, bench/dev_latency.py)
    shows within a quarter second of being stored, where the first poll of a queued submission came
    only after a second; then every half second while it is graded, until FAST_POLL_FOR_S. Waiting
    in the queue is polled every second, an old grading every second, and a graded one (only while
    its write map is being drawn) every two."""
    from django.conf import settings
    from django.utils import timezone

    if submission.status == Status.GRADED:
        return "2s"
    age = ((now or timezone.now()) - submission.created_at).total_seconds() if submission.created_at else 0
    if age < settings.WARPDRILL_POLL_FAST_START_S:
        return "0.25s"
    if submission.status in (Status.QUEUED, Status.RETRYING):
        return "1s"
    return "0.5s" if age < FAST_POLL_FOR_S else "1s"


def poll_interval_changes_at(submission) -> float | None:
    """When live_poll_interval() will next give another answer without a change of the submission's
    state (Unix time, seconds), or None if it will not. The live partial's ETag carries it, so a
    quarter-second poll of a young submission that is still queued stops earning 304s (which would
    keep its interval) once the submission is old enough to be polled every second."""
    from django.conf import settings

    if submission.status == Status.GRADED or submission.created_at is None:
        return None
    created = submission.created_at.timestamp()
    now = time.time()
    for changes_at in (created + settings.WARPDRILL_POLL_FAST_START_S, created + FAST_POLL_FOR_S):
        if now < changes_at:
            return changes_at
    return None


@login_required
def submission_detail(request, pk):
    """A submission: status while it is graded (live), then verdict, tests, errors and resources."""
    submission = _visible_submission(request, pk)
    # The launch and the owner's actions are in the page's header only, never in the live partial
    # that is polled (its ETag does not vary by user). "Edit and resubmit" opens the editor of
    # whoever is logged in and submits under their account: an instructor reading a student's
    # submission is not offered it.
    is_owner = submission.user_id == request.user.pk
    # A validation run or a rejudge preview's copy is nobody's attempt: its page leads back to its run
    # and says what it is, and "Edit and resubmit" (a new attempt at the problem) is not offered.
    origin = run_origin(submission)
    context = {**submission_context(submission, request.user), "launch_used": launch_used(submission),
               "is_owner": is_owner, "others_submissions": not is_owner or origin is not None,
               "run_origin": origin, **_exam_links(submission, is_owner)}
    return render(request, "grader/submission.html", context)


def _exam_links(submission, is_owner: bool) -> dict:
    """Where the owner of an exam submission goes from its page. A practice submission of the same
    problem would not count for the exam, so "Edit and resubmit" leads back to the exam's question
    while the attempt is open (exam_question), and once it is not, to the exam's page (exam_url).
    The playground, which runs code outside the exam, is not offered while the attempt is open, as
    the exam's own pages do not offer it."""
    if not submission.is_exam_work:
        return {"exam_question": None, "exam_url": None}
    from exams.services import exam_question_of, exam_url_of

    question = exam_question_of(submission) if is_owner else None
    return {"exam_question": question, "exam_url": None if question else exam_url_of(submission)}


def submission_live(request, pk):
    """The live part of the submission page, polled by htmx until it is graded (live_poll_interval:
    every second while queued, every half second for a young grading; it stops at the verdict).

    Each poll is a conditional GET: the browser revalidates its copy (no-cache) with the ETag,
    and while nothing shown has changed the answer is 304 from the shared cache of submission
    states, before the session or the user is read: no SQL (grader.live). The state token is
    taken before the page is read, so a change in between costs one extra full answer at the
    next poll, never a stale one. Anything else is the full view: login, ownership, rendering.
    """
    return live.not_modified(request, "p", pk) or _submission_live(request, pk)


@login_required
def _submission_live(request, pk):
    token = live.current_token(pk)
    submission = _visible_submission(request, pk)
    response = render(request, "partials/submission_live.html", submission_context(submission, request.user))
    return live.with_etag(response, request, "p", pk, token, is_instructor(request.user),
                          poll_interval_changes_at(submission))


@login_required
@require_POST
def submission_writemap(request, pk):
    """Ask for the write map of a graded submission (its smallest sample test), then back to its page."""
    submission = _visible_submission(request, pk)
    if request_writemap(submission.pk):
        messages.info(request, gettext("The write map is being recorded: this page shows it in a few seconds."))
    return redirect(submission.get_absolute_url() + "#writemap")


@login_required
def submission_list(request):
    """My submissions, newest first; instructors may add ?all=1 to see everyone's.

    `others_submissions` (here: everyone's, on the detail page: someone else's) keeps the nav from
    marking "My submissions" as the current page."""
    can_show_all = is_instructor(request.user) or access.managed_course_ids(request.user) != []
    show_all = can_show_all and request.GET.get("all") == "1"
    rows = Submission.objects.select_related("problem_version__problem", "user").defer("source", "result")
    if show_all:
        # Only what they may read (access.may_see as a query): another course's exam work, course
        # problems and validation runs are not theirs to list.
        rows = rows.filter(access.staff_visible_q(request.user))
    else:
        # Exam submissions are listed on the exam's pages, with the feedback the exam allows.
        rows = rows.filter(user=request.user).exclude(exam_work_q())
    # An author's validation runs and rejudge copies are saved under the author's name; they are
    # nobody's attempts, so the list leaves them out unless asked (?runs=1), and labels them then.
    runs = rows.exclude(purpose=Purpose.STUDENT)
    can_show_runs = runs.exists()
    show_runs = can_show_runs and request.GET.get("runs") == "1"
    if not show_runs:
        rows = rows.filter(purpose=Purpose.STUDENT)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    query = "&".join(q for q, on in (("all=1", show_all), ("runs=1", show_runs)) if on)
    return render(request, "grader/list.html", {"page": page, "show_all": show_all,
                                                "can_show_all": can_show_all,
                                                "show_runs": show_runs, "can_show_runs": can_show_runs,
                                                "query": query, "all_query": "all=1&" if show_all else "",
                                                "others_submissions": show_all})
