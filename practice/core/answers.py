"""Answer fields of generated questions: forgiving parsing, clear format errors, grading.

Plain Python, no Django. A question declares its answer as `Field`s (an exact integer, a number with
a tolerance, or one of several choices); a response is a mapping of field name -> the text typed.
`parse_response` turns the text into values or per-field `AnswerFormatError`s — an unparseable answer
is not graded and costs no attempt. `grade` compares parsed values with the key.

Accepted forms (surrounding spaces are ignored everywhere):
  integer  "6", "1,024", "1_024", "0x1F" / "0b101" (hex, binary), "6.0", "2^5 - 1", "45 KiB" (bytes fields)
  number   "0.833", "83.3 %", "83.3%", "5/6"; a fraction field (0..1) also takes "83.3" as a percentage
  choice   the option's key ("b", "(b)", "B)"), its number ("2") or its text
"""
from __future__ import annotations

import ast
import enum
import math
import operator
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

Text = dict[str, str]  # language -> text


class FieldKind(enum.StrEnum):
    """What an answer field holds."""

    INTEGER = "integer"  # an exact whole number
    NUMBER = "number"  # a real number compared with a tolerance
    CHOICE = "choice"  # the key of one option


class AnswerFormatError(ValueError):
    """The response to one field cannot be read; `message` says the expected format (per language)."""

    def __init__(self, field_name: str, message: Text):
        super().__init__(message.get("en", ""))
        self.field = field_name
        self.message = message

    def text(self, lang: str = "en") -> str:
        return self.message.get(lang, self.message["en"])


@dataclass(frozen=True)
class Choice:
    key: str  # "a", "b", ... or a stable word ("race")
    label: Text  # what the student reads, per language
    code: bool = False  # the label is code (shown in a monospace font)

    def to_dict(self) -> dict:
        return {"key": self.key, "label": dict(self.label), "code": self.code}


