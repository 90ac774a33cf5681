"""Scoring: questions by the family's checker, kernels by verdict with attempt points; regrade diffs; stats; CSV."""
import csv
import io

import pytest

from exams.core.draw import question_variant
from exams.core.export import LongRow, StudentTotal, canvas_csv, long_csv, moodle_csv
from exams.core.regrade import AttemptRecord, regrade, rekey_from_generators
from exams.core.scoring import (ItemStatus, KernelOutcome, attempt_numbers, attempts_left, score_exam, score_kernel,
                                score_question)
from exams.core.stats import AttemptRow, ItemRow, histogram, histogram_svg, item_stats


def q_item(key="z0.p0", family="indexing.global_index", seed=3, points=4.0):
    return {"key": key, "number": 1, "zone": 0, "kind": "question", "points": points, "generation": 0,
            "question": question_variant(family, 1, seed)}


def k_item(points=(10, 7, 5), partial=False, key="z1.p0"):
    return {"key": key, "number": 2, "zone": 1, "kind": "kernel", "points": float(max(points)), "generation": 0,
            "kernel": {"slug": "block-sum", "version_id": 1, "version_number": 1, "attempts": len(points),
                       "attempt_points": list(points), "partial_credit": partial}}


def right_answer(item):
    return {k: str(v) for k, v in item["question"]["answer"].items()}


def test_question_right_wrong_empty_invalid():
    item = q_item()
    assert score_question(item, right_answer(item)).points == 4.0
    wrong = {k: str(int(v) + 1) for k, v in item["question"]["answer"].items()}
    assert score_question(item, wrong).status is ItemStatus.WRONG
    assert score_question(item, {}).status is ItemStatus.UNANSWERED
    assert score_question(item, {k: " " for k in right_answer(item)}).status is ItemStatus.UNANSWERED
    assert score_question(item, {k: "banana" for k in right_answer(item)}).status is ItemStatus.INVALID


def test_question_forgiving_formats_as_in_practice():
    """An integer answer written as '1,024'-style or an arithmetic expression is read as in practice."""
    item = q_item()
    ans = {k: f"{v} + 0" for k, v in item["question"]["answer"].items()}
    assert score_question(item, ans).correct


def ok(passed=4, total=4):
    return KernelOutcome("ACCEPTED", passed, total)


def wa(passed=1, total=4):
    return KernelOutcome("WRONG_ANSWER", passed, total)


def test_kernel_attempt_points_best_counts():
    """Accepted on the second counted attempt earns 7 of [10, 7, 5]; a later worse one changes nothing."""
    s = score_kernel(k_item(), [wa(), ok(), wa()])
    assert (s.points, s.status, s.best_attempt, s.attempts_used) == (7.0, ItemStatus.CORRECT, 2, 3)


def test_internal_error_and_ungraded_never_count():
    """INTERNAL_ERROR costs no attempt: WA, IE, IE, OK is accepted on the 2nd counted attempt (7 points)."""
    ie = KernelOutcome("INTERNAL_ERROR")
    assert score_kernel(k_item(), [wa(), ie, ie, ok()]).points == 7.0
    assert attempts_left(k_item()["kernel"], [wa(), ie]) == 2
    assert attempts_left(k_item()["kernel"], [wa(), KernelOutcome("")]) == 1  # in flight holds its attempt


def test_a_compile_error_costs_no_attempt():
    """A kernel the compiler refuses was never run against a test (DOMjudge's compile penalty is off
    by default; PrairieLearn: an invalid answer costs no attempt): CE, CE, WA, OK is accepted on the
    2nd counted attempt (7 of [10, 7, 5]), and three compile errors leave all 3 attempts."""
    ce = KernelOutcome("COMPILE_ERROR")
    s = score_kernel(k_item(), [ce, ce, wa(), ok()])
    assert (s.points, s.status, s.best_attempt, s.attempts_used) == (7.0, ItemStatus.CORRECT, 2, 2)
    assert attempts_left(k_item()["kernel"], [ce, ce, ce]) == 3
    assert attempts_left(k_item(points=(4,))["kernel"], [ce]) == 1  # one attempt, still there after a CE
    assert score_kernel(k_item(), [ce]).status is ItemStatus.UNANSWERED
    assert score_kernel(k_item(), [wa(), wa(), wa(), ce, ok()]).points == 0.0  # still only 3 counted


