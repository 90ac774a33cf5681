"""The playground's one user-safe error: a message template and its parameters (rendered at the edge)."""
from __future__ import annotations

from grader.core import messages as M
from grader.core.errors import BadRequestError


class PlaygroundSpecError(BadRequestError):
    """A playground request cannot be run as written (an argument, the launch, the kernel's name).

    `field` names the form field or API key at fault ("args.1.size": the second row, counted from 0; "launch.block", "kernel");
    the text is the English of `message_template` % `message_params`, so the site can show it in
    the reader's language (grader.core.messages.render with gettext)."""

    def __init__(self, field: str, template: str, **params):
        self.field = field
        self.message_template = template
        self.message_params = params
        super().__init__(M.render(template, params))

    def data(self) -> dict:
        return {"field": self.field}
