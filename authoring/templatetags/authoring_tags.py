"""Template filters of the authoring pages."""
from django import template

from authoring.version_messages import display_message

register = template.Library()


@register.filter
def version_message(message: str) -> str:
    """A version's message in the reader's language when WarpDrill wrote it (authoring.version_messages)."""
    return display_message(message)
