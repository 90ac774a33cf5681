"""The judge's error hierarchy.

A student's failure is a result (a verdict), never an exception. These exceptions are for the
platform's faults and for bad requests, each with a message safe to show to a user, and each
carrying how the web answers it (zulip's JsonableError style): `http_status`, `headers()` and
`data()` (extra fields of the JSON body). The shells read these; the mapping lives nowhere else.
"""


class WarpDrillError(Exception):
    """Base of every user-safe error: its message may be shown as it is. A 400 by default."""

    http_status: int = 400

    def headers(self) -> dict[str, str]:
        """HTTP headers of the answer to this error (none by default)."""
        return {}

    def data(self) -> dict:
        """Fields the JSON answer carries besides {"error": message} (none by default)."""
        return {}


def http_status_for(exc: Exception) -> int:
    """The HTTP status of an error: a user-safe error's own (400, 429, 503, ...), else 500."""
    return exc.http_status if isinstance(exc, WarpDrillError) else 500


class PlatformError(WarpDrillError):
    """The platform failed (sandbox missing, compiler missing, GPU error): INTERNAL_ERROR, retried.

    On the web a 503 with `Retry-After` (RETRY_AFTER_S seconds): the service, not the request, failed."""

    http_status = 503
    RETRY_AFTER_S = 30

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.RETRY_AFTER_S)}


class SandboxUnavailableError(PlatformError):
    """bubblewrap is missing or cannot create namespaces on this worker."""


class BadRequestError(WarpDrillError):
    """The request itself is invalid (bad launch expression, source too large, ...)."""


class LaunchConfigError(BadRequestError):
    """A launch configuration expression is malformed or evaluates to an invalid launch."""


class UnsupportedLaunchError(PlatformError):
    """The backend cannot make the launch the problem asks for (a cooperative launch on the emulator):
    the platform's limit, never the student's fault."""
