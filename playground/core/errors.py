"""The playground's one user-safe error: a Message (code and parameters), rendered at the edge."""
from __future__ import annotations

from grader.core import messages as M
from grader.core.errors import BadRequestError


class PlaygroundSpecError(BadRequestError):
    """A playground request cannot be run as written (an argument, the launch, the kernel's name).

    `field` names the form field or API key at fault ("args.1.size": the second row, counted from 0;
    "launch.block", "kernel"); `message` is the template of grader.core.messages.PLAYGROUND given
    (a Template) with `params`, so the site renders it in the reader's language (message.render with
    gettext). As an exception its text is the English. KeyError when a parameter the template writes
    is missing."""

    def __init__(self, field: str, template: M.Template, **params):
        self.field = field
        self.message = template(**params)
        super().__init__(str(self.message))

    def data(self) -> dict:
        return {"field": self.field}
