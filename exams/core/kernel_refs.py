"""The kernel problems a template names, read from its data without validating it: an exam's stored
spec (which problems its course must keep secret while it runs) or an editor's text as it is being
typed (which shipped-bank problems it would draw). No database here."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .template import TemplateError, load_text


@dataclass(frozen=True)
class KernelRef:
    """One kernel pool item: a slug, or a pool of a topic and/or a tag (slug None)."""

    slug: str | None
    topic: str | None = None
    tag: str | None = None


def kernel_refs(data: Any) -> list[KernelRef]:
    """Every kernel pool item of template data ({"zones": [{"pool": [...]}, ...]}), in order; items
    that are not well formed are skipped (the template check reports them)."""
    zones = data.get("zones") if isinstance(data, Mapping) else None
    out = []
    for zone in zones if isinstance(zones, list) else []:
        pool = zone.get("pool") if isinstance(zone, Mapping) else None
        for raw in pool if isinstance(pool, list) else []:
            which = raw.get("kernel") if isinstance(raw, Mapping) else None
            if isinstance(which, str) and which:
                out.append(KernelRef(which))
            elif isinstance(which, Mapping) and (which.get("topic") or which.get("tag")):
                topic, tag = which.get("topic"), which.get("tag")
                out.append(KernelRef(None, topic if isinstance(topic, str) else None, tag if isinstance(tag, str) else None))
    return out


def kernel_refs_in_text(text: str) -> list[KernelRef]:
    """kernel_refs of a template's JSON or YAML text ([] when it cannot be read)."""
    try:
        return kernel_refs(load_text(text))
    except TemplateError:
        return []
