"""The playground reads its kernel's parameters: rows that do not follow a changed signature are an
argument error before anything runs, and the form's rows are re-derived from the parameters."""
import pytest

from playground.core.errors import PlaygroundSpecError
from playground.core.signature import Parameter, check_rows_follow, kernel_parameters, rows_for

IOTA = "__global__ void iota(int* out, int n) { int i = threadIdx.x; if (i < n) out[i] = i; }\n"
HELLO = "__global__ void __launch_bounds__(256) hello(int* __restrict__ out) { out[threadIdx.x] = 1; }\n"
MIXED = "__global__ void saxpy(const float* x, float *y, float a, unsigned int n, double d[]) {}\n"


def test_parameters_are_read_from_the_kernel_named():
    assert kernel_parameters(IOTA, "iota") == (Parameter("out", "output", "int32"), Parameter("n", "scalar", "int32"))
    assert kernel_parameters(HELLO, "hello") == (Parameter("out", "output", "int32"),)
    assert kernel_parameters(MIXED, "saxpy") == (
        Parameter("x", "input", "float32"), Parameter("y", "output", "float32"), Parameter("a", "scalar", "float32"),
        Parameter("n", "scalar", "uint32"), Parameter("d", "output", "float64"))
    assert kernel_parameters("__global__ void k(void) {}", "k") == ()
    assert kernel_parameters(IOTA, "other") is None and kernel_parameters("__global__ void k(int a", "k") is None


def test_a_changed_signature_is_an_argument_error_naming_the_parameters():
    with pytest.raises(PlaygroundSpecError) as caught:
        check_rows_follow(kernel_parameters(HELLO, "hello"), "hello", 2)
    assert caught.value.field == "args"
    assert "hello takes 1 parameter(s) (out) and 2 argument(s) are given" in str(caught.value)
    check_rows_follow(kernel_parameters(IOTA, "iota"), "iota", 2)
    check_rows_follow(None, "unknown", 3)


def test_rows_follow_the_parameters_keeping_old_rows_by_name():
    old = [{"name": "out", "kind": "output", "dtype": "int32", "size": "100", "init": "zeros", "value": ""},
           {"name": "n", "kind": "scalar", "dtype": "int32", "size": "", "init": "", "value": "100"}]
    assert rows_for(kernel_parameters(HELLO, "hello"), old) == [old[0]]
    rows = rows_for(kernel_parameters(MIXED, "saxpy"), old)
    assert [r["name"] for r in rows] == ["x", "y", "a", "n", "d"]
    assert rows[0] == {"name": "x", "kind": "input", "dtype": "float32", "size": "100", "init": "range", "value": ""}
    assert rows[3]["value"] == "100" and rows[3]["dtype"] == "uint32" and rows[2]["value"] == ""


@pytest.mark.django_db
@pytest.mark.parametrize("language, label", [("en", "Argument error:"), ("ko", "인자 오류:")])
def test_the_page_refuses_old_rows_for_a_new_signature_and_rederives_them(language, label):
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from playground.models import PlaygroundRun

    client = Client()
    client.force_login(User.objects.create_user("owner"))
    data = {"source": HELLO, "kernel": "", "grid": "1", "block": "8", "shared_bytes": "",
            "arg-0-name": "out", "arg-0-kind": "output", "arg-0-dtype": "int32", "arg-0-size": "8",
            "arg-0-init": "zeros", "arg-1-name": "n", "arg-1-kind": "scalar", "arg-1-dtype": "int32", "arg-1-value": "8"}
    response = client.post(reverse("playground:home"), data, HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 400 and not PlaygroundRun.objects.exists()
    assert label in html and "Compile error" not in html
    assert 'name="arg-0-name" value="out"' in html and 'name="arg-1-name" value=""' in html
    api = client.post(reverse("api:playground-runs"), {"source": HELLO, "launch": {"grid": 1, "block": 8}, "args": [
        {"name": "out", "kind": "output", "size": "8"}, {"name": "n", "kind": "scalar", "value": "8"}]},
        content_type="application/json")
    assert api.status_code == 400 and api.json()["field"] == "args" and "takes 1 parameter(s)" in api.json()["error"]
