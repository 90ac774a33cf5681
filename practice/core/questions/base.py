"""What every question family shares: topics, bilingual content blocks, the Question and the Family base.

A family is a small class with an `id`, a `version`, a `topic` and two methods:
`make_params(rng, difficulty)` draws the random parameters, and `build(params)` derives everything
else (prompt, answer fields, answer, worked solution) deterministically from them. So a variant
stored as params can always be shown again, and the answer is computed, never typed in.

Text is stored per language ({"en": ..., "ko": ...}); CUDA terms stay in English in the Korean text,
as Korean courses write them. Formulas are language-neutral; code is too, but for the words of its
comments, which `code(src, ko={...})` translates.
"""
from __future__ import annotations

import enum
import json
import random
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ClassVar

from problems.core.topics import TOPIC_NAMES, Topic  # noqa: F401  (re-exported: one set of topics)

from ..answers import Choice, Field, FieldKind, Text

LANGUAGES = ("en", "ko")
# The compute capability a course's questions are drawn for, while Family.generate runs make_params
# with a target_cc (read through target_gpu_keys()).
TARGET_CC: ContextVar[str | None] = ContextVar("target_cc", default=None)
DIFFICULTIES = (1, 2, 3)


class BlockKind(enum.StrEnum):
    """How a piece of prompt or solution is shown."""

    P = "p"  # a paragraph of inline Markdown: `code`, **bold**, *emphasis* (practice/core/inline.py)
    CODE = "code"  # CUDA source, shown as is (language-neutral)
    MATH = "math"  # a formula line such as "⌈41 × 32 / 256⌉ × 256 = 1536" (language-neutral)
    LIST = "list"  # bullet items, one per line of the text, each inline Markdown as a P
    # A write map of the textbook index mapping (grader.core.writemap.model.launch_map), drawn as an SVG where
    # shown: the text is JSON {"grid", "block", "shape", "origin", "highlight"} (language-neutral).
    WRITEMAP = "writemap"


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    text: Text  # per language; MATH holds the same text under every language, CODE the same code (comments translated)

    def render(self, lang: str) -> dict:
        text = self.text.get(lang, self.text["en"])
        if self.kind is BlockKind.LIST:
            return {"kind": str(self.kind), "items": [line for line in text.split("\n") if line]}
        return {"kind": str(self.kind), "text": text}


def t(en: str, ko: str) -> Text:
    """A text in both languages."""
    return {"en": en, "ko": ko}


def p(en: str, ko: str) -> Block:
    return Block(BlockKind.P, t(en, ko))


def code(src: str, ko: dict[str, str] | None = None) -> Block:
    """A code block: the same CUDA in every language, its comments' words translated. `ko` maps each
    English piece of a comment to its Korean (e.g. {"a lane that also took part": "역시 참여한 lane"}).
    Raises ValueError when a piece is not in `src` (a comment edited without its translation)."""
    src = src.strip("\n")
    text = {lang: src for lang in LANGUAGES}
    for en, translated in (ko or {}).items():
        if en not in src:
            raise ValueError(f"{en!r} is not in the code block")
        text["ko"] = text["ko"].replace(en, translated)
    return Block(BlockKind.CODE, text)


def math(expr: str, ko: str | None = None) -> Block:
    """A formula, the same in every language; `ko` is its Korean where it holds words ("chunk당 커널")."""
    return Block(BlockKind.MATH, {lang: (ko if lang == "ko" and ko is not None else expr) for lang in LANGUAGES})


def writemap(grid: list[int], block: list[int], shape: list[int], origin: list[int], highlight: int) -> Block:
    """A write-map picture of a window of the launch's elements, `highlight` (a flat index in the
    window) outlined; practice/rendering.py draws it."""
    spec = json.dumps({"grid": grid, "block": block, "shape": shape, "origin": origin, "highlight": highlight})
    return Block(BlockKind.WRITEMAP, {lang: spec for lang in LANGUAGES})


def items(en: list[str], ko: list[str]) -> Block:
    return Block(BlockKind.LIST, t("\n".join(en), "\n".join(ko)))


def integer_field(name: str, en: str, ko: str, unit: str = "") -> Field:
    return Field(name, FieldKind.INTEGER, t(en, ko), unit=unit)


