"""The API's JSON parser: Django REST framework's, refusing deeply nested documents with a 400.

Python's json module recurses once per level, so a request body nested 100,000 levels deep raised
RecursionError inside DRF's parser, which let it through as a 500. The depth is measured first by a
linear scan (strings skipped) and a document deeper than MAX_DEPTH is a ParseError: 400 with a
clear message, like any other malformed body. Views that read a JSON body themselves (the exam's
autosave) ask `too_deep` first and answer with `too_deep_message`.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from grader.core.emulator.result_file import nesting_depth

MAX_DEPTH = 32  # the API's documents nest 3 levels at most


def too_deep(raw: bytes | str, encoding: str = "utf-8") -> bool:
    """Whether the JSON text `raw` nests deeper than MAX_DEPTH (a linear scan; no parsing, no recursion)."""
    text = raw.decode(encoding, errors="replace") if isinstance(raw, bytes) else raw
    return nesting_depth(text) > MAX_DEPTH


def too_deep_message() -> str:
    """What a body refused by too_deep is told, in the reader's language."""
    return _("The JSON body nests deeper than %(depth)d levels.") % {"depth": MAX_DEPTH}


class DepthLimitedJSONParser(JSONParser):
    """JSONParser that refuses bodies nested deeper than MAX_DEPTH (ParseError, 400)."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read()
        if too_deep(raw, (parser_context or {}).get("encoding") or "utf-8"):
            raise ParseError(too_deep_message())
        import io

        return super().parse(io.BytesIO(raw), media_type, parser_context)
