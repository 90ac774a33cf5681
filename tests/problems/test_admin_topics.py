"""Topics in the admin's problem and version lists (problems.admin): shown, filtered and chosen under
their names from problems.core.topics.TOPIC_NAMES in the reader's language, never the raw keys
("programming_model"), with Django's ?topic__exact= URLs kept."""
from __future__ import annotations

import re

import pytest

from problems.models import Problem, ProblemVersion

pytestmark = pytest.mark.django_db

PROBLEMS = "/admin/problems/problem/"
VERSIONS = "/admin/problems/problemversion/"


@pytest.fixture
def problems(db) -> dict[str, Problem]:
    made = {slug: Problem.objects.create(slug=slug, title_en=slug, topic=topic)
            for slug, topic in [("vec-add", "indexing"), ("qualifiers", "programming_model"), ("tree", "reduction")]}
    for problem in made.values():
        ProblemVersion.objects.create(problem=problem, number=1, content_hash=problem.slug * 4, files={})
    return made


def topic_cells(html: str) -> list[str]:
    return re.findall(r'<td class="field-topic_shown">([^<]*)</td>', html)


def test_problem_list_shows_topic_names_in_english_and_korean(admin_client, problems):
    """The topic column reads 'Thread indexing' / 'Programming model' (Korean: 'Thread indexing (인덱스 계산)',
    '프로그래밍 모델'), never the keys, and sorts by topic."""
    html = admin_client.get(PROBLEMS).content.decode()
    assert sorted(topic_cells(html)) == ["Programming model", "Reduction and scan", "Thread indexing"]
    assert not re.search(r">\s*(programming_model|indexing|reduction)\s*<", html)
    korean = admin_client.get(PROBLEMS, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert sorted(topic_cells(korean)) == sorted(["Thread indexing (인덱스 계산)", "프로그래밍 모델", "리덕션과 scan"])
    assert "주제" in korean
    response = admin_client.get(PROBLEMS, {"o": "3"})  # the third column: the topic
    # Sorted as the topic filter lists the topics (Topic's order), not by key.
    assert [p.topic for p in response.context["cl"].result_list] == ["indexing", "reduction", "programming_model"]
    backwards = admin_client.get(PROBLEMS, {"o": "-3"})
    assert [p.topic for p in backwards.context["cl"].result_list] == ["programming_model", "reduction", "indexing"]


def test_problem_list_filters_by_topic_name_keeping_the_url(admin_client, problems):
    """The topic filter lists every topic by name under ?topic__exact=KEY, and filtering keeps only that topic."""
    html = admin_client.get(PROBLEMS).content.decode()
    assert '<a href="?topic__exact=programming_model">Programming model</a>' in html
    assert '<a href="?topic__exact=divergence">Warp divergence</a>' in html
    korean = admin_client.get(PROBLEMS, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert '<a href="?topic__exact=programming_model">프로그래밍 모델</a>' in korean
    filtered = admin_client.get(PROBLEMS, {"topic__exact": "programming_model"})
    assert [p.slug for p in filtered.context["cl"].result_list] == ["qualifiers"]


def test_version_list_filters_by_its_problems_topic_name(admin_client, problems):
    html = admin_client.get(VERSIONS, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert '<a href="?problem__topic__exact=reduction">리덕션과 scan</a>' in html
    filtered = admin_client.get(VERSIONS, {"problem__topic__exact": "reduction"})
    assert [v.problem.slug for v in filtered.context["cl"].result_list] == ["tree"]


def test_change_form_offers_topics_by_name(admin_client, problems):
    url = f"{PROBLEMS}{problems['qualifiers'].pk}/change/"
    html = admin_client.get(url).content.decode()
    assert '<option value="programming_model" selected>Programming model</option>' in html
    korean = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert '<option value="indexing">Thread indexing (인덱스 계산)</option>' in korean
