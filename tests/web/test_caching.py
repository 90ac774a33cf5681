"""Caching on the read paths: parsed packages per problem version."""
from unittest import mock

import pytest
from django.core.cache import caches
from django.urls import reverse

from problems import services
from problems.core.package import parse_package
from tests.packages import tiny_package_files

from .conftest import import_files

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_caches():
    """Each test starts with empty caches, so its parse counts do not depend on earlier tests."""
    for alias in ("default", services.PACKAGE_CACHE):
        caches[alias].clear()
    yield


@pytest.fixture
def count_parses():
    """parse_package as problems.services calls it, wrapped to count calls."""
    with mock.patch.object(services, "parse_package", wraps=parse_package) as spy:
        yield spy


def detail_url(problem):
    return reverse("problems:detail", args=[problem.slug])



# ---- parsed packages ------------------------------------------------------------------------------

def test_problem_page_parses_a_version_once(problem, alice_client, count_parses):
    """Two visits to the same problem version parse its package once: the second reads the cache."""
    for _ in range(2):
        response = alice_client.get(detail_url(problem))
        assert response.status_code == 200
        assert "Add two vectors" in response.content.decode()
    assert count_parses.call_count == 1


def test_korean_statement_uses_the_same_parsed_package(problem, alice_client, count_parses):
    """The page in English and then in Korean parses the version once (the statement renders per language)."""
    alice_client.get(detail_url(problem))
    html = alice_client.get(detail_url(problem), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "두 벡터를 더하세요" in html
    assert count_parses.call_count == 1


def test_new_version_is_parsed_and_shown(problem, alice_client, count_parses):
    """Importing a changed package makes a new version: the page shows the new statement at once."""
    assert "Add two vectors" in alice_client.get(detail_url(problem)).content.decode()
    import_files(tiny_package_files(**{"statement.md": "Add two vectors, now with a twist.\n"}))
    problem.refresh_from_db()
    assert problem.current_version.number == 2
    html = alice_client.get(detail_url(problem)).content.decode()
    assert "now with a twist" in html
    assert count_parses.call_count == 2
    alice_client.get(detail_url(problem))
    assert count_parses.call_count == 2


def test_same_content_under_another_version_id_is_parsed_again(problem, count_parses):
    """The key holds the version id and its content hash: a row with another id is not taken for a cached one."""
    version = problem.current_version
    services.version_package(version)
    other = type(version)(pk=version.pk + 1000, content_hash=version.content_hash, files=version.files)
    services.version_package(other)
    assert count_parses.call_count == 2


def test_each_caller_gets_its_own_copy(problem, count_parses):
    """A caller that changes its package changes nobody else's: the cache hands out copies."""
    first = services.version_package(problem.current_version)
    first.statement["en"] = "scribbled over"
    second = services.version_package(problem.current_version)
    assert second.statement["en"].startswith("Add two vectors")
    assert count_parses.call_count == 1


def test_resolve_package_by_database_slug_uses_the_cache(problem, count_parses):
    """resolve_package() of a slug only in the database reads the parsed version from the cache."""
    assert services.resolve_package("tiny-add").slug == "tiny-add"
    assert services.resolve_package("tiny-add").slug == "tiny-add"
    assert count_parses.call_count == 1
