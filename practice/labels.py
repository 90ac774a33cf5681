"""Site-wide labels of practice's concepts: difficulty levels and question families, in the reader's
language. Every page that names a difficulty or lists families (practice, problem sets, authoring)
takes them from here."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .core.questions import FAMILIES, TOPIC_NAMES, Topic
from .rendering import lang

DIFFICULTY_LABELS = {1: _("Warm-up"), 2: _("Exam level"), 3: _("Hard")}
DIFFICULTY_CHOICES = list(DIFFICULTY_LABELS.items())


def family_title(family_id: str) -> str:
    """The family's title in the active language; the id itself for an id no family has (an item
    whose generator was removed)."""
    fam = FAMILIES.get(family_id)
    if fam is None:
        return family_id
    la = lang()
    return fam.title.get(la, fam.title["en"])


def family_groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every family for a dropdown, grouped by topic in the topics' order: [(topic label, [(id, "title (id)")])],
    titles in the active language."""
    la = lang()
    out = []
    for topic in Topic:
        fams = [f for f in FAMILIES.values() if f.topic == topic]
        if fams:
            out.append((TOPIC_NAMES[topic][la],
                        [(f.id, f"{f.title.get(la, f.title['en'])} ({f.id})") for f in fams]))
    return out
