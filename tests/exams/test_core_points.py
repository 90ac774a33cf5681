"""Points are written with at most two decimals and no trailing zeros ("2.5 points", not "2.50 points"),
the plural form chosen from the amount as written, on the pages, the printed forms and the CSVs."""
import csv
import io

import pytest

from exams.core.export import LongRow, StudentTotal, canvas_csv, long_csv
from exams.core.points import format_points, points_plural
from exams.core.printing.labels import points_text


@pytest.mark.parametrize("value, text, plural", [
    (2.5, "2.5", 2),
    (2.25, "2.25", 2),
    (3.0, "3", 3),
    (3, "3", 3),
    (1.0, "1", 1),
    (0.333333, "0.33", 2),
    (2 / 3, "0.67", 2),
    (0.999, "1", 1),  # written 1, so said in the singular
    (10.0, "10", 10),  # not 1E+1
    (0, "0", 0),
    (-0.001, "0", 0),  # never "-0"
    (-1.5, "-1.5", 2),
    ("2.50", "2.5", 2),
])
def test_format_points(value, text, plural):
    """At most two decimals, rounded half up, no trailing zeros; the plural count follows the text."""
    assert format_points(value) == text
    assert points_plural(value) == plural


@pytest.mark.parametrize("value", [None, "x", float("nan"), float("inf")])
def test_format_points_of_no_number(value):
    """Nothing that is not a finite number is written as points; its plural count is the plural's."""
    assert format_points(value) == ""
    assert points_plural(value) == 2


@pytest.mark.parametrize("points, lang, text", [
    (2.5, "en", "2.5 points"), (2.25, "en", "2.25 points"), (3.0, "en", "3 points"), (1.0, "en", "1 point"),
    (0.333333, "en", "0.33 points"),
    (2.5, "ko", "2.5점"), (3.0, "ko", "3점"), (1.0, "ko", "1점"), (0.333333, "ko", "0.33점"),
])
def test_printed_points(points, lang, text):
    """The printed form's "N points" in English and Korean."""
    assert points_text(points, lang) == text


def test_csv_points():
    """The gradebook CSVs write totals and points the same way (1/3 of a point: 0.33)."""
    students = [StudentTotal("alice", "Alice", "Kim", "a@x.org", 3, 12.50), StudentTotal("bob", "Bo", "", "", 4, 7.0)]
    canvas = list(csv.reader(io.StringIO(canvas_csv("Midterm", 20.0, students))))
    assert canvas[1][5] == "20" and canvas[2][5] == "12.5" and canvas[3][5] == "7"
    long = list(csv.reader(io.StringIO(long_csv([LongRow("alice", "", 1, "z0.p0", "indexing.inverse", "x=3",
                                                         1 / 3, 2.25)]))))
    assert long[1][-2:] == ["0.33", "2.25"]
