"""Variant parameters of a kernel problem: declarations, drawing, rendering and binding
(problems/core/variants.py, ProblemPackage.with_variant). No compiler, no database."""
import numpy as np
import pytest

from problems.core.package import PackageError, parse_package
from problems.core.variants import VariantSpec, parse_variants, render_template
from tests.packages import PROBLEM_YAML, tiny_package_files

VARIANTS = """\
variants:
  params:
    BLOCK: [128, 256, 512]
    STRIDE: [1, 2]
    LAYOUT: [row, col]
"""
YAML = PROBLEM_YAML.replace('block: "256"\n  grid: "ceil_div(n, 256)"',
                            'block: "BLOCK"\n  grid: "ceil_div(n, BLOCK * STRIDE)"') + VARIANTS
HARNESS = """\
import numpy as np

def generate(case, rng):
    n = case["n"]
    a = rng.standard_normal(n).astype(np.float32)
    return {"a": a, "b": np.full(n, case["STRIDE"], np.float32), "c": np.empty(n, np.float32), "n": n,
            "_layout": case["LAYOUT"]}

def reference(inputs, variant):
    sign = 1 if variant["LAYOUT"] == "row" else -1
    return {"c": sign * (inputs["a"] + inputs["b"]) * variant["BLOCK"]}
"""


def variant_files(**overrides):
    files = tiny_package_files(**{
        "problem.yaml": YAML, "harness.py": HARNESS,
        "statement.md": "Blocks of {{BLOCK}} threads, stride {{ STRIDE }}, layout `{{LAYOUT}}`.\n",
        "statement.ko.md": "block마다 thread {{BLOCK}}개, layout `{{LAYOUT}}`.\n",
        "starter.cu": "#define BLOCK {{BLOCK}}\n__global__ void add(const float* a, const float* b, float* c, int n) {}\n",
    })
    files.update(overrides)
    return {k: v for k, v in files.items() if v is not None}


PACKAGE = parse_package(variant_files())


def test_declared_variants_are_parsed_in_order():
    """problem.yaml's variants give each parameter its values in order; 3 x 2 x 2 = 12 combinations."""
    spec = PACKAGE.variants
    assert spec.params == {"BLOCK": (128, 256, 512), "STRIDE": (1, 2), "LAYOUT": ("row", "col")}
    assert spec.count() == 12 and len(spec.combinations()) == 12
    assert spec.default() == {"BLOCK": 128, "STRIDE": 1, "LAYOUT": "row"}


def test_drawing_is_deterministic_and_varies_between_students():
    """The same seed always draws the same variant; 40 students draw more than half of the 12."""
    spec = PACKAGE.variants
    assert spec.draw(17, salt="tiny-add") == spec.draw(17, salt="tiny-add")
    drawn = {tuple(spec.draw(seed, salt="tiny-add").values()) for seed in range(40)}
    assert len(drawn) > 6
    assert all(spec.check(spec.draw(seed)) for seed in range(20))


def test_binding_renders_texts_and_gives_tests_the_integer_parameters():
    """with_variant fills {{NAME}} in statements and starter, and each test's params hold BLOCK and
    STRIDE (launch expressions read them) but not the word LAYOUT; files and hash are unchanged."""
    bound = PACKAGE.with_variant({"BLOCK": 512, "STRIDE": 2, "LAYOUT": "col"})
    assert bound.statement["en"] == "Blocks of 512 threads, stride 2, layout `col`.\n"
    assert bound.statement["ko"] == "block마다 thread 512개, layout `col`.\n"
    assert bound.starter.startswith("#define BLOCK 512\n")
    assert [t.params for t in bound.tests] == [{"n": 5, "BLOCK": 512, "STRIDE": 2}, {"n": 1025, "BLOCK": 512, "STRIDE": 2}]
    assert bound.variant == {"BLOCK": 512, "STRIDE": 2, "LAYOUT": "col"}
    assert bound.content_hash == PACKAGE.content_hash and "{{BLOCK}}" in bound.files["statement.md"]
    # Rebinding starts from the files, not from the rendered text.
    again = bound.with_variant({"BLOCK": 128, "STRIDE": 1, "LAYOUT": "row"})
    assert again.statement["en"].startswith("Blocks of 128 threads, stride 1")
    assert again.tests[1].params == {"n": 1025, "BLOCK": 128, "STRIDE": 1}


