"""Pages of problems: the list grouped by topic, and a problem with its editor and submit form."""
from __future__ import annotations

from collections import defaultdict

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from grader import actions
from grader.core.errors import WarpDrillError, http_status_for
from grader.core.judge import LaunchChoice
from grader.core.verdicts import Verdict
from grader.middleware import error_text
from exams.services import exam_question_in_progress
from grader.access import practice_submissions

from .templatetags.warpdrill import topic_label
from .models import Problem
from .pages import problem_page_context
from .services import practice_variant, version_package

class SubmitForm(forms.Form):
    """A kernel and, for problems that let the student choose it, the launch expressions."""

    source = forms.CharField(widget=forms.Textarea, strip=False, required=False)
    block = forms.CharField(required=False, max_length=200)
    grid = forms.CharField(required=False, max_length=200)
    shared_bytes = forms.CharField(required=False, max_length=200)

    def launch_choice(self) -> LaunchChoice:
        data = self.cleaned_data
        return LaunchChoice(block=data["block"].strip(), grid=data["grid"].strip(),
                            shared_bytes=data["shared_bytes"].strip())


def published_problems():
    """The bank's published problems: open to everyone, listed on the home page."""
    return Problem.objects.filter(is_published=True, current_version__isnull=False, course__isnull=True)


def visible_problem(user, slug: str) -> Problem:
    """A published problem the user may open: the bank's, or a course's for the members of that course
    (its staff also before it is published: their preview), unless an exam of the course reserves it
    (exams.reservations: from its scheduling until every student's window has closed; its staff
    still open it). Http404 otherwise. The web page, the API and the CLI all come through here."""
    from courses import access
    from exams.services import is_reserved

    problem = get_object_or_404(Problem.objects.select_related("current_version", "course"), slug=slug,
                                current_version__isnull=False)
    if problem.course_id is None:
        if not problem.is_published:
            raise Http404("No such problem.")
        return problem
    role = access.course_role(user, problem.course)
    if role is None or (not access.can_manage(role) and (not problem.is_published or is_reserved(problem))):
        raise Http404("No such problem.")
    return problem


def opened_for(user, problem: Problem, code: str):
    """The course a bank problem is opened for (`?course=<code>`, the link of a problem set's item, and a
    hidden field of the submit form): a course the user is a member of, whose target GPU grades their
    submissions (Submission.course). None for no code, an unknown course or one they are not in (the
    site's default GPU then), and for a course's own problem, whose course decides."""
    from courses import access
    from courses.models import Course

    if not code or problem.course_id is not None or not user.is_authenticated:
        return None
    course = Course.objects.filter(code=code).first()
    return course if course is not None and access.course_role(user, course) is not None else None


def problem_statuses(user) -> dict[int, str]:
    """{problem id: "solved" | "tried"} from the user's graded submissions (platform faults excluded)."""
    if not user.is_authenticated:
        return {}
    statuses: dict[int, str] = {}
    rows = (practice_submissions(user)
            .exclude(verdict=Verdict.INTERNAL_ERROR)
            .values_list("problem_version__problem_id", "verdict"))
    for problem_id, verdict in rows:
        if verdict == Verdict.ACCEPTED:
            statuses[problem_id] = "solved"
        else:
            statuses.setdefault(problem_id, "tried")
    return statuses


def problem_list(request):
    """Every published problem, grouped by topic, with the student's status on each."""
    statuses = problem_statuses(request.user)
    groups: dict[str, list] = defaultdict(list)
    for problem in published_problems():
        problem.student_status = statuses.get(problem.pk, "new")
        groups[problem.topic].append(problem)
    topics = [{"key": key, "label": topic_label(key), "problems": problems}
              for key, problems in groups.items()]
    solved = sum(1 for s in statuses.values() if s == "solved")
    return render(request, "problems/list.html", {"topics": topics, "solved_count": solved,
                                                  "problem_count": sum(len(t["problems"]) for t in topics)})


