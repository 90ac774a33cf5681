"""A course's target GPU (Course.target_cc) decides occupancy answers: the occupancy questions drawn
for its exams (attempts, previews, printed forms) and the calculator opened from the course."""
import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt
from exams.actions.scheduling import save_template, schedule_exam, spec_of
from exams.core.draw import draw_exam
from practice.core.questions import FAMILIES, family
from problems.core.gpus import gpu as gpu_by_key
from problems.core.occupancy import occupancy

from .conftest import client_for

OCCUPANCY = [f for f in FAMILIES if f.startswith("occupancy.") and f != "occupancy.textbook"]
SPEC = {"title": {"en": "Occupancy quiz", "ko": "Occupancy 퀴즈"},
        "zones": [{"title": "Occupancy", "choose": len(OCCUPANCY), "points": 2,
                   "pool": [{"family": f, "difficulty": [1, 3]} for f in OCCUPANCY]}]}


@pytest.mark.parametrize("cc", ["7.5", "8.6", "9.0"])
def test_every_occupancy_family_draws_a_gpu_of_the_target_cc(cc):
    for family_id in OCCUPANCY:
        for seed in range(8):
            q = family(family_id).generate(seed, 3, target_cc=cc)
            assert gpu_by_key(q.params["gpu"]).cc == cc, (family_id, seed, q.params)
            again = family(family_id).build(q.params, seed=seed)  # the answer follows the stored params
            assert again.answer == q.answer


@pytest.mark.parametrize("cc", ["7.5", "9.0"])
def test_the_co_residence_seed_example_is_drawn_only_for_its_own_gpu(cc):
    """occupancy.co_residence's easy questions take the seed's cc 8.6 example (two 32 x 32 blocks on an
    RTX 3090) for about a third of the seeds: for a course targeting another cc they drew it anyway
    (an exam of a 9.0 course got a cc 8.6 question about once in six attempts)."""
    fam = family("occupancy.co_residence")
    ccs = {gpu_by_key(fam.generate(seed, 1, target_cc=cc).params["gpu"]).cc for seed in range(60)}
    assert ccs == {cc}
    assert any(fam.generate(seed, 1, target_cc="8.6").params.get("block_2d") for seed in range(60))


def test_blocks_per_sm_answer_is_the_target_ccs():
    q = family("occupancy.blocks_per_sm").generate(3, 2, target_cc="7.5")
    p = q.params
    want = occupancy("7.5", p["threads"], p["regs"], p["smem"])
    assert q.answer["blocks"] == want.blocks_per_sm


def test_without_a_target_cc_questions_are_unchanged():
    """No target: the family's own GPU pool and the same seeds as before (stored variants stay valid)."""
    fam = family("occupancy.blocks_per_sm")
    ccs = {gpu_by_key(fam.generate(seed, 3).params["gpu"]).cc for seed in range(40)}
    assert len(ccs) > 1
    assert fam.generate(5, 2).params == fam.generate(5, 2, target_cc=None).params


def test_non_occupancy_family_ignores_the_target_cc():
    fam = family("indexing.global_index")
    assert fam.generate(4, 2, target_cc="7.5").params == fam.generate(4, 2).params


@pytest.mark.django_db
def test_exam_attempt_preview_and_forms_use_the_courses_gpu(course, people, kernel_problem):
    from exams.core.printing import lettered_forms

    course.target_cc = "8.6"
    course.save(update_fields=["target_cc"])
    template = save_template(course, people["ivy"], SPEC)
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=1),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)
    exam.refresh_from_db()
    attempt = start_attempt(exam, people["alice"])
    ccs = {gpu_by_key(i.data["question"]["params"]["gpu"]).cc for i in attempt.items.all()}
    assert ccs == {"8.6"}

    preview = client_for(people["ivy"]).get(reverse("exams:template_preview", args=[course.pk, template.pk]))
    assert preview.status_code == 200 and ("RTX 3090" in preview.content.decode() or "A6000" in preview.content.decode())

    spec = spec_of(exam)
    for form in lettered_forms(spec, exam.secret, 2, None, course.target_cc):
        assert {gpu_by_key(i["question"]["params"]["gpu"]).cc for i in form.items} == {"8.6"}
    # The same student of a 9.0 course gets questions on a 9.0 GPU.
    drawn = draw_exam(spec, exam.secret, people["alice"].pk, None, "9.0")
    assert {gpu_by_key(i["question"]["params"]["gpu"]).cc for i in drawn.items} == {"9.0"}


@pytest.mark.django_db
def test_calculator_opened_from_a_course_uses_its_target_gpu(course, people):
    course.target_cc = "7.5"
    course.save(update_fields=["target_cc"])
    url = reverse("practice:calculator") + f"?course={course.code}"
    page = client_for(people["alice"]).get(url).content.decode()
    assert '<option value="7.5" selected>' in page
    assert 'name="course" value="GPU101"' in page and "target GPU" in page
    # The course page links to it.
    course_page = client_for(people["alice"]).get(reverse("courses:course", args=[course.code])).content.decode()
    assert f'?course={course.code}' in course_page
    # Someone outside the course gets the calculator's own default.
    outsider = client_for(people["eve"]).get(url).content.decode()
    assert '<option value="9.0" selected>' in outsider and 'name="course"' not in outsider
    # A cc typed in the form wins over the course's.
    typed = client_for(people["alice"]).get(url + "&cc=8.0&threads=256&regs=32&smem=0").content.decode()
    assert '<option value="8.0" selected>' in typed
    korean = client_for(people["alice"]).get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "에서 열었습니다" in korean