def fraction_field(name: str, en: str, ko: str, tol: float = 0.005) -> Field:
    return Field(name, FieldKind.NUMBER, t(en, ko), abs_tol=tol, fraction=True)


def number_field(name: str, en: str, ko: str, rel_tol: float = 0.01, unit: str = "") -> Field:
    """A real-valued answer accepted within rel_tol of the key (1 % by default: rounded working passes)."""
    return Field(name, FieldKind.NUMBER, t(en, ko), rel_tol=rel_tol, unit=unit)


def choice_field(name: str, en: str, ko: str, choices: list[Choice]) -> Field:
    return Field(name, FieldKind.CHOICE, t(en, ko), choices=tuple(choices))


def letters(n: int) -> list[str]:
    return [chr(ord("a") + i) for i in range(n)]


@dataclass(frozen=True)
class Question:
    """A generated question, complete: what to show, how to answer, the key and the working."""

    family: str
    version: int
    topic: Topic
    difficulty: int
    seed: int
    params: dict[str, Any]  # JSON-ready; `build(params)` gives this question back
    title: Text
    prompt: tuple[Block, ...]
    fields: tuple[Field, ...]
    answer: dict[str, Any]  # field name -> the correct value
    solution: tuple[Block, ...]

    def render(self, lang: str = "en") -> dict:
        """Everything a page needs in one language (the answer is left out: it never reaches the browser
        before the student has answered)."""
        return {
            "family": self.family,
            "topic": str(self.topic),
            "title": self.title.get(lang, self.title["en"]),
            "prompt": [b.render(lang) for b in self.prompt],
            "fields": [
                {"name": f.name, "kind": str(f.kind), "label": f.label.get(lang, f.label["en"]), "hint": f.hint(lang),
                 "unit": f.unit,
                 "choices": [{"key": c.key, "label": c.label.get(lang, c.label["en"]), "code": c.code}
                             for c in f.choices]}
                for f in self.fields
            ],
        }

    def render_solution(self, lang: str = "en") -> list[dict]:
        return [b.render(lang) for b in self.solution]

    def answer_key(self) -> dict:
        """What a variant stores to grade without the generator: the fields and the values."""
        return {"fields": [f.to_dict() for f in self.fields], "values": dict(self.answer)}


class Family:
    """Base class of a question family. Subclasses set the class attributes and implement the two hooks."""

    id: ClassVar[str]  # "occupancy.blocks_per_sm": topic, dot, noun
    version: ClassVar[int] = 1  # bump when make_params or compose changes what a seed produces
    uses_target_cc: ClassVar[bool] = False  # draws its GPU through target_gpu_keys() (occupancy families)
    topic: ClassVar[Topic]
    title: ClassVar[Text]

    def generate(self, seed: int, difficulty: int = 1, target_cc: str | None = None) -> Question:
        """The question for (seed, difficulty); the same inputs always give the same question.

        `target_cc` ("8.6", a course's target GPU) makes a family that draws a GPU (occupancy) draw
        one of that compute capability; other families ignore it. None: the family's own GPU pool
        (the same questions as before target_cc existed). Raises ValueError for a bad difficulty.
        """
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {DIFFICULTIES}, not {difficulty!r}")
        suffix = f"/cc{target_cc}" if target_cc and self.uses_target_cc else ""
        rng = random.Random(f"{self.id}/{self.version}/{seed}/{difficulty}{suffix}")
        if suffix:
            token = TARGET_CC.set(target_cc)
            try:
                params = self.make_params(rng, difficulty)
            finally:
                TARGET_CC.reset(token)
        else:
            params = self.make_params(rng, difficulty)
        params["difficulty"] = difficulty
        return self.build(params, seed=seed)

    def build(self, params: dict[str, Any], seed: int = 0) -> Question:
        prompt, fields, answer, solution = self.compose(params)
        return Question(
            family=self.id, version=self.version, topic=self.topic, difficulty=params.get("difficulty", 1),
            seed=seed, params=params, title=self.title, prompt=tuple(prompt), fields=tuple(fields),
            answer=answer, solution=tuple(solution),
        )

    def make_params(self, rng: random.Random, difficulty: int) -> dict[str, Any]:
        raise NotImplementedError

    def compose(self, params: dict[str, Any]) -> tuple[list[Block], list[Field], dict[str, Any], list[Block]]:
        """(prompt, fields, answer, solution) from params."""
        raise NotImplementedError
