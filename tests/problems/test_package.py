"""The package parser accepts good packages and names the file and field of a bad one."""
import pytest

from grader.core.verdicts import Verdict
from problems.core.package import Check, PackageError, Topic, parse_package
from tests.packages import PROBLEM_YAML, tiny_package_files


def test_good_package_parses_all_fields():
    """A valid package gives its kernel spec, launch, tests, wrong solutions and statement."""
    pkg = parse_package(tiny_package_files(**{"statement.ko.md": "두 벡터를 더하세요."}))
    assert pkg.slug == "tiny-add"
    assert pkg.topic is Topic.INDEXING
    assert pkg.kernel.signature() == "const float* a, const float* b, float* c, int n"
    assert [t.name for t in pkg.tests] == ["small", "tail"]
    assert pkg.tests[0].sample and not pkg.tests[1].sample
    assert pkg.wrong[0].name == "subtracts.cu" and pkg.wrong[0].verdict is Verdict.WRONG_ANSWER
    assert set(pkg.statement) == {"en", "ko"}
    assert pkg.smallest_test().name == "small"


def test_content_hash_changes_with_any_file():
    """Changing one byte of any file changes the package hash (a new version on import)."""
    a = parse_package(tiny_package_files()).content_hash
    b = parse_package(tiny_package_files(**{"statement.md": "changed"})).content_hash
    assert a != b and len(a) == 64


def test_harness_loads_and_generates():
    """harness.py's generate() and reference() are loaded from the package text."""
    import numpy as np

    harness = parse_package(tiny_package_files()).load_harness()
    inputs = harness.generate({"n": 7}, np.random.default_rng(1))
    assert inputs["a"].dtype == np.float32 and inputs["n"] == 7
    np.testing.assert_array_equal(harness.reference(inputs)["c"], inputs["a"] + inputs["b"])


@pytest.mark.parametrize(
    ("overrides", "file", "fragment"),
    [
        ({"solution.cu": None}, "solution.cu", "missing"),
        ({"problem.yaml": "slug: [unclosed"}, "problem.yaml", "not valid YAML"),
        ({"problem.yaml": PROBLEM_YAML.replace("topic: indexing", "topic: cooking")}, "problem.yaml", "topic"),
        ({"problem.yaml": PROBLEM_YAML.replace("dtype: float32}", "dtype: float128}", 1)}, "problem.yaml", "dtype"),
        ({"problem.yaml": PROBLEM_YAML.replace("role: in,", "role: sideways,", 1)}, "problem.yaml", "role"),
        ({"problem.yaml": PROBLEM_YAML.replace('grid: "ceil_div(n, 256)"', 'grid: "ceil_div(m, 256)"')},
         "problem.yaml", "unknown name 'm'"),
        ({"problem.yaml": PROBLEM_YAML.replace("sample: true", "sample: false")}, "problem.yaml", "sample"),
        ({"problem.yaml": PROBLEM_YAML.replace("time_s: 5", "time_s: -1")}, "problem.yaml", "limits.time_s"),
        ({"wrong/subtracts.cu": "__global__ void add() {}"}, "wrong/subtracts.cu", "verdict"),
        ({"wrong/subtracts.cu": "// verdict: NEARLY_RIGHT\n"}, "wrong/subtracts.cu", "unknown verdict"),
        ({"wrong/subtracts.cu": "// verdict: ACCEPTED\n"}, "wrong/subtracts.cu", "cannot expect ACCEPTED"),
        ({"problem.yaml": PROBLEM_YAML.replace("slug: tiny-add", "slug: Tiny_Add")}, "problem.yaml", "slug"),
        ({"problem.yaml": PROBLEM_YAML.replace("name: add\n", "name: 9add\n")}, "problem.yaml", "kernel.name"),
        ({"problem.yaml": PROBLEM_YAML.replace("role: out, dtype: float32}", "role: out, dtype: float32, init: ones}")},
         "problem.yaml", "init must be one of poison, zeros"),
        ({"problem.yaml": PROBLEM_YAML.replace("role: in, dtype: float32}", "role: in, dtype: float32, init: zeros}", 1)},
         "problem.yaml", "init applies to out buffers only"),
    ],
)
def test_malformed_package_names_file_and_problem(overrides, file, fragment):
    """Each malformed package raises PackageError naming the file and what is expected."""
    with pytest.raises(PackageError) as info:
        parse_package(tiny_package_files(**overrides))
    assert info.value.file == file
    assert fragment in str(info.value)


def test_student_chosen_launch_requires_launch_comment_in_solutions():
    """With student_chooses, solution and wrong files must say how they launch."""
    yaml_text = PROBLEM_YAML.replace('grid: "ceil_div(n, 256)"', 'grid: "ceil_div(n, 256)"\n  student_chooses: true')
    with pytest.raises(PackageError, match="launch"):
        parse_package(tiny_package_files(**{"problem.yaml": yaml_text}))


def test_checks_are_parsed():
    """checks: lists the checking passes."""
    yaml_text = PROBLEM_YAML + "checks: [racecheck, memcheck]\n"
    pkg = parse_package(tiny_package_files(**{"problem.yaml": yaml_text}))
    assert pkg.checks == (Check.RACECHECK, Check.MEMCHECK)


def test_an_out_buffer_may_start_zeroed():
    """`init: zeros` on an out argument is kept; every other buffer starts poisoned by default."""
    from grader.core.backends.base import ArgInit

    yaml_text = PROBLEM_YAML.replace("role: out, dtype: float32}", "role: out, dtype: float32, init: zeros}")
    args = {a.name: a.init for a in parse_package(tiny_package_files(**{"problem.yaml": yaml_text})).kernel.args}
    assert args == {"a": ArgInit.POISON, "b": ArgInit.POISON, "c": ArgInit.ZEROS, "n": ArgInit.POISON}


@pytest.mark.django_db
def test_import_problems_quiet_prints_one_line_of_counts(tmp_path):
    """`import_problems --quiet` (make dev's) says what it did in one line instead of a line per package."""
    import io
    from pathlib import Path

    from django.core.management import call_command

    (tmp_path / "vector-add-tail").symlink_to(Path(__file__).resolve().parents[2] / "problems" / "bank" / "vector-add-tail")
    out = io.StringIO()
    call_command("import_problems", str(tmp_path), "--quiet", stdout=out)
    call_command("import_problems", str(tmp_path), "--quiet", stdout=out)
    assert out.getvalue().splitlines() == [f"{tmp_path}: 1 created, 0 updated, 0 unchanged",
                                           f"{tmp_path}: 0 created, 0 updated, 1 unchanged"]
