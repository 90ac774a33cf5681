"""A package's harness.py as loaded functions, and the same functions handed one variant."""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable

from ..variants import VariantValue


@dataclass
class Harness:
    """The package's harness.py, loaded. Instructors are trusted: it runs in the judge process."""

    generate: Callable[[dict, Any], dict]  # (case params, numpy Generator) -> {arg name: value}
    reference: Callable[[dict], dict]  # (inputs) -> {output arg name: expected ndarray}


def takes_variant(fn) -> bool:
    """Whether `fn` accepts a second positional argument (the variant dict): two or more
    positional parameters or a *args. False when its signature cannot be read (some builtins).
    Self-contained (only `inspect`): the sandboxed harness runner embeds its source."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in params)


def harness_for_variant(harness: Harness, variant: dict[str, VariantValue]) -> Harness:
    """`harness` with the variant handed to it: in generate()'s case dict, and to a two-argument reference()."""
    generate, reference = harness.generate, harness.reference
    frozen = dict(variant)

    def generate_variant(case: dict, rng):
        return generate({**case, **frozen}, rng)

    if takes_variant(reference):
        def reference_variant(inputs: dict):
            return reference(inputs, dict(frozen))
    else:
        reference_variant = reference
    return Harness(generate=generate_variant, reference=reference_variant)
