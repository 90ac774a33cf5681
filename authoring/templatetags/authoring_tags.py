"""Template filters of the authoring pages."""
from django import template

from authoring.version_messages import display

register = template.Library()


@register.filter
def version_message(version) -> str:
    """A problem version's message: the author's words, or WarpDrill's own in the reader's language
    (authoring.version_messages)."""
    return display(version)
