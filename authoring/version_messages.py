"""The messages WarpDrill writes itself on a problem version ("Copied from the bank's block-sum v1"),
stored in English whoever copied and rendered in the reader's language at display.

An author's own message is shown as written; only the exact generated forms below are translated.
Rows written before this (translated at copy time, possibly in Korean) are recognised too.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

BANK_COPY = gettext_noop("Copied from the bank's %(slug)s v%(n)d")
# The stored English form, and the Korean one that rows of before stored when copied on a Korean page.
_BANK_COPY_RE = (re.compile(r"Copied from the bank's (?P<slug>[a-z0-9][a-z0-9-]*) v(?P<n>\d+)"),
                 re.compile(r"문제 은행의 (?P<slug>[a-z0-9][a-z0-9-]*) v(?P<n>\d+)에서 복사했습니다"))


def bank_copy_message(slug: str, number: int) -> str:
    """The version message of a bank copy, in English (what is stored): slug and version number."""
    return BANK_COPY % {"slug": slug, "n": number}


def display_message(message: str) -> str:
    """`message` in the active language when it is one WarpDrill generated; else unchanged."""
    for pattern in _BANK_COPY_RE:
        m = pattern.fullmatch(message or "")
        if m:
            return _(BANK_COPY) % {"slug": m["slug"], "n": int(m["n"])}
    return message
