"""The admin's problem list names its columns, filters and the problem kind in the reader's language
(problems.models field verbose names and ProblemKind's labels), never the raw field names or keys."""
from __future__ import annotations

import re

import pytest

from problems.models import Problem, ProblemVersion

pytestmark = pytest.mark.django_db

PROBLEMS = "/admin/problems/problem/"


@pytest.fixture
def problem(db) -> Problem:
    made = Problem.objects.create(slug="vec-add", title_en="Vector add", topic="indexing")
    made.current_version = ProblemVersion.objects.create(problem=made, number=1, content_hash="ab" * 8, files={})
    made.save()
    return made


def column_heads(html: str) -> list[str]:
    head = html.split("<thead>", 1)[1].split("</thead>", 1)[0]
    return [re.sub(r"\s+", " ", t).strip() for t in re.findall(r'<div class="text">(?:<a [^>]*>|<span>)([^<]*)<', head)]


def filter_titles(html: str) -> list[str]:
    return [re.sub(r"\s+", " ", t).strip() for t in re.findall(r"<summary>([^<]*)</summary>", html)]


def test_problem_list_in_korean_names_its_columns_filters_and_kind(admin_client, problem):
    """Korean: 난이도 기준, 공개 상태 기준 and 종류 기준 (not 'difficulty 기준'), the heads slug(주소), 난이도,
    현재 버전, and the kind filter offers CUDA 커널 rather than the key 'kernel'."""
    html = admin_client.get(PROBLEMS, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    titles = filter_titles(html)
    assert {"주제 기준", "난이도 기준", "공개 상태 기준", "종류 기준"} <= set(titles), titles
    assert not any(re.search(r"[a-z_]+ 기준", t) for t in titles), titles
    heads = column_heads(html)
    assert {"Slug(주소)", "주제", "난이도", "현재 버전", "공개 상태"} <= set(heads), heads
    assert not {"Slug", "Difficulty", "Current version"} & set(heads), heads
    assert '<a href="?kind__exact=kernel">CUDA 커널</a>' in html
    assert not re.search(r'<a href="\?kind__exact=kernel">\s*kernel\s*</a>', html)


def test_problem_list_in_english_names_them_in_english(admin_client, problem):
    """English: the same labels from the same verbose names (By difficulty, Current version, CUDA kernel)."""
    html = admin_client.get(PROBLEMS).content.decode()
    assert {"By topic", "By difficulty", "By published", "By kind"} <= set(filter_titles(html))
    assert {"Slug", "Topic", "Difficulty", "Current version", "Published"} <= set(column_heads(html))
    assert '<a href="?kind__exact=kernel">CUDA kernel</a>' in html


def test_the_change_form_labels_its_fields_in_korean(admin_client, problem):
    """The problem's change form: 난이도, 현재 버전, 공개 상태, and the kind menu's CUDA 커널."""
    html = admin_client.get(f"{PROBLEMS}{problem.pk}/change/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    for label in ("난이도", "현재 버전", "종류"):
        assert re.search(rf"<label[^>]*>{label}:</label>", html), label
    assert re.search(r'<label class="vCheckboxLabel" for="id_is_published">공개 상태</label>', html)
    assert '<option value="kernel" selected>CUDA 커널</option>' in html
