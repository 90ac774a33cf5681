"""The roster report's words: each FileIssue and RowIssue code rendered in the reader's language."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .core.roster import MAX_ROWS, NAME_MAX, FileIssue, RowIssue, RowProblem

FILE_ISSUES = {
    FileIssue.EMPTY: _("The file is empty."),
    FileIssue.NOT_UTF8: _("The file is not UTF-8 text. Save it as “CSV UTF-8” and upload it again."),
    FileIssue.NOT_CSV: _("The file is not valid CSV (%(detail)s)."),
    FileIssue.MISSING_COLUMNS: _("The header row lacks the column(s) %(detail)s. The first row must name the columns username, email and (optionally) name."),
    FileIssue.TOO_MANY_ROWS: _("The file has more than %(detail)s rows; split it into several uploads."),
}

ROW_ISSUES = {
    RowIssue.MISSING_USERNAME: _("no username"),
    RowIssue.BAD_USERNAME: _("the username may only contain letters, digits and @ . + - _ (at most 150 characters)"),
    RowIssue.MISSING_EMAIL: _("no email address"),
    RowIssue.BAD_EMAIL: _("“%(value)s” is not an email address"),
    RowIssue.NAME_TOO_LONG: _("the name is longer than %(max)d characters"),
    RowIssue.DUPLICATE_USERNAME: _("duplicate: line %(value)s has the same username"),
    RowIssue.DUPLICATE_EMAIL: _("duplicate: line %(value)s has the same email address"),
    RowIssue.EXISTING_USER_OTHER_EMAIL: _("an account with this username exists with a different email address; ask the student to join with an invite code"),
    RowIssue.EMAIL_OF_OTHER_USER: _("this email address belongs to an account with another username"),
    RowIssue.INACTIVE_USER: _("the account with this username is deactivated"),
}


def file_issue_text(issue: FileIssue, detail: str) -> str:
    return str(FILE_ISSUES[issue]) % {"detail": detail, "max": MAX_ROWS}


def row_problem_text(problem: RowProblem) -> str:
    return str(ROW_ISSUES[problem.issue]) % {"value": problem.value, "max": NAME_MAX}
