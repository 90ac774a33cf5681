"""The question families exams draw from: the practice core's registry, in one place.

Exams use the same families, generators and answer checker as practice, so a question in an exam is
graded exactly as it is in practice. Importing them here keeps the rest of the exams core free of
where the practice core lives.
"""
from __future__ import annotations

from practice.core.answers import AnswerFormatError, Field, grade, parse_response  # noqa: F401
from practice.core.questions import DIFFICULTIES, FAMILIES, Question, UnknownFamilyError, family  # noqa: F401

__all__ = ["AnswerFormatError", "DIFFICULTIES", "FAMILIES", "Field", "Question", "UnknownFamilyError", "family",
           "grade", "parse_response"]