def test_attempt_numbers_count_what_costs_an_attempt():
    """Rows read "Attempt k" for the k-th counted attempt (or one still being graded, which holds an
    attempt); a compile error or a platform fault is no attempt and has no number."""
    outcomes = [KernelOutcome("COMPILE_ERROR"), wa(), KernelOutcome("INTERNAL_ERROR"), KernelOutcome(""), ok()]
    assert attempt_numbers(outcomes) == [None, 1, None, 2, 3]
    assert attempt_numbers([]) == []


def test_attempts_past_the_limit_are_ignored():
    assert score_kernel(k_item(), [wa(), wa(), wa(), ok()]).points == 0.0


def test_partial_credit_by_tests_passed():
    """With partial credit, 3 of 4 tests on the first attempt earn 10 x 3/4 = 7.5, beating a later 5."""
    s = score_kernel(k_item(partial=True), [wa(3, 4), wa(1, 4), ok()])
    assert s.points == 7.5 and s.status is ItemStatus.PARTIAL and s.best_attempt == 1
    assert score_kernel(k_item(partial=False), [wa(3, 4)]).points == 0.0


def test_pending_while_grading():
    assert score_kernel(k_item(), [KernelOutcome("")]).status is ItemStatus.PENDING
    assert score_kernel(k_item(), []).status is ItemStatus.UNANSWERED


def test_exam_total():
    q, k = q_item(), k_item()
    score = score_exam([q, k], {"z0.p0": right_answer(q)}, {"z1.p0": [ok()]})
    assert (score.total, score.max_total) == (14.0, 14.0)


def test_regrade_diff_with_new_key_and_new_verdict():
    """A corrected key and a re-judged kernel change only the attempts they touch; the diff names them."""
    q, k = q_item(), k_item()
    ans_right = right_answer(q)
    ans_other = {name: str(int(v) + 1) for name, v in q["question"]["answer"].items()}
    recs = [
        AttemptRecord(1, "alice", [q, k], {"z0.p0": ans_right}, {"z1.p0": [ok()]}, {"z0.p0": 4.0, "z1.p0": 10.0}),
        AttemptRecord(2, "bob", [q, k], {"z0.p0": ans_other}, {"z1.p0": [ok()]}, {"z0.p0": 0.0, "z1.p0": 10.0}),
        AttemptRecord(3, "carol", [q, k], {}, {"z1.p0": [wa()]}, {"z0.p0": 0.0, "z1.p0": 10.0}),
    ]
    new_key = {name: int(v) + 1 for name, v in q["question"]["answer"].items()}
    diff = regrade(recs, keys_for=lambda item: new_key if item["kind"] == "question" else None)
    by = {c.student: c for c in diff.changes}
    assert set(by) == {"alice", "bob", "carol"}
    assert (by["alice"].old_total, by["alice"].new_total) == (14.0, 10.0)
    assert (by["bob"].old_total, by["bob"].new_total) == (10.0, 14.0)
    assert [(i.key, i.old, i.new) for i in by["carol"].items] == [("z1.p0", 10.0, 0.0)]
    assert diff.rekeyed == {"z0.p0": 3}
    unchanged = regrade(recs[:1])
    assert unchanged.changes == [] and unchanged.unchanged == 1


