"""Variant parameters of a kernel problem: one package, a different kernel task per student.

A package may declare, in problem.yaml,

    variants:
      params:
        BLOCK: [128, 256, 512]     # integers: launch expressions and the harness read them too
        LAYOUT: [row, col]         # words: the statement, the sources and the harness read them
      validate: all                # or an integer N: validate_problem judges N sampled combinations

A variant is one value per parameter ({"BLOCK": 256, "LAYOUT": "col"}), drawn from a seed like a
generated question's params and stored with the attempt or submission, so a later edit of the
package never changes what a student was given. Text files (statement*.md, starter.cu,
solution.cu, wrong/*.cu) name a parameter as ``{{BLOCK}}``; `render_template` substitutes the
declared names only, once, with values restricted to a small character set: nothing in a value
is ever interpreted again, so a value cannot inject template syntax, Markdown, HTML or C.

Plain Python, no Django. Errors are PackageError subclasses from package.py (file and field named).
"""
from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from typing import Union

VariantValue = Union[int, str]

NAME_RE = re.compile(r"^[A-Z][A-Z0-9_]{0,31}$")
# Words a value may be: letters, digits, '_', '.', '-' (no braces, quotes, spaces, '$' or '<').
WORD_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}$")
PLACEHOLDER_RE = re.compile(r"\{\{\s*([A-Z][A-Z0-9_]{0,31})\s*\}\}")
MAX_VALUES = 16  # per parameter
MAX_COMBINATIONS = 4096
DEFAULT_VALIDATE_SAMPLE = 8  # combinations validate_problem judges when `validate` is not given


class VariantDeclarationError(ValueError):
    """problem.yaml's `variants` is malformed; `field` names where ("variants.params.BLOCK")."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(message)


@dataclass(frozen=True)
class VariantSpec:
    """The declared variant parameters of a package."""

    params: dict[str, tuple[VariantValue, ...]]  # name -> allowed values, in declaration order
    validate: int | None = None  # combinations validate_problem judges; None = every combination

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.params)

    def count(self) -> int:
        """How many distinct variants there are (product of the value counts)."""
        total = 1
        for values in self.params.values():
            total *= len(values)
        return total

    def combinations(self) -> list[dict[str, VariantValue]]:
        """Every variant, in a stable order (the first value of each parameter first)."""
        names = list(self.params)
        return [dict(zip(names, values)) for values in itertools.product(*(self.params[n] for n in names))]

    def default(self) -> dict[str, VariantValue]:
        """The variant made of each parameter's first value (what a judge without a stored variant uses)."""
        return {name: values[0] for name, values in self.params.items()}

    def draw(self, seed: int | str, salt: str = "") -> dict[str, VariantValue]:
        """The variant for `seed` (e.g. derived from (exam, student)): the same seed always gives the same
        variant; `salt` (e.g. the slug) makes two problems drawn from one seed independent."""
        rng = random.Random(f"variant/{salt}/{seed}")
        return {name: rng.choice(values) for name, values in self.params.items()}

    def validation_set(self, seed: int = 0) -> list[dict[str, VariantValue]]:
        """The variants validate_problem judges: all of them, or a seeded sample of `validate` that always
        holds the default variant and, per parameter, every value at least once where the sample allows."""
        every = self.combinations()
        if self.validate is None or self.validate >= len(every):
            return every
        rng = random.Random(f"validate/{seed}")
        chosen = [every[0]]
        widest = max(len(v) for v in self.params.values())
        for k in range(1, widest):  # cover each value of each parameter (diagonal walk)
            chosen.append({n: vals[k % len(vals)] for n, vals in self.params.items()})
        rest = [v for v in every if v not in chosen]
        rng.shuffle(rest)
        chosen += rest
        return chosen[: self.validate]

    def check(self, variant: dict) -> dict[str, VariantValue]:
        """`variant` itself when it gives every declared parameter one of its values; else ValueError."""
        if not isinstance(variant, dict):
            raise ValueError(f"a variant is a mapping of parameter to value, not {type(variant).__name__}")
        missing = [n for n in self.params if n not in variant]
        unknown = [n for n in variant if n not in self.params]
        if missing or unknown:
            raise ValueError(f"variant {variant!r}: missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
        for name, value in variant.items():
            if value not in self.params[name] or isinstance(value, bool):
                raise ValueError(f"variant {variant!r}: {name} must be one of {list(self.params[name])}")
        return {n: variant[n] for n in self.params}


def parse_variants(raw) -> VariantSpec | None:
    """problem.yaml's `variants` mapping parsed, or None when absent. Raises VariantDeclarationError."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise VariantDeclarationError("variants", "expected a mapping {params: {NAME: [values]}, validate: all | N}")
    unknown = set(raw) - {"params", "validate"}
    if unknown:
        raise VariantDeclarationError("variants", f"unknown key(s) {sorted(unknown)}: expected params, validate")
    params_raw = raw.get("params")
    if not isinstance(params_raw, dict) or not params_raw:
        raise VariantDeclarationError("variants.params", "expected a non-empty mapping of NAME to a list of values")
    params: dict[str, tuple[VariantValue, ...]] = {}
    for name, values in params_raw.items():
        where = f"variants.params.{name}"
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise VariantDeclarationError(where, "a parameter name is UPPER_CASE: a capital letter, then capitals, "
                                                 "digits or '_' (at most 32)")
        if not isinstance(values, list) or not values:
            raise VariantDeclarationError(where, "expected a non-empty list of values, e.g. [128, 256, 512]")
        if len(values) > MAX_VALUES:
            raise VariantDeclarationError(where, f"at most {MAX_VALUES} values")
        kinds = set()
        for value in values:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise VariantDeclarationError(where, f"{value!r}: a value is an integer or a word")
            if isinstance(value, int) and not -2**31 <= value < 2**31:
                raise VariantDeclarationError(where, f"{value}: an integer value fits in 32 bits")
            if isinstance(value, str) and not WORD_RE.match(value):
                raise VariantDeclarationError(where, f"{value!r}: a word is letters, digits, '_', '.' or '-' "
                                                     "(at most 32, no spaces or braces)")
            kinds.add(type(value))
        if len(kinds) > 1:
            raise VariantDeclarationError(where, "values are all integers or all words, not both")
        if len(set(values)) != len(values):
            raise VariantDeclarationError(where, "values must be distinct")
        params[name] = tuple(values)
    spec = VariantSpec(params=params)
    if spec.count() > MAX_COMBINATIONS:
        raise VariantDeclarationError("variants.params", f"{spec.count()} combinations: at most {MAX_COMBINATIONS}")
    validate = raw.get("validate", DEFAULT_VALIDATE_SAMPLE)
    if validate == "all":
        validate = None
    elif isinstance(validate, bool) or not isinstance(validate, int) or validate < 1:
        raise VariantDeclarationError("variants.validate", "expected 'all' or a positive number of combinations")
    return VariantSpec(params=params, validate=validate)


def placeholders(text: str) -> set[str]:
    """The parameter names a text refers to as {{NAME}}."""
    return set(PLACEHOLDER_RE.findall(text))


def render_template(text: str, variant: dict[str, VariantValue]) -> str:
    """`text` with each {{NAME}} of `variant` replaced by its value (once; names not in `variant` stay).

    Values are integers or words of WORD_RE (checked by parse_variants and VariantSpec.check), and the
    result is never scanned again, so a value cannot introduce a placeholder or markup of its own.
    """
    def replace(match: re.Match) -> str:
        name = match.group(1)
        return str(variant[name]) if name in variant else match.group(0)

    return PLACEHOLDER_RE.sub(replace, text)
