"""courses/core/roster.py: parsing and validating roster CSVs, without a database."""
from __future__ import annotations

import pytest

from courses.core.roster import MAX_ROWS, FileIssue, RowIssue, decode, parse_roster


def test_header_in_any_order_and_case_with_a_bom_and_extra_columns():
    """Columns are found by name; a BOM, extra columns and surrounding spaces are ignored; emails lower-cased."""
    text = "\ufeffName, EMAIL ,student id,Username\r\nKim  Minjun,Kim@Uni.Example,17, kim \r\n"
    parsed = parse_roster(text)
    assert parsed.error is None and parsed.problems == []
    [row] = parsed.rows
    assert (row.line, row.username, row.email, row.name) == (2, "kim", "kim@uni.example", "Kim Minjun")


def test_name_column_is_optional():
    parsed = parse_roster("username,email\nlee,lee@uni.example\n")
    assert [(r.username, r.name) for r in parsed.rows] == [("lee", "")]


@pytest.mark.parametrize("line,issue,value", [
    (",nobody@uni.example,No One", RowIssue.MISSING_USERNAME, ""),
    ("bad name,bad@uni.example,Bad", RowIssue.BAD_USERNAME, "bad name"),
    ("x" * 151 + ",long@uni.example,", RowIssue.BAD_USERNAME, "x" * 151),
    ("noemail,,No Email", RowIssue.MISSING_EMAIL, ""),
    ("atless,atless.uni.example,", RowIssue.BAD_EMAIL, "atless.uni.example"),
    ("nodomain,nodomain@,", RowIssue.BAD_EMAIL, "nodomain@"),
    ("spaces,sp aces@uni.example,", RowIssue.BAD_EMAIL, "sp aces@uni.example"),
    ("twoats,a@b@uni.example,", RowIssue.BAD_EMAIL, "a@b@uni.example"),
    ("longname,longname@uni.example," + "n" * 151, RowIssue.NAME_TOO_LONG, "151"),
])
def test_each_bad_row_is_reported_with_its_reason_and_line(line, issue, value):
    """A bad row is refused with its line and reason; the good row after it is still taken."""
    parsed = parse_roster(f"username,email,name\n{line}\nok,ok@uni.example,OK\n")
    assert [(p.line, p.issue, p.value) for p in parsed.problems] == [(2, issue, value)]
    assert [r.username for r in parsed.rows] == ["ok"]


def test_duplicates_keep_the_first_row_and_name_its_line():
    """A repeated username (any case) or email is refused, pointing at the line that has it first."""
    text = "username,email\nkim,kim@uni.example\nKIM,other@uni.example\nlee,KIM@uni.example\npark,park@uni.example\n"
    parsed = parse_roster(text)
    assert [r.username for r in parsed.rows] == ["kim", "park"]
    assert [(p.line, p.issue, p.value) for p in parsed.problems] == [
        (3, RowIssue.DUPLICATE_USERNAME, "2"), (4, RowIssue.DUPLICATE_EMAIL, "2")]


def test_line_numbers_count_quoted_newlines_and_blank_lines():
    text = 'username,email,name\n\n"kim",kim@uni.example,"Kim\nMinjun"\nbad,bad@,x\n'
    parsed = parse_roster(text)
    assert parsed.rows[0].line == 3 and parsed.rows[0].name == "Kim Minjun"
    assert [(p.line, p.issue) for p in parsed.problems] == [(5, RowIssue.BAD_EMAIL)]


@pytest.mark.parametrize("text,issue,detail", [
    ("", FileIssue.EMPTY, ""),
    ("\n\n", FileIssue.EMPTY, ""),
    ("name,email\nKim,kim@uni.example\n", FileIssue.MISSING_COLUMNS, "username"),
    ("login,mail\n", FileIssue.MISSING_COLUMNS, "username, email"),
    ('username,email\n"kim,kim@uni.example\n', FileIssue.NOT_CSV, "unexpected end of data"),
])
def test_a_file_that_cannot_be_read_is_refused_whole(text, issue, detail):
    parsed = parse_roster(text)
    assert (parsed.error, parsed.error_detail, parsed.rows) == (issue, detail, [])


def test_bytes_that_are_not_utf8_are_refused():
    assert decode("username,email\nkim,kim@uni.example\n".encode("utf-16")) is None
    assert parse_roster(decode(b"username,email\n\xff\xfe,x\n")).error == FileIssue.NOT_UTF8
    assert decode("\ufeffusername".encode("utf-8")) == "username"


