"""The exam's CSV files as a spreadsheet and an LMS read them. The long CSV wrote a multiple-choice answer
as the option's internal key ("slots=b") where the student had read "__syncthreads() at (C)": it now
writes the label, in the course's language, and keeps the key in a column of its own. None of the three
files had a UTF-8 byte-order mark, and Excel on Korean Windows garbled the Canvas header's Korean title:
every file now starts with one (Canvas's and Moodle's importers skip it; README)."""
import csv
import io

import pytest
from django.urls import reverse

from exams.actions.attempts import save_answers, start_attempt, submit_attempt
from exams.actions.scheduling import save_template, schedule_exam
from exams.core.export import answer_cells

from .conftest import client_for

pytestmark = pytest.mark.django_db
BOM = b"\xef\xbb\xbf"
CHOICE_TEMPLATE = {
    "title": {"en": "Midterm 1", "ko": "중간고사 1"},
    "zones": [{"title": "Barriers", "choose": 1, "points": 5, "pool": ["synchronization.place_barrier"]}],
}


def _exam_with_a_choice(course, people, language):
    from django.utils import timezone
    from datetime import timedelta

    course.language = language
    course.save(update_fields=["language"])
    template = save_template(course, people["ivy"], CHOICE_TEMPLATE)
    now = timezone.now()
    exam = schedule_exam(course, template, opens_at=now - timedelta(minutes=5), closes_at=now + timedelta(hours=1),
                         duration_minutes=30)
    attempt = start_attempt(exam, people["alice"])
    item = attempt.items.get()
    field = item.data["question"]["fields"][0]
    chosen = field["choices"][-1]
    save_answers(attempt.pk, people["alice"], {item.key: {field["name"]: chosen["key"]}})
    submit_attempt(attempt.pk, people["alice"])
    return exam, field["name"], chosen


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_long_csv_writes_the_option_the_student_read_in_the_courses_language(course, people, language):
    exam, name, chosen = _exam_with_a_choice(course, people, language)
    ivy = client_for(people["ivy"])
    # The reader's own language does not matter: the file is the course's.
    body = ivy.get(reverse("exams:export", args=[exam.pk, "long"]), HTTP_ACCEPT_LANGUAGE="ko" if language == "en"
                   else "en").content
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0] == ["student", "student_id", "question", "slot", "item", "answer", "choice_keys", "points",
                       "max_points"]
    [row] = [r for r in rows[1:] if r[0] == "alice"]
    label = chosen["label"][language]
    assert row[5] == f"{name}={label}" and row[6] == f"{name}={chosen['key']}"
    assert ("__syncthreads()" in label or "barrier" in label) and label != chosen["key"]


def test_answer_cells_keep_other_fields_as_typed_and_unknown_keys_as_they_are():
    question = {"fields": [
        {"name": "x", "kind": "integer", "label": {"en": "x"}},
        {"name": "pick", "kind": "choice", "label": {"en": "Pick"},
         "choices": [{"key": "a", "label": {"en": "Race", "ko": "경쟁 상태"}}]}]}
    assert answer_cells(question, {"x": "72", "pick": "a"}, "ko") == ("x=72; pick=경쟁 상태", "pick=a")
    assert answer_cells(question, {"x": "72", "pick": "zz"}, "en") == ("x=72; pick=zz", "pick=zz")
    assert answer_cells(question, {"pick": ""}, "en") == ("pick=", "pick=")
    assert answer_cells(question, {"x": "3"}, "en") == ("x=3", "")


@pytest.mark.parametrize("layout", ["canvas", "moodle", "long"])
def test_every_exam_csv_starts_with_a_byte_order_mark(course, people, layout):
    """Excel reads UTF-8 only with it: the Korean title in Canvas's header reads as Korean."""
    exam, _name, _chosen = _exam_with_a_choice(course, people, "ko")
    response = client_for(people["ivy"]).get(reverse("exams:export", args=[exam.pk, layout]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(BOM) and not response.content.startswith(BOM + BOM)
    header = next(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    if layout != "long":
        assert header[-1] == "중간고사 1"  # the course's language names the grade column
        assert header[0] in ("Student", "Email address")  # the importers' headers, the BOM aside


def test_an_english_course_names_the_grade_column_in_english(course, people):
    exam, _name, _chosen = _exam_with_a_choice(course, people, "en")
    body = client_for(people["ivy"]).get(reverse("exams:export", args=[exam.pk, "canvas"]),
                                         HTTP_ACCEPT_LANGUAGE="ko").content.decode("utf-8-sig")
    assert next(csv.reader(io.StringIO(body)))[-1] == "Midterm 1"


def test_an_unknown_layout_is_404(exam, people):
    assert client_for(people["ivy"]).get(reverse("exams:export", args=[exam.pk, "excel"])).status_code == 404
