"""What a submission looks like to its viewer: the API's JSON and the page's context share this.

`public_result` is the one place that decides what a student may see of a JudgeResult: hidden
test cases keep only their name, verdict and time (TestResult.public_dict), and diagnostics
found on hidden cases lose their kind-specific details (addresses, indices, sizes).

The judge's messages are messages.Message values (a code and its parameters), made into text here,
at the edge (`edge`): the page and the API both pass `translate=gettext`, so every message reads in
the request's language (the API's: Korean with `Accept-Language: ko`, English without it). The API
also passes the English template and the parameters on, the stable part a script can match on or
render itself. A result stored before templates existed has only English text: it is shown as it is.
"""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from rest_framework import serializers

from grader.core import hidden_names
from grader.core import messages as M
from grader.core.judge import LaunchChoice
from grader.core.results import Diagnostic, JudgeResult, stored_message
from grader.core.verdicts import DiagnosticKind

from .models import Submission


class LaunchSerializer(serializers.Serializer):
    """Launch expressions, each optional; only used when the problem lets the student choose."""

    block = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
    grid = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
    shared_bytes = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def to_internal_value(self, data):
        # Accept numbers as well as expressions: {"block": 256} means "256".
        if isinstance(data, dict):
            data = {k: str(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
                    for k, v in data.items()}
        return super().to_internal_value(data)


class StringField(serializers.CharField):
    """A CharField that takes only a JSON string: DRF's CharField turns 5 into "5", and a number
    is never a kernel's source (it is a client's mistake, better refused than graded)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class SubmissionCreateSerializer(serializers.Serializer):
    """POST body: {"source": "...", "launch": {"block", "grid", "shared_bytes"}, "course": "PP-A"}.

    `course` (optional) is the code of a course the caller is in: a bank problem is then graded for
    that course's target GPU, as when it is opened from the course's problem set on the web."""

    source = StringField(allow_blank=False, trim_whitespace=False)
    launch = LaunchSerializer(required=False)
    course = serializers.CharField(required=False, allow_blank=True, max_length=40)

    def launch_choice(self) -> LaunchChoice:
        launch = self.validated_data.get("launch") or {}
        return LaunchChoice(block=launch.get("block", "").strip(), grid=launch.get("grid", "").strip(),
                            shared_bytes=launch.get("shared_bytes", "").strip())


PUBLIC_NOTE_CODES = {t.code for t in M.PUBLIC_NOTES}
PLATFORM_NOTE_CODES = {t.code for t in M.PLATFORM_NOTES}
# A watchdog's stop on a hidden test: said as it is, without its limit (which grows with the inputs).
HIDDEN_STOPS = {M.MEMORY_LIMIT.code: M.MEMORY_LIMIT_HIDDEN, M.DISK_LIMIT.code: M.DISK_LIMIT_HIDDEN}


def _setting_up() -> bool:
    from grader import live

    return live.setting_up()


def _hidden_message(d: Diagnostic, translate) -> M.Message:
    """What a student reads of diagnostic `d` found on a hidden test: a watchdog's stop (memory, disk)
    as what happened, a refused launch as not fitting a hidden test case (its reason quotes the grid
    or shared memory the test's sizes imply), launch expressions that cannot be evaluated there as
    that alone (the reason can name a value of the sizes), anything else as its kind only (_hidden_diagnostic_message)."""
    if str(d.kind) == DiagnosticKind.LAUNCH_ERROR:
        unevaluated = d.message is not None and d.message.code == M.INVALID_LAUNCH.code
        return M.LAUNCH_EXPRESSION_HIDDEN() if unevaluated else M.LAUNCH_HIDDEN()
    stop = HIDDEN_STOPS.get(d.message.code) if d.message else None
    return stop() if stop is not None else _hidden_diagnostic_message(str(d.kind), translate)


def _hidden_diagnostic_message(kind: str, translate) -> M.Message:
    """What a student reads about a finding on a hidden test: its kind only (no line, sizes or indices).
    The kind's label is in the language of `translate` (English without)."""
    from django.utils import translation

    from problems.templatetags.warpdrill import DIAGNOSTIC_LABELS

    label = DIAGNOSTIC_LABELS.get(kind, kind)
    if translate is None:
        with translation.override("en"):
            label = str(label)
    return M.HIDDEN_DIAGNOSTIC(kind=M.Message.verbatim(str(label)))


def edge(message: M.Message, translate=None) -> dict:
    """The message as the pages and the API show it: "message", its text in the language of `translate`
    (gettext; English without, or when the translation does not fit the parameters), "message_template"
    (its English template, "" for text we cannot name) and "message_params" (nested messages as
    {"template", "params"})."""
    text = str(message)
    if translate is not None:
        try:
            text = message.render(translate)
        except (KeyError, ValueError, TypeError):
            pass
    return {"message": text, "message_template": message.template,
            "message_params": M.api_params(message.params) if message.code else {}}


def localized(item: dict, translate) -> dict:
    """`item` (a result part's dict: Diagnostic/TestResult/CompileMessage.to_dict, or a playground
    result's) with its message at the edge (see `edge`); unchanged when it has no message."""
    if "message" in item:
        item.update(edge(stored_message(item), translate))
    return item


def _quotes(summary: M.Message, hidden: M.Message) -> bool:
    """True when `summary` quotes the message `hidden` as one of its parameters."""
    return any(isinstance(value, M.Message) and value.to_dict() == hidden.to_dict() for value in summary.params.values())


def _without_hidden(summary: M.Message, hidden: Diagnostic, public_lines: set, translate) -> M.Message:
    """`summary` with the quoted diagnostic `hidden` (found on a hidden test) replaced by its kind, and the
    summary's line dropped unless a sample test's diagnostic shows that line. A summary we cannot name
    (stored before templates) that quotes it becomes the hidden test's plain summary."""
    if not summary.code:
        return M.SUMMARY_HIDDEN_TEST(test=(hidden.test or "").removesuffix(" (check)"))
    params = {key: _hidden_message(hidden, translate)
              if isinstance(value, M.Message) and value.to_dict() == hidden.message.to_dict() else value
              for key, value in summary.params.items()}
    template = CATALOGUE_WITHOUT_LINE.get(summary.code)
    if template is not None and hidden.line is not None and params.get("line") == hidden.line \
            and hidden.line not in public_lines:
        params.pop("line")
        return template(**params)
    return M.Message(summary.code, params)


# A summary that adds "(line N)" after its reason, and the same without it.
CATALOGUE_WITHOUT_LINE = {M.SUMMARY_TEST_AT_LINE.code: M.SUMMARY_TEST, M.SUMMARY_CHECK_AT_LINE.code: M.SUMMARY_CHECK}


def public_result(result: JudgeResult | None, full: bool, translate=None) -> dict:
    """The parts of a result a viewer may see. `full` (instructors) keeps hidden cases' details and names;
    students read a hidden test's name as its place in the list, "#3" (core/hidden_names.py).

    For students, a diagnostic found on a hidden test keeps its kind and test name; its message,
    line, thread ids and details (which carry indices and sizes) are dropped or replaced, and it is
    dropped when a sample test already shows the same kind. The line goes too: the student's code
    chooses where it fails, so a line on a hidden test can spell out the hidden inputs. The summary's
    parameter that quotes such a diagnostic is replaced the same way (and its line, unless a sample
    test shows that line): the summary is a messages.Message, so this is a change of its parameters.
    With `translate` (gettext), messages are rendered in the active language; English without.
    """
    if result is None:
        return {"tests": [], "diagnostics": [], "compile": None, "resources": None, "message": "",
                "message_template": "", "message_params": {}, "verdict": "", "backend": "", "device": "", "limits": {}}
    hidden = {t.name for t in result.tests if not t.sample}
    names = {} if full else hidden_names.aliases(result.tests)  # a hidden test's name says its sizes: "#3"
    summary = result.message
    # A note that says nothing of its test's data (printf truncation) is shown as it is, hidden test or not.
    # A note about the platform (a check that could not be built) is not about the student's code: staff only.
    found = [d for d in result.diagnostics if full or not (d.message and d.message.code in PLATFORM_NOTE_CODES)]
    on_hidden = [not full and d.message.code not in PUBLIC_NOTE_CODES
                 and (d.test or "").removesuffix(" (check)") in hidden for d in found]
    public_lines = {d.line for d, is_hidden in zip(found, on_hidden) if not is_hidden}
    diagnostics, shown_kinds = [], set()
    for d, is_hidden in sorted(zip(found, on_hidden), key=lambda pair: pair[1]):  # samples first
        item = d.to_dict()
        if is_hidden:
            if d.message and (_quotes(summary, d.message) if summary.code else d.message in summary):
                summary = _without_hidden(summary, d, public_lines, translate)
            if d.kind in shown_kinds:
                continue
            item.update(message=_hidden_message(d, translate).to_dict(), line=None, block=None,
                        thread=None, detail={})
        shown_kinds.add(d.kind)
        diagnostics.append(localized(hidden_names.renamed_item(item, names), translate))
    compile_result = result.compile.to_dict() if result.compile else None
    if compile_result:
        compile_result["messages"] = [localized(m, translate) for m in compile_result["messages"]]
    return {
        "verdict": str(result.verdict),
        "tests": [localized(t.to_dict() if full else hidden_names.renamed_item(t.public_dict(), names), translate)
                  for t in result.tests],
        "diagnostics": diagnostics,
        "compile": compile_result,
        "resources": localized_resources(result.resources.to_dict(), translate) if result.resources else None,
        **edge(hidden_names.renamed(summary, names), translate),
        "backend": result.backend,  # what graded it: "emulator" or "gpu"
        "device": result.device,  # the GPU's name on the gpu backend ("" on the emulator)
        # The time limits it was judged under ({} in older results); the seconds its runs used only for
        # staff: their sum carries the hidden tests' times, which a student does not see.
        "limits": {k: v for k, v in result.limits.items() if full or k != "used_s"},
    }


def localized_resources(resources: dict, translate) -> dict:
    """The resource card's dict with the occupancy working's sentences (steps[].text) in the active
    language when `translate` is given (the stored text is English)."""
    from django.utils.translation import get_language

    from problems.core.occupancy.model import step_text

    occupancy = resources.get("occupancy")
    if translate is None or not isinstance(occupancy, dict) or not isinstance(occupancy.get("steps"), list):
        return resources
    lang = "ko" if (get_language() or "en").startswith("ko") else "en"
    steps = [dict(step, text=step_text(step, lang)) if isinstance(step, dict) else step for step in occupancy["steps"]]
    return {**resources, "occupancy": {**occupancy, "steps": steps}}


def submission_payload(submission: Submission, full: bool, request=None) -> dict:
    """The API's JSON for one submission, its messages ("message" of the summary, the tests, the
    diagnostics and the compile messages) in the active language (LocaleMiddleware's, from the
    request's Accept-Language); "message_template" and "message_params" stay as stored, in English."""
    result = public_result(submission.judge_result(), full, translate=gettext)
    api_url = reverse("api:submission", args=[submission.pk])
    html_url = submission.get_absolute_url()
    if request is not None:
        api_url, html_url = request.build_absolute_uri(api_url), request.build_absolute_uri(html_url)
    return {
        "id": submission.pk,
        "url": api_url,
        "html_url": html_url,
        "problem": submission.problem_version.problem.slug,
        "problem_version": submission.problem_version.number,
        "status": submission.status,
        "verdict": submission.verdict or None,
        "progress": {"done": submission.progress_done, "total": submission.progress_total},
        # True while the submission waits because a worker is still setting up the judge (a first start)
        "setting_up": submission.status in ("QUEUED", "RETRYING") and _setting_up(),
        "launch": {"block": submission.launch_block, "grid": submission.launch_grid,
                   "shared_bytes": submission.launch_shared_bytes},
        "tests": result["tests"],
        "diagnostics": result["diagnostics"],
        "compile": result["compile"],
        "resources": result["resources"],
        # Which backend graded it, and on the GPU which GPU (null while not graded).
        "backend": {"name": result["backend"] or submission.backend, "device": result["device"] or None}
        if (result["backend"] or submission.backend) else None,
        "message": result["message"],
        "message_template": result["message_template"],
        "message_params": result["message_params"],
        "created_at": submission.created_at.isoformat() if submission.created_at else None,
        "finished_at": submission.finished_at.isoformat() if submission.finished_at else None,
    }


def problem_payload(problem, request=None) -> dict:
    """The API's JSON for one problem in the list."""
    html_url = problem.get_absolute_url()
    submit_url = reverse("api:problem-submissions", args=[problem.slug])
    if request is not None:
        html_url, submit_url = request.build_absolute_uri(html_url), request.build_absolute_uri(submit_url)
    package = problem.current_version.package()
    return {
        "slug": problem.slug,
        "title": problem.title,
        "topic": problem.topic,
        "difficulty": problem.difficulty,
        "version": problem.current_version.number,
        "kernel": f"__global__ void {package.kernel.name}({package.kernel.signature()})",
        "student_chooses_launch": package.launch.student_chooses,
        "html_url": html_url,
        "submissions_url": submit_url,
    }


def problem_detail_payload(problem, request) -> dict:
    """The API's JSON for one problem: the list's fields plus `language` ("en" or "ko", the statement's),
    `statement` (Markdown), `starter` (CUDA source), `launch` ({"block", "grid", "shared_bytes"}
    expressions), `time_limit_s` and `sample_tests` ([{"name", "params"}]), of the variant `request.user`
    practises (practice_variant: the web page's)."""
    from django.utils.translation import get_language

    from problems.services import practice_variant, version_package

    base = version_package(problem.current_version)
    package = base.with_variant(practice_variant(request.user, base) or None)
    lang = "ko" if (get_language() or "").startswith("ko") and "ko" in package.statement else "en"
    payload = problem_payload(problem, request)
    payload.update(
        language=lang,
        statement=package.statement[lang],
        starter=package.starter_in(lang),
        launch={"block": package.launch.block, "grid": package.launch.grid,
                "shared_bytes": package.launch.shared_bytes},
        time_limit_s=package.time_limit_s,
        sample_tests=[{"name": t.name, "params": dict(t.params)} for t in package.tests if t.sample],
    )
    return payload
