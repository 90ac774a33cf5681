"""The exam's kernel page opens the starter in the reader's language: a package's starter.ko.cu (the
same code, Korean comments) on a Korean page, starter.cu elsewhere; a tester found "// TODO: compute
this thread's global index…" on the Korean page. Either starter left unchanged asks before submitting."""
from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from exams.actions.attempts import start_attempt
from exams.actions.scheduling import save_template, schedule_exam
from tests.packages import tiny_package_files

from .conftest import TEMPLATE, client_for

pytestmark = pytest.mark.django_db

BODY = "__global__ void add(const float* a, const float* b, float* c, int n) {\n    // {}\n}\n"
EN, KO = "TODO: one element per thread", "TODO: thread마다 원소 하나"


def test_the_kernel_page_opens_the_readers_starter(course, people):
    from problems.core.package import parse_package
    from problems.services import import_package

    import_package(parse_package(tiny_package_files(**{"starter.cu": BODY.replace("{}", EN),
                                                       "starter.ko.cu": BODY.replace("{}", KO)})))
    template = save_template(course, people["ivy"], dict(TEMPLATE, zones=[
        {"title": "Kernel", "pool": [{"kernel": "tiny-add", "attempts": 2}]}]))
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=5), closes_at=now + timedelta(hours=1),
                         duration_minutes=30)
    item = start_attempt(exam, people["alice"]).items.get(kind="kernel")
    alice = client_for(people["alice"])
    url = reverse("exams:kernel", args=[exam.pk, item.number])
    for language, shown, other in (("ko", KO, EN), ("en", EN, KO)):
        page = alice.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        editor = re.search(r"<textarea[^>]*name=\"source\"[^>]*>(.*?)</textarea>", page, re.S).group(1)
        assert shown in editor and other not in editor
        starters = json.loads(re.search(r'<script id="kernel-starter" type="application/json">(.*?)</script>',
                                        page, re.S).group(1))
        assert [shown in s for s in starters] == [True, False]  # the shown one first, then the other language's
