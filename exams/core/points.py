"""How an amount of points is written: on the exam pages, the printed forms and the gradebook CSVs.

At most two decimals, without trailing zeros (2.5, 2.25, 3; 1/3 is 0.33), rounded half up as
Django's floatformat rounds; the decimal point is "." in English and Korean alike. The plural form
that goes with the amount is chosen from the amount as written, so "1 point" is said of whatever
prints as 1.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

# Two decimals: a quarter point is the finest step an exam template usually gives, and partial
# credit of a third (0.333...) reads 0.33.
CENTS = Decimal("0.01")


def rounded_points(value) -> Decimal | None:
    """`value` (a number, or its text) rounded half up to two decimals, trailing zeros dropped
    (Decimal("2.5"), Decimal("3")); None for a value that is not a finite number."""
    try:
        number = Decimal(repr(value) if isinstance(value, float) else str(value))
    except (InvalidOperation, TypeError, ValueError):
        return None
    if not number.is_finite():
        return None
    shown = number.quantize(CENTS, rounding=ROUND_HALF_UP)
    # normalize() would write 10 as 1E+1; quantizing to 1 keeps a whole number's digits.
    return shown.quantize(Decimal(1)) if shown == shown.to_integral_value() else shown.normalize()


def format_points(value) -> str:
    """An amount of points as text: 2.5 -> "2.5", 2.25 -> "2.25", 3.0 -> "3", 0.333333 -> "0.33",
    -0.001 -> "0"; "" for None or a value that is not a number."""
    shown = rounded_points(value)
    if shown is None:
        return ""
    return "0" if shown == 0 else format(shown, "f")


def points_plural(value) -> int:
    """The whole number that picks the plural form for an amount of points (gettext's ngettext wants
    an integer), from the amount as format_points writes it: 1 and 1.0 (and 0.999, written 1) -> 1,
    a whole amount -> itself, any fraction -> 2 (English says "0.5 points" and "1.5 points"; Korean
    has one form); 2 for a value that is not a number."""
    shown = rounded_points(value)
    if shown is None:
        return 2
    return int(shown) if shown == shown.to_integral_value() else 2