def test_unbound_package_judges_its_default_variant():
    """with_variant() of an unbound package binds the first value of each parameter."""
    assert PACKAGE.with_variant().variant == {"BLOCK": 128, "STRIDE": 1, "LAYOUT": "row"}
    assert PACKAGE.with_variant({}).variant == {"BLOCK": 128, "STRIDE": 1, "LAYOUT": "row"}


def test_harness_receives_the_variant():
    """generate(case) sees every variant parameter (words too); a two-argument reference gets the variant."""
    bound = PACKAGE.with_variant({"BLOCK": 256, "STRIDE": 2, "LAYOUT": "col"})
    harness = bound.load_harness()
    inputs = harness.generate(dict(bound.tests[0].params), np.random.default_rng(3))
    assert inputs["_layout"] == "col" and (inputs["b"] == 2).all()
    np.testing.assert_array_equal(harness.reference(inputs)["c"], -(inputs["a"] + inputs["b"]) * 256)


def test_one_argument_reference_still_works():
    """A harness whose reference takes only the inputs is called as before."""
    files = variant_files(**{"harness.py": HARNESS.replace("def reference(inputs, variant):\n    sign = 1 if variant[\"LAYOUT\"] == \"row\" else -1\n    return {\"c\": sign * (inputs[\"a\"] + inputs[\"b\"]) * variant[\"BLOCK\"]}",
                                                           "def reference(inputs):\n    return {\"c\": inputs[\"a\"] + inputs[\"b\"]}")})
    harness = parse_package(files).with_variant().load_harness()
    inputs = harness.generate({"n": 4}, np.random.default_rng(1))
    np.testing.assert_array_equal(harness.reference(inputs)["c"], inputs["a"] + inputs["b"])


@pytest.mark.parametrize("variant", [
    {"BLOCK": 64, "STRIDE": 1, "LAYOUT": "row"},  # a value that is not declared
    {"BLOCK": 128, "STRIDE": 1},  # a parameter missing
    {"BLOCK": 128, "STRIDE": 1, "LAYOUT": "row", "TILE": 4},  # an undeclared parameter
    {"BLOCK": 128, "STRIDE": True, "LAYOUT": "row"},  # True == 1 in Python, but it is no stride
])
def test_a_variant_that_is_not_declared_is_refused(variant):
    """Binding a variant outside the declaration raises PackageError naming problem.yaml's variants."""
    with pytest.raises(PackageError) as info:
        PACKAGE.with_variant(variant)
    assert info.value.file == "problem.yaml" and info.value.field == "variants"


def test_a_package_without_variants_refuses_one():
    """A package that declares no variants cannot be judged as one (and binds to itself otherwise)."""
    plain = parse_package(tiny_package_files())
    assert plain.with_variant() is plain and plain.variants is None
    with pytest.raises(PackageError, match="declares no variants"):
        plain.with_variant({"BLOCK": 128})


