"""The words printed on a form and its key, in English and Korean (합니다체; the CUDA field terms in
English, a kernel 커널: docs/content.md, "Korean wording").

Generated content (prompts, solutions) carries its own languages; these are the sheet's labels.
The core imports no Django, so its catalogue is a table of data (labels.json), read once at import.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..points import format_points, points_plural

# key -> {language: text}, from labels.json beside this module.
LABELS: dict[str, dict[str, str]] = json.loads(Path(__file__).with_name("labels.json").read_text(encoding="utf-8"))


def label(key: str, lang: str, **params) -> str:
    """The label `key` in `lang` ("en" when the language has none) with its {params} filled in."""
    texts = LABELS[key]
    return texts.get(lang, texts["en"]).format(**params)


def points_text(points: float, lang: str) -> str:
    """'5 points' / '5점', '1 point', '2.5 points': the amount as exams.core.points writes it (at most
    two decimals, no trailing zeros), the plural form chosen from the amount as written."""
    if points_plural(points) == 1 and lang != "ko":
        return label("point", lang)
    return label("points", lang, points=format_points(points))
