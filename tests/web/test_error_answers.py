"""Each user-safe error carries its HTTP answer (grader/core/errors.py): status, headers, extra data;
grader.api.error_response only reads them."""
from grader.actions import FixedLaunchError, RateLimitError
from grader.api import error_response
from grader.core.errors import (BadRequestError, LaunchConfigError, PlatformError, SandboxUnavailableError,
                                UnsupportedLaunchError, http_status_for)


def test_a_platform_fault_is_a_503_with_retry_after_not_a_400():
    for exc in (PlatformError("the GPU child died"), SandboxUnavailableError("no bwrap"),
                UnsupportedLaunchError("no cooperative launch")):
        response = error_response(exc)
        assert response.status_code == 503 and http_status_for(exc) == 503
        assert response["Retry-After"] == str(PlatformError.RETRY_AFTER_S)
        assert response.data == {"error": str(exc)}


def test_a_bad_request_is_a_400_without_headers():
    for exc in (BadRequestError("The source is empty."), LaunchConfigError("block: 0 threads")):
        response = error_response(exc)
        assert response.status_code == 400 and not response.has_header("Retry-After")
        assert response.data == {"error": str(exc)}


def test_a_rate_limit_is_a_429_with_its_seconds():
    response = error_response(RateLimitError("Wait 7 seconds.", retry_after=7))
    assert response.status_code == 429 and response["Retry-After"] == "7"


def test_a_fixed_launch_names_its_fields_in_the_body():
    response = error_response(FixedLaunchError("fixed", ("launch.block", "launch.grid")))
    assert response.status_code == 400
    assert response.data == {"error": "fixed", "fields": {"launch": {"block": ["fixed"], "grid": ["fixed"]}}}
    assert error_response(FixedLaunchError("fixed", ("source",))).data["fields"] == {"source": ["fixed"]}


def test_anything_else_is_a_500():
    assert http_status_for(ValueError("a bug")) == 500