@dataclass(frozen=True)
class Field:
    """One answer input. Stored with the variant (to_dict/from_dict) so grading never needs the generator."""

    name: str
    kind: FieldKind
    label: Text
    choices: tuple[Choice, ...] = ()
    abs_tol: float = 0.0  # NUMBER: |given - expected| <= abs_tol ...
    rel_tol: float = 0.0  # ... or <= rel_tol * |expected|
    fraction: bool = False  # NUMBER in 0..1 that may be typed as a percentage
    unit: str = ""  # "bytes": INTEGER accepting B/KB/KiB suffixes; "hex": shown as a hint only

    def to_dict(self) -> dict:
        return {
            "name": self.name, "kind": str(self.kind), "label": dict(self.label),
            "choices": [c.to_dict() for c in self.choices], "abs_tol": self.abs_tol, "rel_tol": self.rel_tol,
            "fraction": self.fraction, "unit": self.unit,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Field:
        return cls(
            name=d["name"], kind=FieldKind(d["kind"]), label=dict(d["label"]),
            choices=tuple(Choice(c["key"], dict(c["label"]), c.get("code", False)) for c in d.get("choices", [])),
            abs_tol=d.get("abs_tol", 0.0), rel_tol=d.get("rel_tol", 0.0), fraction=d.get("fraction", False),
            unit=d.get("unit", ""),
        )

    def hint(self, lang: str = "en") -> str:
        """The expected format, shown under the input."""
        return _HINTS[self._hint_key()].get(lang, _HINTS[self._hint_key()]["en"])

    def _hint_key(self) -> str:
        if self.kind is FieldKind.CHOICE:
            return "choice"
        if self.kind is FieldKind.NUMBER:
            return "fraction" if self.fraction else "number"
        return {"bytes": "bytes", "hex": "hex"}.get(self.unit, "integer")

    def format_value(self, value: Any, lang: str = "en") -> str:
        """A value of this field as a student reads it (the key shown after grading)."""
        if self.kind is FieldKind.CHOICE:
            for c in self.choices:
                if c.key == value:
                    return c.label.get(lang, c.label["en"])
            return str(value)
        if self.kind is FieldKind.NUMBER:
            if self.fraction:
                return f"{value:.3f} ({value * 100:.1f} %)"
            return f"{value:g}"
        if self.unit == "hex":
            return f"0x{int(value):08X} ({int(value)})"
        if self.unit == "bytes":
            return f"{int(value)} B" + (f" ({int(value) / 1024:g} KiB)" if int(value) >= 1024 else "")
        return str(value)


_HINTS: dict[str, Text] = {
    "integer": {"en": "A whole number, e.g. 6 or 1024.", "ko": "정수로 쓰세요. 예: 6, 1024"},
    "bytes": {"en": "Bytes as a whole number, e.g. 46080 (or 45 KiB).",
              "ko": "byte 단위 정수로 쓰세요. 예: 46080 (또는 45 KiB)"},
    "hex": {"en": "A 32-bit mask, e.g. 0x0000FFFF (decimal works too).",
            "ko": "32-bit mask로 쓰세요. 예: 0x0000FFFF (10진수도 됩니다)"},
    "number": {"en": "A number, e.g. 2.5 or 5/2.", "ko": "숫자로 쓰세요. 예: 2.5 또는 5/2"},
    "fraction": {"en": "A fraction or a percentage, e.g. 0.833, 83.3 % or 5/6.",
                 "ko": "비율이나 백분율로 쓰세요. 예: 0.833, 83.3 %, 5/6"},
    "choice": {"en": "Pick one option.", "ko": "보기 하나를 고르세요."},
}

_EMPTY: Text = {"en": "This field is empty. {hint}", "ko": "답이 비어 있습니다. {hint}"}
_BAD: Text = {"en": "“{text}” is not a valid answer here. {hint}", "ko": "“{text}”은(는) 올바른 형식이 아닙니다. {hint}"}
_RANGE: Text = {"en": "“{text}” is out of range. {hint}", "ko": "“{text}”은(는) 범위를 벗어났습니다. {hint}"}


def _error(f: Field, template: Text, text: str = "") -> AnswerFormatError:
    shown = text if len(text) <= 40 else text[:37] + "..."
    return AnswerFormatError(f.name, {lang: template[lang].format(text=shown, hint=f.hint(lang)) for lang in template})


# ---- integers -------------------------------------------------------------------------------

_INT_CHARS = re.compile(r"^[0-9a-fA-FxXbBoO+\-*^() <]+$")
_THOUSANDS = re.compile(r"^\d{1,3}(,\d{3})+$")
_UNIT = re.compile(r"^(?P<num>.*?)\s*(?P<unit>kib|kb|k|bytes|byte|b)$", re.IGNORECASE)
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Pow: operator.pow,
        ast.LShift: operator.lshift}


