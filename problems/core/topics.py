"""The topics a problem or a question family practises: one closed set for the bank, the authoring
form, the practice pages and the progress tables, with each topic's name in English and Korean.
Every page names a topic from here (the `topic_label` filter); `humanize` is the last resort for a
key that is not a Topic (a row stored before a topic was renamed)."""
from __future__ import annotations

import enum


class Topic(enum.StrEnum):
    """What a problem or a question family practises."""

    OCCUPANCY = "occupancy"  # blocks per SM, limiting resources, budgets
    INDEXING = "indexing"  # thread/block indices, grid sizes, grid-stride loops
    SYNCHRONIZATION = "synchronization"  # barriers, races, warp masks, grid-wide sync
    DIVERGENCE = "divergence"  # warp divergence, SIMD efficiency of branches
    MEMORY = "memory"  # coalescing, shared-memory banks, tiling, memory spaces
    REDUCTION = "reduction"  # reduction trees and scans: steps, work, active warps
    PERFORMANCE = "performance"  # roofline, arithmetic intensity, latency hiding
    ATOMICS = "atomics"  # atomic operations and their contention
    PROGRAMMING_MODEL = "programming_model"  # function qualifiers, host/device, copies and what blocks


# A topic's name as a student reads it, per language (CUDA terms stay in English in the Korean).
TOPIC_NAMES: dict[Topic, dict[str, str]] = {
    Topic.OCCUPANCY: {"en": "Occupancy", "ko": "Occupancy (점유율)"},
    Topic.INDEXING: {"en": "Thread indexing", "ko": "Thread indexing (인덱스 계산)"},
    Topic.SYNCHRONIZATION: {"en": "Synchronization", "ko": "Synchronization (동기화)"},
    Topic.DIVERGENCE: {"en": "Warp divergence", "ko": "Warp divergence (분기)"},
    Topic.MEMORY: {"en": "Memory access", "ko": "Memory 접근"},
    Topic.REDUCTION: {"en": "Reduction and scan", "ko": "리덕션과 scan"},
    Topic.PERFORMANCE: {"en": "Performance models", "ko": "성능 모델"},
    Topic.ATOMICS: {"en": "Atomics", "ko": "Atomic 연산"},
    Topic.PROGRAMMING_MODEL: {"en": "Programming model", "ko": "프로그래밍 모델"},
}


def humanize(key: str) -> str:
    """A topic key as words, for a key that is not a Topic: "shared_memory" -> "Shared memory",
    "warp-level" -> "Warp level" (underscores and hyphens become spaces, the first letter a capital)."""
    words = " ".join(str(key).replace("_", " ").replace("-", " ").split())
    return words[:1].upper() + words[1:]


def topic_name(topic: str, lang: str) -> str | None:
    """The topic's name in `lang` ("en" or "ko"; English for any other), or None when `topic` is not a Topic."""
    try:
        names = TOPIC_NAMES[Topic(str(topic))]
    except ValueError:
        return None
    return names.get(lang, names["en"])
