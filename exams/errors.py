"""The exams app's one user-safe error, mapped to HTTP and messages in one place (exams/views.py)."""
from grader.core.errors import WarpDrillError


class ExamError(WarpDrillError):
    """A request about an exam that cannot be served. The message is translated and safe to show;
    `code` is a stable name for the API (not_open, closed, password, ...); `status` the HTTP status (also
    `http_status`, which grader.core.errors.http_status_for reads where one reaches a shared error handler)."""

    def __init__(self, message: str, code: str = "invalid", status: int = 400):
        super().__init__(message)
        self.code = code
        self.status = self.http_status = status