def test_rekey_from_generators_finds_only_changed_keys(monkeypatch):
    from exams.core import families

    q = q_item()
    assert rekey_from_generators(q) is None
    fam = families.family("indexing.global_index")
    orig = type(fam).compose
    monkeypatch.setattr(type(fam), "compose",
                        lambda self, p: (lambda r: (r[0], r[1], {n: 0 for n in r[2]}, r[3]))(orig(self, p)))
    assert rekey_from_generators(q) == {n: 0 for n in q["question"]["answer"]}


def test_item_stats_and_discrimination():
    rows = [AttemptRow(i, float(i), {"a": ItemRow(1.0 if i >= 5 else 0.0, 1.0, i >= 5),
                                     "b": ItemRow(1.0, 1.0, True)}) for i in range(10)]
    stats = {s.key: s for s in item_stats(rows)}
    assert stats["a"].share_correct == 0.5 and stats["a"].discrimination == 1.0
    assert stats["b"].discrimination == 0.0 and stats["b"].mean == 1.0


def test_histogram_bins_and_svg():
    h = histogram([0, 1, 9.9, 10, 10], 10, bins=5)
    assert h.counts == [2, 0, 0, 0, 3]
    svg = histogram_svg(h, label="Scores")
    assert svg.startswith("<svg") and svg.count("<rect") == 5 and "<script" not in svg


def test_gradebook_csv_layouts():
    students = [StudentTotal("alice", "Alice", "Kim", "a@x.org", 3, 12.5), StudentTotal("bob", "", "", "", 4, None)]
    canvas = list(csv.reader(io.StringIO(canvas_csv("Midterm", 20, students))))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Midterm"]
    assert canvas[1][0] == "Points Possible" and canvas[1][5] == "20"
    assert canvas[2] == ["Kim, Alice", "", "", "alice", "", "12.5"] and canvas[3][5] == ""
    moodle = list(csv.reader(io.StringIO(moodle_csv("Midterm", students))))
    assert moodle[0] == ["Email address", "Username", "ID number", "First name", "Last name", "Full name", "Midterm"]
    assert moodle[1] == ["a@x.org", "alice", "", "Alice", "Kim", "Alice Kim", "12.5"]
    long = list(csv.reader(io.StringIO(long_csv([LongRow("alice", "2026-01", 1, "z0.p0", "indexing.inverse", "x=3",
                                                         2, 2)]))))
    assert long[0][:2] == ["student", "student_id"]
    assert long[1] == ["alice", "2026-01", "1", "z0.p0", "indexing.inverse", "x=3", "", "2", "2"]


def test_gradebook_csvs_identify_students_as_the_lms_does():
    """The tester's Moodle CSV put a roster's full name "김민수" in First name with Last name empty, and the
    Canvas CSV's ID column held WarpDrill's user ids, which Canvas reads as its own. Canvas rows now match
    on SIS Login ID (the username) with ID empty (SIS User ID: the student ID a student gave, none here);
    Moodle's identifier columns (email, lower-case username, ID number) come first, a single full name goes
    to Full name only."""
    students = [StudentTotal("Kim_MS", "김민수", "", "kim@x.org", 41, 20.0),
                StudentTotal("lee", "Jiwoo", "Lee", "lee@x.org", 42, 7.5),
                StudentTotal("solo", "", "", "solo@x.org", 43, None)]
    canvas = list(csv.reader(io.StringIO(canvas_csv("Quiz A", 24, students))))
    assert [r[:4] for r in canvas[2:]] == [["김민수", "", "", "Kim_MS"], ["Lee, Jiwoo", "", "", "lee"],
                                           ["solo", "", "", "solo"]]
    assert all(r[1] == "" for r in canvas[1:])  # never WarpDrill's ids
    moodle = list(csv.reader(io.StringIO(moodle_csv("Quiz A", students))))
    assert moodle[1] == ["kim@x.org", "kim_ms", "", "", "", "김민수", "20"]
    assert moodle[2] == ["lee@x.org", "lee", "", "Jiwoo", "Lee", "Jiwoo Lee", "7.5"]
    assert moodle[3] == ["solo@x.org", "solo", "", "", "", "", ""]
