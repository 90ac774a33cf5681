"""Kernel pools by topic or tag: they draw among the matching problems the course may use (its own
and the bank's, never another course's), with a clear message when a pool matches too few."""
import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt
from exams.actions.scheduling import save_template, schedule_exam
from exams.catalogue import DbCatalogue
from exams.core.template import TemplateError
from problems.core.package import PackageError, parse_package
from problems.models import Problem
from problems.services import import_package
from tests.packages import PROBLEM_YAML, tiny_package_files

from .conftest import client_for, make_course

pytestmark = pytest.mark.django_db


def add_problem(slug: str, tags: list[str], course=None, topic: str = "indexing") -> Problem:
    yaml = PROBLEM_YAML.replace("slug: tiny-add", f"slug: {slug}").replace("topic: indexing", f"topic: {topic}")
    yaml += f"tags: [{', '.join(tags)}]\n"
    import_package(parse_package(tiny_package_files(**{"problem.yaml": yaml})))
    problem = Problem.objects.get(slug=slug)
    if course is not None:
        problem.course = course
        problem.save(update_fields=["course"])
    return problem


@pytest.fixture
def problems(course):
    other = make_course("GPU999", "Another course")
    return {"bank": add_problem("bank-tagged", ["midterm", "loops"]),
            "own": add_problem("own-tagged", ["midterm"], course),
            "theirs": add_problem("their-tagged", ["midterm"], other),
            "untagged": add_problem("bank-plain", [])}


def test_package_tags_are_parsed_and_checked():
    yaml = PROBLEM_YAML + "tags: [shared-memory, exam, exam]\n"
    assert parse_package(tiny_package_files(**{"problem.yaml": yaml})).tags == ("shared-memory", "exam")
    assert parse_package(tiny_package_files()).tags == ()
    with pytest.raises(PackageError, match="tags"):
        parse_package(tiny_package_files(**{"problem.yaml": PROBLEM_YAML + "tags: [Shared Memory]\n"}))


def test_catalogue_of_a_course_sees_its_own_and_the_bank(course, problems):
    catalogue = DbCatalogue(course)
    assert [i.slug for i in catalogue.matching(None, "midterm")] == ["bank-tagged", "own-tagged"]
    assert [i.slug for i in catalogue.matching("indexing", "loops")] == ["bank-tagged"]
    assert catalogue.get("their-tagged") is None
    assert "their-tagged" in [i.slug for i in DbCatalogue().matching(None, "midterm")]  # no course: all


def test_tag_pool_draws_among_the_matching_problems(course, people, problems):
    data = {"title": {"en": "Tags"}, "zones": [{"title": "Kernels", "choose": 2, "pool": [
        {"kernel": {"tag": "midterm"}}, {"kernel": {"tag": "midterm"}}]}]}
    template = save_template(course, people["ivy"], data)
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=1),
                         closes_at=now + timedelta(hours=1), duration_minutes=30)
    for name in ("alice", "bob"):
        attempt = start_attempt(exam, people[name])
        slugs = sorted(i.data["kernel"]["slug"] for i in attempt.items.all())
        assert slugs == ["bank-tagged", "own-tagged"]  # two distinct problems, never another course's


def test_pool_matching_fewer_than_it_can_draw_is_refused(course, people, problems):
    data = {"zones": [{"choose": 3, "pool": [{"kernel": {"tag": "midterm"}}] * 3}]}
    with pytest.raises(TemplateError) as info:
        save_template(course, people["ivy"], data)
    assert info.value.messages() == [
        "zones[0].pool[0].kernel: matches 2 usable problem(s) with tag 'midterm' (bank-tagged, own-tagged), fewer "
        "than the 3 this zone can draw: a student would get the same problem twice"]
    with pytest.raises(TemplateError, match="no usable problem with tag 'nothing'"):
        save_template(course, people["ivy"], {"zones": [{"pool": [{"kernel": {"tag": "nothing"}}]}]})
    with pytest.raises(TemplateError, match="unknown problem 'their-tagged'"):
        save_template(course, people["ivy"], {"zones": [{"pool": [{"kernel": "their-tagged"}]}]})


def test_the_form_shows_the_message_in_english_and_korean(course, people, problems):
    text = "zones:\n  - choose: 3\n    pool: [{kernel: {tag: midterm}}, {kernel: {tag: midterm}}, {kernel: {tag: midterm}}]\n"
    url = reverse("exams:template_new", args=[course.pk])
    ivy = client_for(people["ivy"])
    english = ivy.post(url, {"text": text})
    assert english.status_code == 400
    assert "matches 2 usable problem(s) with tag" in english.content.decode()
    korean = ivy.post(url, {"text": text}, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "matches 2 usable" not in korean and "bank-tagged, own-tagged" in korean
    missing = ivy.post(url, {"text": "zones:\n  - pool: [{kernel: {topic: atomics}}]\n"},
                       HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "no usable problem" not in missing and "atomics" in missing
