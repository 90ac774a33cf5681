"""Previews for staff: generated question families, and a problem version as a student sees it."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .common import course_problem, staff_course

FAMILY_PREVIEW_MAX = 12  # questions one family preview shows at most


@login_required
def family_preview(request, code):
    """Generated question families as a course's students would get them (the course's target GPU):
    ?family=<id>&difficulty=<1..3>&seed=<int>&n=<count> shows n questions generated from seeds
    seed, seed+1, ... with their answers and worked solutions, for staff choosing families for an
    exam or a problem set."""
    from practice.core.questions import DIFFICULTIES, FAMILIES, family
    from practice.rendering import blocks_html, lang

    course, role = staff_course(request, code)

    def number(key, default, low, high):
        raw = request.GET.get(key, "")
        value = int(raw) if raw.lstrip("-").isdigit() and len(raw) < 10 else default
        return max(low, min(high, value))

    chosen = request.GET.get("family", "")
    difficulty = number("difficulty", 1, min(DIFFICULTIES), max(DIFFICULTIES))
    seed, n = number("seed", 1, 0, 10**8), number("n", 3, 1, FAMILY_PREVIEW_MAX)
    la = lang()
    questions = []
    if chosen in FAMILIES:
        for k in range(n):
            q = family(chosen).generate(seed + k, difficulty, course.target_cc or None)
            shown = q.render(la)
            key = dict(q.answer)
            questions.append({
                "seed": seed + k, "title": shown["title"], "prompt": blocks_html(shown["prompt"]),
                "fields": [{"label": f.label.get(la, f.label["en"]), "expected": f.format_value(key[f.name], la),
                            "kind": str(f.kind), "choices": [{"label": c.label.get(la, c.label["en"]), "code": c.code}
                                                             for c in f.choices]}
                           for f in q.fields],
                "solution": blocks_html(q.render_solution(la)), "params": q.params,
            })
    groups: dict[str, list] = {}
    for f in FAMILIES.values():
        groups.setdefault(str(f.topic), []).append({"id": f.id, "title": f.title.get(la, f.title["en"])})
    return render(request, "authoring/family_preview.html", {
        "course": course, "role": role, "groups": groups, "chosen": chosen, "difficulty": difficulty,
        "difficulties": DIFFICULTIES, "seed": seed, "n": n, "questions": questions,
        "unknown": bool(chosen) and chosen not in FAMILIES})


MAX_PREVIEW_VARIANTS = 64  # the variant picker of "preview as a student" lists at most this many


@login_required
def as_student(request, code, slug, number):
    """Version `number` of a course problem exactly as a student's problem page shows it (statement,
    signature, sample tests, launch, starter in the editor), for any variant (?variant=k of the
    package's variants in a stable order), published or not. Nothing can be submitted from it: the
    form is shown disabled and a POST is refused."""
    from problems.pages import problem_page_context
    from problems.services import version_package

    course, role = staff_course(request, code)
    problem = course_problem(course, slug)
    version = get_object_or_404(problem.versions, number=number)
    if request.method != "GET":
        return HttpResponse(_("A preview cannot be submitted."), status=405, headers={"Allow": "GET"})
    base = version_package(version)
    variants = base.variants.combinations()[:MAX_PREVIEW_VARIANTS] if base.variants else [None]
    raw = request.GET.get("variant", "0")
    index = int(raw) if raw.isascii() and raw.isdigit() and int(raw) < len(variants) else 0
    variant = variants[index]
    page = problem_page_context(problem, version, variant)
    context = {
        **page,
        "form": {"source": page["package"].starter_in(get_language()), "block": "", "grid": "", "shared_bytes": "", "from_submission": None,
                 "last_launch": None},
        "error": None,
        "recent": [],
        "preview": {
            "course": course, "version": version, "index": index,
            "variants": [", ".join(f"{k}={v}" for k, v in (var or {}).items()) for var in variants],
            "back": reverse("authoring:edit", args=[course.code, problem.slug]),
        },
    }
    return render(request, "problems/detail.html", context)
