"""A kernel problem that varies per student inside an exam: the attempt stores the student's variant,
the kernel page shows that variant, and the submission is graded with it."""
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import start_attempt, submit_kernel
from exams.actions.scheduling import save_template, schedule_exam
from grader.models import Submission
from problems.core.package import read_package_dir
from tests.exams.conftest import client_for
from tests.web.conftest import import_files

pytestmark = pytest.mark.django_db
BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


@pytest.fixture
def variant_exam(course, people, not_sent):
    import_files(read_package_dir(BANK / "segment-sum"))
    template = save_template(course, people["ivy"], {"zones": [{"pool": [{"kernel": "segment-sum"}]}]})
    now = timezone.now()
    return schedule_exam(course, template, opens_at=now - timedelta(minutes=5),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)


def test_the_attempt_stores_the_variant_the_page_shows_and_the_judge_gets(variant_exam, people):
    """alice's attempt holds a declared variant; her kernel page shows its BLOCK and layout; her
    submission stores that variant (not her practice one)."""
    attempt = start_attempt(variant_exam, people["alice"])
    item = attempt.items.get(kind="kernel")
    variant = item.data["kernel"]["variant"]
    assert variant["BLOCK"] in (128, 256, 512) and variant["LAYOUT"] in ("row", "col")
    page = client_for(people["alice"]).get(reverse("exams:kernel", args=[variant_exam.pk, item.number]))
    html = page.content.decode()
    assert f"<code>BLOCK</code> = {variant['BLOCK']}, layout <code>{variant['LAYOUT']}</code>" in html
    assert f"#define BLOCK {variant['BLOCK']}" in html and "{{" not in html
    submit_kernel(item, people["alice"], "__global__ void segment_sum(const float* x, float* out, int m) {}")
    assert Submission.objects.get(exam_item=item).variant == variant


def test_students_of_one_exam_get_different_variants(variant_exam, course):
    """Over a dozen students the drawn variants are not all the same."""
    from django.contrib.auth.models import User

    from tests.exams.conftest import enrol

    seen = set()
    for k in range(12):
        user = User.objects.create_user(f"s{k}", f"s{k}@example.org", "pw-123456789")
        enrol(user, course, "student")
        item = start_attempt(variant_exam, user).items.get(kind="kernel")
        seen.add(tuple(item.data["kernel"]["variant"].values()))
    assert len(seen) >= 3
