"""The roster report's words: each FileIssue and RowIssue code rendered in the reader's language."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .core.roster import MAX_ROWS, NAME_MAX, STUDENT_ID_MAX, FileIssue, RowIssue, RowProblem, StudentIdConflict

FILE_ISSUES = {
    FileIssue.EMPTY: _("The file is empty."),
    FileIssue.NOT_UTF8: _("The file is not UTF-8 text. Save it as “CSV UTF-8” and upload it again."),
    FileIssue.NOT_CSV: _("The file is not valid CSV (%(detail)s)."),
    FileIssue.MISSING_COLUMNS: _("The header row lacks the column(s) %(detail)s. The first row must name the columns "
                                 "username (or 아이디), email (or 이메일) and optionally name (or 이름) and student_id "
                                 "(or 학번)."),
    FileIssue.DUPLICATE_COLUMNS: _("The header row names the same column more than once: %(detail)s. Keep one of "
                                   "them (English or Korean header) and upload the file again."),
    FileIssue.TOO_MANY_ROWS: _("The file has more than %(detail)s rows; split it into several uploads."),
}

ROW_ISSUES = {
    RowIssue.MISSING_USERNAME: _("no username"),
    RowIssue.BAD_USERNAME: _("the username may only contain letters, digits and @ . + - _ (at most 150 characters)"),
    RowIssue.MISSING_EMAIL: _("no email address"),
    RowIssue.BAD_EMAIL: _("“%(value)s” is not an email address"),
    RowIssue.NAME_TOO_LONG: _("the name is longer than %(max)d characters"),
    RowIssue.BAD_STUDENT_ID: _("the student ID “%(value)s” may only contain letters, digits, dots, hyphens and "
                               "underscores (at most %(student_id_max)d characters)"),
    RowIssue.DUPLICATE_USERNAME: _("duplicate: line %(value)s has the same username"),
    RowIssue.DUPLICATE_EMAIL: _("duplicate: line %(value)s has the same email address"),
    RowIssue.DUPLICATE_STUDENT_ID: _("duplicate: line %(value)s has the same student ID"),
    RowIssue.EXISTING_USER_OTHER_EMAIL: _("an account with this username exists with a different email address; ask the student to join with an invite code"),
    RowIssue.EMAIL_OF_OTHER_USER: _("this email address belongs to an account with another username"),
    RowIssue.INACTIVE_USER: _("the account with this username is deactivated"),
}


STUDENT_ID_CONFLICT = _("the account already has the student ID %(account_id)s, which was kept; the roster's "
                        "%(roster_id)s was not stored (the student can change it on My account)")


def file_issue_text(issue: FileIssue, detail: str) -> str:
    """A whole-file refusal in the reader's language."""
    return str(FILE_ISSUES[issue]) % {"detail": detail, "max": MAX_ROWS}


def row_problem_text(problem: RowProblem) -> str:
    """Why one row was not taken, in the reader's language."""
    return str(ROW_ISSUES[problem.issue]) % {"value": problem.value, "max": NAME_MAX,
                                              "student_id_max": STUDENT_ID_MAX}


def student_id_conflict_text(conflict: StudentIdConflict) -> str:
    """Why a taken row's student ID was not stored, in the reader's language."""
    return str(STUDENT_ID_CONFLICT) % {"account_id": conflict.account_id, "roster_id": conflict.roster_id}
