"""The words printed on a form and its key, in English and Korean (합니다체; the CUDA field terms in
English, a kernel 커널: docs/content.md, "Korean wording").

Generated content (prompts, solutions) carries its own languages; these are the sheet's labels.
The core imports no Django, so its catalogue is a table of data (labels.json), read once at import.
"""
from __future__ import annotations

import json
from pathlib import Path

# key -> {language: text}, from labels.json beside this module.
LABELS: dict[str, dict[str, str]] = json.loads(Path(__file__).with_name("labels.json").read_text(encoding="utf-8"))


def label(key: str, lang: str, **params) -> str:
    """The label `key` in `lang` ("en" when the language has none) with its {params} filled in."""
    texts = LABELS[key]
    return texts.get(lang, texts["en"]).format(**params)


def points_text(points: float, lang: str) -> str:
    """'5 points' / '5점'; 2.5 stays 2.5, 5.0 prints 5."""
    shown = int(points) if float(points).is_integer() else points
    if shown == 1 and lang != "ko":
        return label("point", lang)
    return label("points", lang, points=shown)