@pytest.mark.parametrize(("variants", "field", "fragment"), [
    ("variants: [BLOCK]\n", "variants", "expected a mapping"),
    ("variants: {params: {}}\n", "variants.params", "non-empty mapping"),
    ("variants: {params: {block: [1, 2]}}\n", "variants.params.block", "UPPER_CASE"),
    ("variants: {params: {BLOCK: []}}\n", "variants.params.BLOCK", "non-empty list"),
    ("variants: {params: {BLOCK: 128}}\n", "variants.params.BLOCK", "non-empty list"),
    ("variants: {params: {BLOCK: [128, 128]}}\n", "variants.params.BLOCK", "distinct"),
    ("variants: {params: {BLOCK: [128, row]}}\n", "variants.params.BLOCK", "not both"),
    ("variants: {params: {BLOCK: [true, false]}}\n", "variants.params.BLOCK", "integer or a word"),
    ("variants: {params: {BLOCK: [1.5]}}\n", "variants.params.BLOCK", "integer or a word"),
    ('variants: {params: {LAYOUT: ["{{BLOCK}}"]}}\n', "variants.params.LAYOUT", "no spaces or braces"),
    ('variants: {params: {LAYOUT: ["a b"]}}\n', "variants.params.LAYOUT", "no spaces or braces"),
    ("variants: {params: {BLOCK: [1]}, validate: 0}\n", "variants.validate", "'all' or a positive"),
    ("variants: {params: {BLOCK: [1]}, shuffle: true}\n", "variants", "unknown key"),
])
def test_malformed_declarations_name_the_field(variants, field, fragment):
    """Each bad `variants` declaration raises PackageError with the field path and what is expected."""
    with pytest.raises(PackageError) as info:
        parse_package(tiny_package_files(**{"problem.yaml": PROBLEM_YAML + variants}))
    assert info.value.file == "problem.yaml" and info.value.field == field
    assert fragment in str(info.value)


def test_a_variant_parameter_cannot_shadow_a_test_size():
    """A variant parameter named like a test size would change what launch expressions read: refused."""
    yaml = PROBLEM_YAML.replace("params: {n: 5}", "params: {n: 5, N: 2}") + "variants: {params: {N: [1, 2]}}\n"
    with pytest.raises(PackageError, match="both a variant parameter and a test size"):
        parse_package(tiny_package_files(**{"problem.yaml": yaml}))


def test_an_undeclared_placeholder_is_named_with_its_file():
    """{{TILE}} in a statement when only BLOCK, STRIDE and LAYOUT exist is a typo a student would see."""
    with pytest.raises(PackageError) as info:
        parse_package(variant_files(**{"statement.ko.md": "타일 {{TILE}}"}))
    assert info.value.file == "statement.ko.md" and "{{TILE}}" in str(info.value)
    with pytest.raises(PackageError, match="no variants"):
        parse_package(tiny_package_files(**{"solution.cu": "// {{BLOCK}}\n" + tiny_package_files()["solution.cu"]}))


def test_launch_expressions_are_checked_under_every_variant():
    """A launch that cannot be evaluated for one variant (STRIDE 0: ceil_div by zero) is refused at parse time."""
    yaml = YAML.replace("STRIDE: [1, 2]", "STRIDE: [1, 0]")
    with pytest.raises(PackageError) as info:
        parse_package(variant_files(**{"problem.yaml": yaml}))
    assert info.value.field == "launch" and "'STRIDE': 0" in str(info.value)


def test_rendering_substitutes_once_and_only_declared_names():
    """A value is never scanned again, undeclared names stay, and C's {{1, 2}} is left alone."""
    assert render_template("{{A}}{{B}}", {"A": "B"}) == "B{{B}}"
    assert render_template("int m[2][2] = {{1, 2}, {3, 4}}; {{ A }}", {"A": 7}) == "int m[2][2] = {{1, 2}, {3, 4}}; 7"


def test_validation_set_samples_every_value():
    """validate: N judges N combinations that include the default and every value of each parameter."""
    spec = parse_variants({"params": {"BLOCK": [128, 256, 512], "STRIDE": [1, 2], "LAYOUT": ["row", "col"]},
                           "validate": 3})
    chosen = spec.validation_set()
    assert len(chosen) == 3 and chosen[0] == spec.default()
    for name, values in spec.params.items():
        assert {v[name] for v in chosen} == set(values), name
    assert len(VariantSpec(params=spec.params, validate=None).validation_set()) == 12
    assert parse_variants({"params": {"BLOCK": [1, 2]}, "validate": "all"}).validate is None
