"""`/submissions/?all=1` lists exactly what its reader may open (grader.access.may_see): a site
instructor of another course saw every course's exam verdicts there (the exam's feedback 'none',
results unreleased), another course's problem and its validation runs, while each page was a 404."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User

from exams.actions.attempts import start_attempt, submit_kernel
from grader.access import may_see
from grader.models import Purpose, Submission
from tests.exams.conftest import (  # noqa: F401  (fixtures)
    PASSWORD,
    client_for,
    course,
    enrol,
    exam,
    kernel_problem,
    make_course,
    people,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(exam, people, kernel_problem, not_sent):
    """Course GPU101 (ivy, tom; alice in its exam), a course problem of GPU101 with a validation run,
    the bank's tiny-add practised by bob; prof of course GPU303 is a site instructor too."""
    from authoring import actions as authoring
    attempt = start_attempt(exam, people["alice"])
    exam_sub = submit_kernel(attempt.items.get(kind="kernel"), people["alice"], "__global__ void add() {}")
    own = authoring.create_problem(exam.course, people["ivy"], "ivy-secret", "Secret", "비밀")
    version = own.versions.first()
    course_sub = Submission.objects.create(user=people["bob"], problem_version=version, source="// course")
    run = Submission.objects.create(user=people["ivy"], problem_version=version, source="// run",
                                    purpose=Purpose.VALIDATION)
    practice = Submission.objects.create(user=people["bob"], problem_version=kernel_problem.current_version,
                                         source="// bank")
    for_course = Submission.objects.create(user=people["bob"], problem_version=kernel_problem.current_version,
                                           source="// bank, from GPU101's problem set", course=exam.course)
    prof = User.objects.create_user("prof", "prof@example.org", PASSWORD)
    prof.groups.add(Group.objects.get_or_create(name="Instructor")[0])
    enrol(prof, make_course("GPU303", "Third"), "instructor")
    root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    return {"exam": exam_sub, "course": course_sub, "run": run, "practice": practice, "for_course": for_course,
            "prof": prof, "root": root}


def _listed(user) -> set[int]:
    ids = set()
    for query in ("?all=1", "?all=1&runs=1"):
        page = client_for(user).get("/submissions/" + query).content.decode()
        ids |= {int(x) for x in re.findall(r'href="/submissions/(\d+)/"', page)}
    return ids


@pytest.mark.parametrize("who, sees", [
    ("prof", {"practice", "for_course"}),  # a site instructor: the bank's practice, nothing of GPU101's own
    # GPU101's TA and instructor (not site instructors): its exam, problem and runs, and the bank problem
    # practised for GPU101 (from its problem set), not the bank practice of nobody's course.
    ("tom", {"exam", "course", "run", "for_course"}),
    ("ivy", {"exam", "course", "run", "for_course"}),
    ("root", {"exam", "course", "run", "practice", "for_course"}),
])
def test_everyones_list_is_what_its_reader_may_open(world, people, who, sees):
    user = world.get(who) or people[who]
    listed = _listed(user)
    expected = {world[name].pk for name in sees}
    assert listed & {world[k].pk for k in ("exam", "course", "run", "practice", "for_course")} == expected
    for submission in Submission.objects.all():
        assert (submission.pk in listed) == may_see(user, submission), (who, submission.pk)


def test_a_student_has_no_everyones_list(world, people):
    page = client_for(people["bob"]).get("/submissions/?all=1").content.decode()
    assert {int(x) for x in re.findall(r'href="/submissions/(\d+)/"', page)} == {
        world["course"].pk, world["practice"].pk, world["for_course"].pk}  # their own practice only
