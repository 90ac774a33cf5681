"""authoring/core: the editor's fields to package files, and the diff between versions."""
from __future__ import annotations

from authoring.core.diff import Change, LineKind, diff_files
from authoring.core.edit import WrongField, field_of, files_from_fields, set_title, skeleton, wrong_fields
from problems.core.package import parse_package


def test_set_title_replaces_only_the_title_entry_and_keeps_comments():
    text = "# a comment\nslug: s\ntitle:\n  en: Old\n  ko: 옛\ntopic: indexing\n"
    out = set_title(text, 'New "one"', "새")
    assert out == '# a comment\nslug: s\ntitle:\n  en: "New \\"one\\""\n  ko: "새"\ntopic: indexing\n'
    assert set_title("slug: s\ntitle: {en: A}\ntopic: x\n", "B", "") == 'slug: s\ntitle:\n  en: "B"\ntopic: x\n'


def test_fields_fold_back_into_the_same_package():
    """The editor's fields of the skeleton, saved unchanged, give the skeleton's files exactly."""
    files = skeleton("scale-x", "Scale", "스케일")
    package = parse_package(files)
    fields = {"problem_yaml": files["problem.yaml"], "title_en": "Scale", "title_ko": "스케일",
              "statement_en": files["statement.md"], "statement_ko": "", "starter": files["starter.cu"],
              "solution": files["solution.cu"], "harness": files["harness.py"]}
    again = files_from_fields(files, fields, wrong_fields(files))
    assert again == files
    assert parse_package(again).content_hash == package.content_hash


def test_a_wrong_solution_gets_exactly_one_verdict_line_and_crlf_becomes_lf():
    files = skeleton("scale-x", "Scale")
    fields = {"problem_yaml": files["problem.yaml"], "title_en": "Scale", "statement_en": "Hi\r\nthere",
              "starter": files["starter.cu"], "solution": files["solution.cu"], "harness": files["harness.py"]}
    out = files_from_fields(files, fields, [WrongField("races", "SYNC_ERROR", "// verdict: WRONG_ANSWER\r\nint x;\r\n")])
    assert out["wrong/races.cu"] == "// verdict: SYNC_ERROR\nint x;\n"
    assert "wrong/no_bounds_check.cu" not in out
    assert out["statement.md"] == "Hi\nthere"
    assert parse_package(out).wrong[0].verdict.value == "SYNC_ERROR"


def test_parser_errors_map_to_the_field_that_shows_the_file():
    assert field_of("problem.yaml") == "problem_yaml"
    assert field_of("harness.py") == "harness"
    assert field_of("wrong/races.cu") == "wrong:races"
    assert field_of("statement.ko.md") == "statement_ko"


def test_the_diff_names_each_changed_file_with_its_added_and_deleted_lines():
    old = {"a.cu": "one\ntwo\nthree\n", "gone.md": "x\n", "same.py": "s\n"}
    new = {"a.cu": "one\n2\nthree\n", "new.md": "y\n", "same.py": "s\n"}
    diffs = {d.path: d for d in diff_files(old, new)}
    assert [diffs[p].change for p in ("a.cu", "gone.md", "new.md", "same.py")] == [
        Change.CHANGED, Change.REMOVED, Change.ADDED, Change.SAME]
    a = diffs["a.cu"]
    assert (LineKind.DELETE, "two") in a.lines and (LineKind.ADD, "2") in a.lines
    assert a.lines[0][0] is LineKind.HUNK and (a.added, a.deleted) == (1, 1)
    assert diffs["same.py"].lines == []
