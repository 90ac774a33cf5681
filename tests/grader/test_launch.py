"""Launch expressions: evaluation, safety, CUDA's limits, and the // launch: comment."""
import pytest

from grader.core.backends.base import LaunchConfig
from grader.core.errors import LaunchConfigError
from grader.core.launch import build_launch, evaluate_dims, launch_comment_line, launch_problem, parse_launch_comment


def test_two_dimensional_launch_from_sizes():
    """'16, 16' and ceil_div of width/height give a 2-D launch; missing dims are 1."""
    cfg = build_launch("16, 16", "ceil_div(w, 16), ceil_div(h, 16)", "0", {"w": 100, "h": 33})
    assert cfg == LaunchConfig(grid=(7, 3, 1), block=(16, 16, 1), shared_bytes=0)


def test_grid_may_use_block_size():
    """The grid expression sees block_x, so a student can write ceil_div(n, block_x)."""
    assert build_launch("128", "min(ceil_div(n, block_x), 8)", "block_x * 4", {"n": 5000}).grid == (8, 1, 1)


@pytest.mark.parametrize("expr", ["__import__('os')", "n.real", "lambda: 1", "[1]", "1.5", "'a'", "n if n else 1"])
def test_hostile_or_unsupported_expressions_are_refused(expr):
    """Anything but integer arithmetic over sizes is refused with a message."""
    with pytest.raises(LaunchConfigError):
        evaluate_dims(expr, {"n": 4}, "grid")


def test_unknown_name_lists_known_sizes():
    """An unknown name says which sizes exist."""
    with pytest.raises(LaunchConfigError, match="known sizes: n"):
        evaluate_dims("m", {"n": 1}, "grid")


def test_division_by_zero_is_a_clear_error():
    """Division by zero is an error, not a crash."""
    with pytest.raises(LaunchConfigError, match="zero"):
        evaluate_dims("n / 0", {"n": 1}, "grid")


@pytest.mark.parametrize(
    ("cfg", "fragment"),
    [
        (LaunchConfig((1, 1, 1), (1025, 1, 1)), "1025 threads per block"),
        (LaunchConfig((0, 1, 1), (32, 1, 1)), "cudaErrorInvalidConfiguration"),
        (LaunchConfig((0, 1, 1), (128, 1, 1)), "(grid (0,1,1), block (128,1,1))"),  # the evaluated launch
        (LaunchConfig((1, 1, 1), (1, 1, 65)), "blockDim.z"),
        (LaunchConfig((1, 70000, 1), (32, 1, 1)), "gridDim.y"),
        (LaunchConfig((1, 1, 1), (32, 1, 1), 64 * 1024), "cudaErrorInvalidValue"),
    ],
)
def test_invalid_launches_use_cuda_error_names(cfg, fragment):
    """Launches CUDA refuses are described with CUDA's error names."""
    assert fragment in launch_problem(cfg)


def test_valid_launch_has_no_problem():
    """1024 threads and 2^31-1 blocks in x are valid."""
    assert launch_problem(LaunchConfig((2**31 - 1, 1, 1), (1024, 1, 1), 48 * 1024)) is None


def test_launch_comment_is_read_from_source():
    """`// launch: block=(16, 16) grid=...` gives expressions without the parentheses."""
    src = "// launch: block=(16, 16) grid=(ceil_div(w, 16), ceil_div(h, 16))\n__global__ void k() {}\n"
    assert parse_launch_comment(src) == {"block": "16, 16", "grid": "ceil_div(w, 16), ceil_div(h, 16)"}
    assert parse_launch_comment("__global__ void k() {}") == {}


@pytest.mark.parametrize("expr", ["min(5)", "max(n)", "ceil_div(n)", "ceil_div(n, 2, 3)", "cdiv(*n)", "1 << -1",
                                  "n >> -2"])
def test_wrong_argument_counts_and_negative_shifts_are_the_students_error(expr):
    """A call with the wrong number of arguments or a negative shift is a LaunchConfigError that says
    so (Python's own TypeError or ValueError would have been a platform fault)."""
    with pytest.raises(LaunchConfigError, match=r"argument|shift"):
        evaluate_dims(expr, {"n": 4}, "grid")


@pytest.mark.parametrize(
    ("block", "grid", "english", "korean"),
    [
        ("256", "ceil_div(n, zz)", "grid: unknown name 'zz' (known sizes: block_x, block_y, block_z, n)",
         "grid: 알 수 없는 이름 'zz' (쓸 수 있는 크기: block_x, block_y, block_z, n)"),
        ("", "1", "block: empty expression (expected e.g. '256' or '16, 16')",
         "block: 식이 비어 있습니다 (예: '256' 또는 '16, 16')"),
        ("256", "n ** 2", "grid: only integers, sizes, + - * / % << >>, parentheses and ceil_div/min/max are allowed",
         "grid: 정수, 크기, + - * / % << >>, 괄호와 ceil_div/min/max만 쓸 수 있습니다"),
        ("256", "1, 2, 3, 4", "grid: give 1 to 3 dimensions, got 4", "grid: 차원은 1~3개여야 하는데 4개입니다"),
        ("min(n)", "1", "block: min() takes at least 2 arguments, got 1",
         "block: min()에는 인수가 2개 이상 필요한데 1개입니다"),
    ],
)
def test_expression_errors_are_templates_rendered_in_both_languages(block, grid, english, korean):
    """The error is its template's English, and the same template and parameters read in Korean."""
    import gettext
    from pathlib import Path

    from grader.core import messages as M
    from grader.core.launch import LaunchExpressionError

    with pytest.raises(LaunchExpressionError) as caught:
        build_launch(block, grid, "0", {"n": 5})
    assert str(caught.value) == english
    assert caught.value.message.template == M.LAUNCH_FIELD_ERROR
    catalogue = Path(__file__).resolve().parents[2] / "locale" / "ko" / "LC_MESSAGES" / "django.mo"
    with catalogue.open("rb") as f:
        ko = gettext.GNUTranslations(f).gettext
    assert caught.value.message.render(ko) == korean


def test_launch_comment_line_is_the_line_the_parser_reads():
    src = "\n\n#include <cstdio>\n\n   // launch: block=128 grid=ceil_div(n, 128)\n// launch: block=64\n"
    assert launch_comment_line(src) == 5 and parse_launch_comment(src)["block"] == "128"
    assert launch_comment_line("__global__ void k() {}") is None
