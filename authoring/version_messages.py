"""The messages WarpDrill writes itself on a problem version ("Created from the skeleton", "Copied from
the bank's block-sum v1", "Uploaded"): stored as a code and its parameters (ProblemVersion.message_code
and message_params), rendered in the reader's language at display. An author's own message is stored
and shown as written. Rows written before the codes existed were converted by
problems/migrations/0008_version_message_codes.py.
"""
from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop


class VersionMessage(StrEnum):
    """Why WarpDrill made a version, when no author wrote a message."""

    SKELETON = "skeleton"  # version 1 of a new problem, from authoring.core.edit.skeleton
    BANK_COPY = "bank_copy"  # version 1 of a course's copy of a bank problem; params: slug, n
    UPLOADED = "uploaded"  # a package uploaded without a message


TEMPLATES = {
    VersionMessage.SKELETON: gettext_noop("Created from the skeleton"),
    VersionMessage.BANK_COPY: gettext_noop("Copied from the bank's %(slug)s v%(n)d"),
    VersionMessage.UPLOADED: gettext_noop("Uploaded"),
}


def render(code: str, params: dict | None = None) -> str:
    """The message of `code` with `params`, in the active language; "" for an unknown code (a code
    from a newer release read by an older one)."""
    try:
        template = TEMPLATES[VersionMessage(code)]
    except ValueError:
        return ""
    return _(template) % (params or {}) if params else _(template)


def display(version) -> str:
    """A problem version's message as its reader sees it: the author's words, or WarpDrill's own
    message in the reader's language ("" when there is none)."""
    if version.message_code:
        return render(version.message_code, version.message_params)
    return version.message
