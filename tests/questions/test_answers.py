"""The forgiving answer parser: what it accepts, what it rejects, and the messages it gives."""
import pytest

from practice.core.answers import (
    AnswerFormatError,
    Choice,
    Field,
    FieldKind,
    grade,
    parse_choice,
    parse_integer,
    parse_number,
    parse_response,
)

INT = Field("blocks", FieldKind.INTEGER, {"en": "Blocks", "ko": "block"})
BYTES = Field("dyn", FieldKind.INTEGER, {"en": "Bytes", "ko": "byte"}, unit="bytes")
MASK = Field("mask", FieldKind.INTEGER, {"en": "Mask", "ko": "mask"}, unit="hex")
OCC = Field("occ", FieldKind.NUMBER, {"en": "Occupancy", "ko": "occupancy"}, abs_tol=0.005, fraction=True)
NUM = Field("x", FieldKind.NUMBER, {"en": "x", "ko": "x"}, rel_tol=0.01)
CHOICE = Field("lim", FieldKind.CHOICE, {"en": "Limiter", "ko": "제한"},
               choices=(Choice("warps", {"en": "warps", "ko": "warp 수"}),
                        Choice("registers", {"en": "registers", "ko": "register"})))


@pytest.mark.parametrize("text", ["0.833", "83.3 %", "83.3%", "5/6", " 0.8333 ", "83.3", "0,833", ".833"])
def test_occupancy_forms(text):
    """0.833, 83.3 %, 83.3%, 5/6 (and a bare 83.3 for a fraction field) all mean five sixths."""
    assert parse_number(OCC, text) == pytest.approx(5 / 6, abs=0.001)


@pytest.mark.parametrize(("text", "value"), [(" 6 ", 6), ("6", 6), ("1,024", 1024), ("1_024", 1024), ("6.0", 6),
                                             ("0x1F", 31), ("0b101", 5), ("2^5 - 1", 31), ("2**4", 16), ("1 << 4", 16)])
def test_integer_forms(text, value):
    assert parse_integer(INT, text) == value


@pytest.mark.parametrize(("text", "value"), [("46080", 46080), ("45 KiB", 46080), ("45KB", 46080), ("512 B", 512),
                                             ("1,024 bytes", 1024)])
def test_byte_forms(text, value):
    assert parse_integer(BYTES, text) == value


def test_hex_mask():
    assert parse_integer(MASK, "0x0000FFFF") == 0xFFFF
    assert parse_integer(MASK, "65535") == 0xFFFF


@pytest.mark.parametrize("text", ["", "   ", "six", "6.5", "5/2", "1e400", "__import__('os')", "2**100000", "6 blocks"])
def test_integer_rejects_with_the_expected_format(text):
    with pytest.raises(AnswerFormatError) as exc:
        parse_integer(INT, text)
    assert "whole number" in exc.value.text("en")
    assert "정수" in exc.value.text("ko")


@pytest.mark.parametrize("text", ["", "abc", "1/0", "150 %", "-0.5", "nan", "inf"])
def test_fraction_rejects(text):
    with pytest.raises(AnswerFormatError) as exc:
        parse_number(OCC, text)
    assert "0.833" in exc.value.text("en")


def test_choice_forms():
    assert parse_choice(CHOICE, "registers") == "registers"
    assert parse_choice(CHOICE, "(b)") == "registers"
    assert parse_choice(CHOICE, "B)") == "registers"
    assert parse_choice(CHOICE, "2") == "registers"
    assert parse_choice(CHOICE, "Warps") == "warps"
    assert parse_choice(CHOICE, "warp 수") == "warps"
    with pytest.raises(AnswerFormatError):
        parse_choice(CHOICE, "shared memory")


def test_parse_response_collects_every_error_and_grade_needs_all_fields():
    values, errors = parse_response([INT, OCC], {"blocks": "5", "occ": "lots"})
    assert values == {"blocks": 5} and [e.field for e in errors] == ["occ"]
    values, errors = parse_response([INT, OCC], {"blocks": "5", "occ": "83 %"})
    assert not errors
    g = grade([INT, OCC], {"blocks": 5, "occupancy": 0, "occ": 5 / 6}, values)
    assert g.correct and g.fields == {"blocks": True, "occ": True}
    g = grade([INT, OCC], {"blocks": 6, "occ": 5 / 6}, values)
    assert not g.correct and g.fields == {"blocks": False, "occ": True}


def test_tolerances():
    assert grade([OCC], {"occ": 5 / 6}, {"occ": 0.83}).correct
    assert not grade([OCC], {"occ": 5 / 6}, {"occ": 0.8}).correct
    assert grade([NUM], {"x": 100.0}, {"x": 100.9}).correct
    assert not grade([NUM], {"x": 100.0}, {"x": 102}).correct


def test_fields_round_trip_through_json():
    for f in (INT, BYTES, OCC, CHOICE):
        assert Field.from_dict(f.to_dict()) == f


def test_overlong_input_is_a_format_error():
    _, errors = parse_response([INT], {"blocks": "9" * 500})
    assert errors