def test_too_many_rows_is_refused_whole():
    text = "username,email\n" + "".join(f"u{i},u{i}@uni.example\n" for i in range(MAX_ROWS + 1))
    parsed = parse_roster(text)
    assert parsed.error == FileIssue.TOO_MANY_ROWS and parsed.rows == []
    assert len(parse_roster(text.rsplit("\n", 2)[0] + "\n").rows) == MAX_ROWS


@pytest.mark.parametrize("header", ["student_id", "Student ID", "STUDENTID", "student number", "학번", " 학번(ID) "])
def test_the_student_id_column_is_read_under_its_english_and_korean_headers(header):
    """The student ID column may be headed in English or Korean; its cell is stripped and kept as written."""
    parsed = parse_roster(f"username,{header},email\nkim, 2026-123a ,kim@uni.example\nlee,,lee@uni.example\n")
    assert parsed.problems == []
    assert [(r.username, r.student_id) for r in parsed.rows] == [("kim", "2026-123a"), ("lee", "")]


def test_without_a_student_id_column_rows_have_none():
    parsed = parse_roster("username,email,학과\nkim,kim@uni.example,CS\n")
    assert [(r.username, r.student_id) for r in parsed.rows] == [("kim", "")]


@pytest.mark.parametrize("value", ["2026 123", "#2026", "-2026", "학번2026", "1" * 33])
def test_a_student_id_the_account_form_would_refuse_refuses_the_row(value):
    """Spaces, signs other than . _ -, a leading sign, non-Latin letters or more than 32 characters."""
    parsed = parse_roster(f"username,email,student_id\nkim,kim@uni.example,{value}\nlee,lee@uni.example,2026002\n")
    assert [(p.line, p.issue, p.value) for p in parsed.problems] == [(2, RowIssue.BAD_STUDENT_ID, value)]
    assert [r.username for r in parsed.rows] == ["lee"]


def test_a_repeated_student_id_is_refused_pointing_at_its_first_line():
    text = "username,email,학번\nkim,kim@uni.example,2026001\nlee,lee@uni.example,2026001\npark,park@uni.example,\nhan,han@uni.example,\n"
    parsed = parse_roster(text)
    assert [(p.line, p.issue, p.value) for p in parsed.problems] == [(3, RowIssue.DUPLICATE_STUDENT_ID, "2")]
    assert [r.username for r in parsed.rows] == ["kim", "park", "han"]  # empty IDs are no duplicates


def test_the_student_id_rule_is_the_account_forms():
    """The core's copies of the account form's student ID length and characters have not drifted."""
    from accounts.forms import STUDENT_ID_RE as FORM_RE
    from accounts.models import STUDENT_ID_MAX as MODEL_MAX
    from courses.core import roster

    assert (roster.STUDENT_ID_MAX, roster.STUDENT_ID_RE.pattern) == (MODEL_MAX, FORM_RE)


@pytest.mark.parametrize("header", [
    "아이디,이메일,이름,학번",
    "사용자 이름,이메일 주소,성명,학번(ID)",
    " 아이디 (ID) ,전자우편,이름,student number",
])
def test_every_column_is_read_under_its_korean_header(header):
    """A Korean export's headers name the same columns as the English ones, the name column included."""
    parsed = parse_roster(f"{header}\nkim,Kim@Uni.Example,김  민준,2026001\n")
    assert parsed.error is None and parsed.problems == []
    [row] = parsed.rows
    assert (row.username, row.email, row.name, row.student_id) == ("kim", "kim@uni.example", "김 민준", "2026001")


@pytest.mark.parametrize("header,detail", [
    ("username,email,student_id,학번", "student_id, 학번"),
    ("username,email,이메일", "email, 이메일"),
    ("username,Email,email", "Email, email"),
    ("이름,username,email,name,학번(ID),Student ID", "이름, name; 학번(ID), Student ID"),
])
def test_a_column_headed_twice_refuses_the_file_naming_both_headers(header, detail):
    """Two header cells for one column (English and Korean, or the same twice) refuse the whole file,
    naming the headers as written, rather than silently taking one of them."""
    parsed = parse_roster(f"{header}\nkim,kim@uni.example,a,b,c,d\n")
    assert (parsed.error, parsed.error_detail, parsed.rows, parsed.problems) == (FileIssue.DUPLICATE_COLUMNS, detail, [], [])
