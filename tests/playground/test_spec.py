"""Argument specs, initialisers, launches and kernel names of the playground (no database)."""
import numpy as np
import pytest

from grader.core import messages as M
from playground.core import spec as S
from playground.core.errors import PlaygroundSpecError


def rows(*extra):
    return [{"name": "out", "kind": "output", "dtype": "float32", "size": "8"}, *extra]


def test_rows_parse_in_order_with_kinds_dtypes_shapes_and_an_empty_row_skipped():
    args = S.parse_arguments([{"name": "x", "kind": "input", "dtype": "int16", "size": "4x6", "init": "range"}, {},
                              {"name": "y", "kind": "output", "size": "10"},
                              {"name": "n", "kind": "scalar", "dtype": "int64", "value": "10"}])
    assert [(a.name, a.kind, a.dtype, a.shape) for a in args] == [
        ("x", S.ArgKind.INPUT, "int16", (4, 6)), ("y", S.ArgKind.OUTPUT, "float32", (10,)),
        ("n", S.ArgKind.SCALAR, "int64", ())]
    assert [str(a.arg_spec().role) for a in args] == ["in", "inout", "scalar"]  # outputs keep their initial values
    assert args[2].value == 10


def test_initialisers_zeros_range_values_and_seeded_random():
    zeros, ramp, typed, rand, rand_int = S.parse_arguments([
        {"name": "a", "kind": "output", "dtype": "float64", "size": "3", "init": "zeros"},
        {"name": "b", "kind": "output", "dtype": "int32", "size": "2x3", "init": "range"},
        {"name": "c", "kind": "input", "dtype": "int8", "init": "values", "value": "1, -2 3;4"},
        {"name": "d", "kind": "input", "dtype": "float32", "size": "5", "init": "random", "value": "7"},
        {"name": "e", "kind": "input", "dtype": "uint32", "size": "1000", "init": "random", "value": "7"}])
    assert S.initial_value(zeros).tolist() == [0.0, 0.0, 0.0]
    assert S.initial_value(ramp).tolist() == [[0, 1, 2], [3, 4, 5]] and S.initial_value(ramp).dtype == np.int32
    assert typed.shape == (4,) and S.initial_value(typed).tolist() == [1, -2, 3, 4]
    first, again = S.initial_value(rand), S.initial_value(rand)
    assert first.dtype == np.float32 and np.array_equal(first, again) and ((0 <= first) & (first < 1)).all()
    assert not np.array_equal(first, S.initial_value(S.parse_arguments(
        [{"name": "d", "kind": "output", "size": "5", "init": "random", "value": "8"}])[0]))
    ints = S.initial_value(rand_int)
    assert ints.dtype == np.uint32 and ints.min() >= 0 and ints.max() < 100


@pytest.mark.parametrize("row, field, words", [
    ({"name": "1x"}, "args.1.name", "not a C identifier"),
    ({"name": "a" * 33}, "args.1.name", "not a C identifier"),
    ({"name": "x", "kind": "pointer"}, "args.1.kind", "kind pointer"),
    ({"name": "x", "dtype": "complex64", "size": "4"}, "args.1.dtype", "complex64 is not one of"),
    ({"name": "x", "dtype": "object", "size": "4"}, "args.1.dtype", "object is not one of"),
    ({"name": "x", "size": "-4"}, "args.1.size", "not a count"),
    ({"name": "x", "size": "4x4x4"}, "args.1.size", "not a count"),
    ({"name": "x", "size": "2000000"}, "args.1.size", "1 to 1048576"),
    ({"name": "x", "size": "2048x2048"}, "args.1.size", "1 to 1048576"),
    ({"name": "x", "size": "0"}, "args.1.size", "1 to 1048576"),
    ({"name": "x", "size": "100000000"}, "args.1.size", "100000000 elements; an array has 1 to 1048576"),
    ({"name": "x", "size": "1" + "0" * 20}, "args.1.size", "elements; an array has 1 to 1048576"),
    ({"name": "x", "size": "100000x100000"}, "args.1.size", "10000000000 elements; an array has 1 to"),
    ({"name": "x", "size": "4", "init": "ones"}, "args.1.init", "initialiser ones"),
    ({"name": "x", "size": "4", "init": "random", "value": "-1"}, "args.1.value", "seed -1"),
    ({"name": "x", "size": "3", "init": "values", "value": "1 2"}, "args.1.value", "2 values typed for 3"),
    ({"name": "x", "dtype": "uint8", "init": "values", "value": "1 300"}, "args.1.value", "300 is not a number of type uint8"),
    ({"name": "x", "dtype": "int32", "init": "values", "value": "1.5"}, "args.1.value", "1.5 is not a number"),
    ({"name": "x", "init": "values", "value": "1 " * 5000}, "args.1.value", "at most 4096 values"),
    ({"name": "x", "kind": "scalar"}, "args.1.value", "needs a value"),
    ({"name": "x", "kind": "scalar", "dtype": "int32", "value": "99999999999"}, "args.1.value", "not a number"),
    ({"name": "out", "size": "4"}, "args.1.name", "used twice"),
    ({"name": ["x"]}, "args.1.name", "not a C identifier"),
])
def test_a_bad_row_is_refused_naming_its_field(row, field, words):
    with pytest.raises(PlaygroundSpecError) as caught:
        S.parse_arguments(rows(row))
    assert caught.value.field == field and words in str(caught.value)


