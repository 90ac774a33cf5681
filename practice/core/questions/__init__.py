"""Generated questions: the registry of families by id and topic.

    from practice.core.questions import family, generate
    q = generate("occupancy.blocks_per_sm", seed=7, difficulty=2)
    q.render("ko"), q.answer_key(), q.render_solution("en")

Plain Python, no Django. See base.py for the shape of a family.
"""
from __future__ import annotations

from .base import DIFFICULTIES, LANGUAGES, TOPIC_NAMES, Block, BlockKind, Family, Question, Topic
from .applications import FAMILIES as _APPLICATIONS
from .atomics import FAMILIES as _ATOMICS
from .coarsening import FAMILIES as _COARSENING
from .divergence import FAMILIES as _DIVERGENCE
from .host import FAMILIES as _HOST
from .indexing import FAMILIES as _INDEXING
from .memory import FAMILIES as _MEMORY
from .model import FAMILIES as _MODEL
from .occupancy import FAMILIES as _OCCUPANCY
from .occupancy_textbook import FAMILIES as _OCCUPANCY_TEXTBOOK
from .performance import FAMILIES as _PERFORMANCE
from .ptxas import FAMILIES as _PTXAS
from .warps import FAMILIES as _WARPS
from .writes import FAMILIES as _WRITES
from .reduction import FAMILIES as _REDUCTION
from .streams import FAMILIES as _STREAMS
from .synchronization import FAMILIES as _SYNCHRONIZATION

FAMILIES: dict[str, Family] = {f.id: f for f in (*_OCCUPANCY, *_OCCUPANCY_TEXTBOOK, *_INDEXING, *_SYNCHRONIZATION,
                                                 *_DIVERGENCE, *_MEMORY, *_REDUCTION, *_PERFORMANCE,
                                                 *_COARSENING, *_ATOMICS, *_MODEL, *_STREAMS, *_PTXAS,
                                                 *_WRITES, *_WARPS, *_APPLICATIONS, *_HOST)}


class UnknownFamilyError(KeyError):
    """No question family has this id."""


def family(family_id: str) -> Family:
    try:
        return FAMILIES[family_id]
    except KeyError:
        raise UnknownFamilyError(family_id) from None


def families_for(topic: Topic | str | None = None) -> list[Family]:
    """The families of one topic (all of them when topic is None), in a stable order."""
    return [f for f in FAMILIES.values() if topic is None or f.topic == Topic(topic)]


def generate(family_id: str, seed: int, difficulty: int = 1, target_cc: str | None = None) -> Question:
    return family(family_id).generate(seed, difficulty, target_cc)


__all__ = ["Block", "BlockKind", "DIFFICULTIES", "FAMILIES", "Family", "LANGUAGES", "Question", "TOPIC_NAMES", "Topic",
           "UnknownFamilyError", "families_for", "family", "generate"]