def _eval_int(node: ast.AST) -> int:
    """Whole-number arithmetic only: literals, + - * ** <<, unary minus; small exponents."""
    if isinstance(node, ast.Expression):
        return _eval_int(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _eval_int(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _eval_int(node.left), _eval_int(node.right)
        if isinstance(node.op, (ast.Pow, ast.LShift)) and not (0 <= right <= 64):
            raise ValueError("exponent out of range")
        return _OPS[type(node.op)](left, right)
    raise ValueError("not whole-number arithmetic")


def parse_integer(f: Field, text: str) -> int:
    s = text.strip()
    if not s:
        raise _error(f, _EMPTY)
    scale = 1
    if f.unit == "bytes":
        m = _UNIT.match(s)
        if m and m.group("num").strip():
            s = m.group("num").strip()
            scale = 1024 if m.group("unit").lower() in ("kib", "kb", "k") else 1
    if _THOUSANDS.match(s):
        s = s.replace(",", "")
    s = s.replace("_", "").replace("−", "-").replace("×", "*")
    # "6.0" is forgiven; "6.5" is not a whole number.
    if re.fullmatch(r"[+-]?\d+\.\d*", s):
        value = float(s) * scale
        if value != int(value):
            raise _error(f, _BAD, text.strip())
        return int(value)
    if not _INT_CHARS.match(s):
        raise _error(f, _BAD, text.strip())
    try:
        value = _eval_int(ast.parse(s.replace("^", "**"), mode="eval"))
    except (SyntaxError, ValueError, TypeError, OverflowError):
        raise _error(f, _BAD, text.strip()) from None
    if abs(value) > 2**64:
        raise _error(f, _RANGE, text.strip())
    return value * scale


# ---- numbers --------------------------------------------------------------------------------

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def parse_number(f: Field, text: str) -> float:
    s = text.strip().replace("−", "-")
    if _THOUSANDS.match(s) and not s.startswith("0,"):
        s = s.replace(",", "")
    elif s.count(",") == 1 and "." not in s:
        s = s.replace(",", ".")  # a decimal comma
    if not s:
        raise _error(f, _EMPTY)
    percent = s.endswith("%")
    if percent:
        s = s[:-1].strip()
    if "/" in s:
        num, _, den = s.partition("/")
        if not (_NUMBER.match(num.strip()) and _NUMBER.match(den.strip())) or float(den) == 0:
            raise _error(f, _BAD, text.strip())
        value = float(num) / float(den)
    elif _NUMBER.match(s):
        value = float(s)
    else:
        raise _error(f, _BAD, text.strip())
    if not math.isfinite(value):
        raise _error(f, _BAD, text.strip())
    if percent:
        value /= 100
    elif f.fraction and 1 < value <= 100:
        value /= 100  # "83.3" for an occupancy is a percentage
    if f.fraction and not (0 <= value <= 1):
        raise _error(f, _RANGE, text.strip())
    return value


# ---- choices --------------------------------------------------------------------------------


def parse_choice(f: Field, text: str) -> str:
    s = text.strip()
    if not s:
        raise _error(f, _EMPTY)
    bare = s.strip("()[]. ").rstrip(")").strip().lower()
    for c in f.choices:
        if bare == c.key.lower():
            return c.key
    if bare.isdigit() and 1 <= int(bare) <= len(f.choices):
        return f.choices[int(bare) - 1].key
    if len(bare) == 1 and "a" <= bare <= "z" and ord(bare) - ord("a") < len(f.choices):
        return f.choices[ord(bare) - ord("a")].key
    for c in f.choices:
        if any(bare == label.strip().lower() for label in c.label.values()):
            return c.key
    raise _error(f, _BAD, s)


_PARSERS = {FieldKind.INTEGER: parse_integer, FieldKind.NUMBER: parse_number, FieldKind.CHOICE: parse_choice}


def parse_response(fields: list[Field] | tuple[Field, ...], raw: Mapping[str, Any]) -> tuple[dict, list[AnswerFormatError]]:
    """Parse every field; returns (values, errors). Any error means: do not grade, do not count an attempt."""
    values: dict[str, Any] = {}
    errors: list[AnswerFormatError] = []
    for f in fields:
        text = raw.get(f.name)
        text = "" if text is None else str(text)
        if len(text) > 200:
            errors.append(_error(f, _BAD, text))
            continue
        try:
            values[f.name] = _PARSERS[f.kind](f, text)
        except AnswerFormatError as exc:
            errors.append(exc)
    return values, errors


@dataclass(frozen=True)
class Grade:
    correct: bool
    fields: dict[str, bool] = field(default_factory=dict)  # per field: right or wrong


def field_correct(f: Field, expected: Any, given: Any) -> bool:
    if f.kind is FieldKind.NUMBER:
        tol = max(f.abs_tol, f.rel_tol * abs(float(expected)))
        return abs(float(given) - float(expected)) <= tol + 1e-12
    if f.kind is FieldKind.INTEGER:
        return int(given) == int(expected)
    return str(given) == str(expected)


def grade(fields: list[Field] | tuple[Field, ...], expected: Mapping[str, Any], values: Mapping[str, Any]) -> Grade:
    """Right only when every field is right. Precondition: `values` came from parse_response without errors."""
    per = {f.name: field_correct(f, expected[f.name], values[f.name]) for f in fields}
    return Grade(all(per.values()), per)
