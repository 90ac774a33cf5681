"""The playground opens with a small example kernel whose comment is in the reader's language: the
tester's Korean page showed "// Every thread writes its global index…" in English."""
import html

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang, comment", [
    ("en", "// Every thread writes its global index."),
    ("ko", "// 모든 thread가 자기 global index를 씁니다."),
])
def test_a_new_playground_comments_its_example_in_the_readers_language(lang, comment):
    client = Client()
    client.force_login(User.objects.create_user("stu"))
    page = html.unescape(client.get(reverse("playground:home"), HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert comment in page and "__global__ void iota(int* out, int n) {" in page
    other = "// 모든 thread" if lang == "en" else "// Every thread"
    assert other not in page
