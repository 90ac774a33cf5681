"""The judge's error hierarchy.

A student's failure is a result (a verdict), never an exception. These exceptions are for the
platform's faults and for bad requests, each with a message safe to show to a user.
"""


class WarpDrillError(Exception):
    """Base of every user-safe error: its message may be shown as it is."""


class PlatformError(WarpDrillError):
    """The platform failed (sandbox missing, compiler missing, GPU error): INTERNAL_ERROR, retried."""


class SandboxUnavailableError(PlatformError):
    """bubblewrap is missing or cannot create namespaces on this worker."""


class BadRequestError(WarpDrillError):
    """The request itself is invalid (bad launch expression, source too large, ...)."""


class LaunchConfigError(BadRequestError):
    """A launch configuration expression is malformed or evaluates to an invalid launch."""


class UnsupportedLaunchError(PlatformError):
    """The backend cannot make the launch the problem asks for (a cooperative launch on the emulator):
    the platform's limit, never the student's fault."""
