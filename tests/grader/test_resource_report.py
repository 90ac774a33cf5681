"""Every submission gets nvcc's resource report and the occupancy of its launch, even on the emulator."""
import shutil

import pytest

from grader.core.backends.registry import get_backend
from grader.core.judge import judge
from grader.core.verdicts import Verdict
from problems.core.package import parse_package
from tests.packages import tiny_package_files

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")


def test_emulator_judgement_carries_ptxas_resources_and_occupancy():
    """The tiny add kernel reports its registers from ptxas and an occupancy for 256-thread blocks on cc 9.0."""
    package = parse_package(tiny_package_files())
    result = judge(package, package.solution, get_backend("emulator"), target_cc="9.0")
    assert result.verdict is Verdict.ACCEPTED
    res = result.resources
    assert res.source == "ptxas" and 1 <= res.registers <= 32
    assert res.threads_per_block == 256 and res.compute_capability == "9.0"
    assert res.occupancy["blocks_per_sm"] == 8 and res.occupancy["occupancy"] == 1.0


def test_occupancy_is_reported_for_the_target_gpu_of_the_course():
    """A course about an RTX 3090 (cc 8.6, 1536 threads per SM): 256-thread blocks fit 6 per SM, not 8."""
    package = parse_package(tiny_package_files())
    res = judge(package, package.solution, get_backend("emulator"), target_cc="8.6").resources
    assert res.compute_capability == "8.6"
    assert res.occupancy["blocks_per_sm"] == 6 and res.occupancy["occupancy"] == 1.0


@pytest.mark.django_db
def test_a_submission_is_judged_for_its_courses_gpu(settings):
    """The grading task's target: the exam's course, else the problem's course, else the site's default."""
    from django.contrib.auth.models import User

    from courses.models import Course
    from grader.models import Submission
    from grader.tasks import course_target_cc
    from problems.services import import_package

    from problems.models import Problem

    problem = Problem.objects.get(slug=import_package(parse_package(tiny_package_files())).slug)
    user = User.objects.create_user("cc-student")
    bank = Submission.objects.create(user=user, problem_version=problem.current_version, source="x")
    assert course_target_cc(bank) == ""  # a bank problem outside a course: the site's default
    course = Course.objects.create(name="GPU", code="GPU-86", target_cc="8.6")
    problem.course = course
    problem.save()
    owned = Submission.objects.get(pk=bank.pk)
    assert course_target_cc(owned) == "8.6"