def test_limits_on_the_number_of_arguments_the_total_bytes_and_an_output_is_required():
    with pytest.raises(PlaygroundSpecError, match="At most 8 arguments"):
        S.parse_arguments([{"name": f"a{i}", "kind": "output", "size": "1"} for i in range(9)])
    big = [{"name": f"a{i}", "kind": "output", "dtype": "float64", "size": "1048576"} for i in range(2)]
    assert len(S.parse_arguments(big)) == 2  # 16 MiB exactly is allowed
    with pytest.raises(PlaygroundSpecError, match="24.0 MiB together; the playground allows 16 MiB"):
        S.parse_arguments(big + [{"name": "b", "kind": "input", "dtype": "float64", "size": "1048576"}])
    with pytest.raises(PlaygroundSpecError, match="at least one output array"):
        S.parse_arguments([{"name": "x", "kind": "input", "size": "4"}])
    with pytest.raises(PlaygroundSpecError):
        S.parse_arguments("not a list")


def test_a_row_round_trips_through_to_dict():
    args = S.parse_arguments(rows({"name": "v", "kind": "input", "dtype": "float32", "init": "values", "value": "0.5 2"},
                                  {"name": "r", "kind": "input", "size": "3x2", "init": "random", "value": "5"}))
    assert S.parse_arguments([a.to_dict() for a in args]) == args


def test_launch_expressions_name_integer_scalars_and_unsafe_launches_are_refused():
    args = S.parse_arguments(rows({"name": "n", "kind": "scalar", "dtype": "int32", "value": "1000"},
                                  {"name": "f", "kind": "scalar", "dtype": "float32", "value": "2.5"}))
    launch = S.parse_launch("ceil_div(n, 256)", "256", "", args)
    assert launch.grid == (4, 1, 1) and launch.block == (256, 1, 1) and launch.shared_bytes == 0
    assert S.parse_launch("2, 3", "16, 16", "1024", args).grid == (2, 3, 1)
    cases = [(("1", "2048", ""), "launch.block", "2048 threads per block"),
             (("1", "1, 1, 65", ""), "launch.block", "blockDim.z = 65"),
             (("5000", "1024", ""), "launch.grid", "at most 1048576"),
             (("1", "32", "65536"), "launch.shared_bytes", "65536 bytes"),
             (("f", "32", ""), "launch.grid", "f"),
             (("__import__('os')", "32", ""), "launch.grid", "grid")]
    for fields, field, words in cases:
        with pytest.raises(PlaygroundSpecError) as caught:
            S.parse_launch(*fields, args)
        assert caught.value.field == field and words in str(caught.value), (fields, str(caught.value))


def test_the_kernel_is_the_first_global_function_unless_named():
    source = "__device__ int helper(int x) { return x; }\n" \
             "template <int B> __global__ void __launch_bounds__(256) scan_kernel(float* a) {}\n" \
             "__global__ void other(int* b) {}\n"
    assert S.kernel_name(source) == "scan_kernel"
    assert S.kernel_name(source, " other ") == "other"
    with pytest.raises(PlaygroundSpecError, match="No __global__ function"):
        S.kernel_name("__device__ void f() {}")
    with pytest.raises(PlaygroundSpecError, match="not a C identifier"):
        S.kernel_name(source, "a b")


def test_sources_built_against_a_backtracking_pattern_are_refused():
    """Each of these took a backtracking pattern seconds (26 s for the first); the scan is linear."""
    for source in ("__global__ a a a a a a a a a a\n" * 3000, "__global__ " + "__launch_bounds__(" * 3000,
                   "__launch_bounds__(" * 3000, "__global__ " + "a " * 30000):
        with pytest.raises(PlaygroundSpecError):
            S.kernel_name(source)


def test_a_refusal_carries_its_message_as_a_code_and_parameters():
    """The error is data: a catalogue code and its parameters, rendered in the reader's language at the
    edge (a Korean table stands in for gettext here); as an exception its text is the English."""
    with pytest.raises(PlaygroundSpecError) as caught:
        S.parse_arguments([{"name": f"a{i}", "kind": "output", "size": "1"} for i in range(9)])
    message = caught.value.message
    assert message.to_dict() == {"code": "PLAYGROUND.too_many", "params": {"max": 8}}
    assert str(caught.value) == "At most 8 arguments."
    assert message.render({M.PLAYGROUND["too_many"]: "인자는 %(max)s개까지입니다."}.get) == "인자는 8개까지입니다."