def problem_detail(request, slug):
    from homework.services import kernel_set_origin

    """The statement and the editor. POST submits; an error re-renders the form with the source kept."""
    problem = visible_problem(request.user, slug)
    variant = practice_variant(request.user, version_package(problem.current_version))
    page = problem_page_context(problem, problem.current_version, variant)
    package = page["package"]
    error, status, headers = None, 200, {}
    course = opened_for(request.user, problem, (request.POST if request.method == "POST" else request.GET)
                        .get("course", ""))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        form = SubmitForm(request.POST)
        if form.is_valid():
            try:
                submission = actions.create_submission(request.user, problem, form.cleaned_data["source"],
                                                       form.launch_choice(), course=course)
            except WarpDrillError as exc:
                # The error's status and headers: a rate limit's or a platform fault's Retry-After.
                error, status, headers = error_text(exc), http_status_for(exc), exc.headers()
            else:
                return redirect(submission)
        else:
            error, status = _form_error(form), 400
        initial = {k: request.POST.get(k, "") for k in ("source", "block", "grid", "shared_bytes")}
        # NUL characters cannot round-trip through HTML (browsers show U+FFFD): keep the code without them.
        initial["source"] = initial["source"].replace("\x00", "")
    else:
        initial = _initial_form(request.user, problem, package, request.GET.get("from", ""))
    context = {
        **page,
        "form": initial,
        "error": error,
        "recent": _recent(request.user, problem),
        "opened_for": course,  # a bank problem opened from a course's problem set: graded for its GPU
        # Opened from a problem set's item (?set=<id>): the breadcrumbs lead back to it.
        "from_set": kernel_set_origin(request.user, problem, request.GET.get("set", "")),
        # A kernel question of the student's exam in progress: answered on the exam's page only.
        "in_exam": exam_question_in_progress(request.user, problem),
    }
    response = render(request, "problems/detail.html", context, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


def _form_error(form) -> str:
    """What to tell the student about an invalid form. Django refuses NUL characters (pasted binary
    data) with its own error; name them rather than calling the form incomplete."""
    source_errors = form.errors.as_data().get("source", [])
    if any(e.code == "null_characters_not_allowed" for e in source_errors):
        return _("The source contains null characters (\\0), which a kernel cannot contain; "
                 "this often comes from pasting binary data. Remove them and submit again.")
    return _("The form was incomplete; please check the fields.")


def _initial_form(user, problem, package, reopen: str = "") -> dict:
    """The editor starts from the student's last submission, else the starter. The launch fields
    start empty (their placeholders show the problem's launch), so that a `// launch:` line in the
    source applies unless the student fills a field now: fields carried over from an earlier
    submission would silently override it. Each submission page shows the launch used.

    `reopen` is the `?from=` parameter of "Edit and resubmit": the id of one of the student's own
    submissions of this problem, whose source and stored launch fields are filled in, so that
    submitting it unchanged is graded with the same launch; the page then says so
    (`from_submission`). Any other value, including another user's id, is ignored.

    On a plain visit whose last submission had launch fields filled, `last_launch` is
    {"id": its id, "launch": "block=... grid=..."} (its non-empty fields, in `// launch:`
    notation), so that the page can say that the empty fields will not repeat that launch."""
    initial = {"source": package.starter_in(get_language()), "block": "", "grid": "", "shared_bytes": "", "from_submission": None,
               "last_launch": None}
    if not user.is_authenticated:
        return initial
    mine = practice_submissions(user).filter(problem_version__problem=problem)
    # Only plain ASCII digits that fit a bigint ("²" is isdigit() but not int()-able).
    wanted = int(reopen) if reopen.isascii() and reopen.isdigit() and len(reopen) < 19 else None
    reopened = mine.filter(pk=wanted).first() if wanted is not None else None
    if reopened is not None:
        initial.update(source=reopened.source, block=reopened.launch_block, grid=reopened.launch_grid,
                       shared_bytes=reopened.launch_shared_bytes, from_submission=reopened.pk)
        return initial
    last = mine.only("source", "launch_block", "launch_grid", "launch_shared_bytes").first()
    if last is not None:
        initial["source"] = last.source
        used = [f"{name}={value}" for name, value in (("block", last.launch_block), ("grid", last.launch_grid),
                                                     ("shared_bytes", last.launch_shared_bytes)) if value.strip()]
        if used and package.launch.student_chooses:
            initial["last_launch"] = {"id": last.pk, "launch": " ".join(used)}
    return initial


def _recent(user, problem, limit: int = 5):
    if not user.is_authenticated:
        return []
    return list(practice_submissions(user).filter(problem_version__problem=problem)
                .only("id", "status", "verdict", "created_at")[:limit])
