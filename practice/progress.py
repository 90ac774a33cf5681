"""A student's practice progress: per topic and per family, what they attempted and solved."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q

from .core.questions import Topic, families_for
from .models import QuestionVariant


@dataclass
class TopicProgress:
    topic: str
    questions: int  # variants the student has been given
    attempted: int  # variants with at least one graded attempt
    solved: int  # variants answered right at least once
    attempts: int  # graded attempts in all
    families: list[dict] = field(default_factory=list)  # per family: id, title, questions, solved

    @property
    def solved_pct(self) -> int:
        return round(100 * self.solved / self.questions) if self.questions else 0


def progress(user) -> list[TopicProgress]:
    """Per topic (in Topic order) and per family, counted from the student's variants and attempts."""
    rows = (QuestionVariant.objects.filter(user=user)
            .values("family")
            .annotate(questions=Count("id", distinct=True),
                      attempted=Count("id", filter=Q(attempts__isnull=False), distinct=True),
                      solved=Count("id", filter=Q(attempts__correct=True), distinct=True),
                      attempts=Count("attempts")))
    by_family = {r["family"]: r for r in rows}
    out = []
    for topic in Topic:
        fams = families_for(topic)
        per = [{"id": f.id, "title": f.title, **{k: by_family.get(f.id, {}).get(k, 0)
                                                 for k in ("questions", "attempted", "solved", "attempts")}}
               for f in fams]
        out.append(TopicProgress(
            topic=str(topic), questions=sum(x["questions"] for x in per), attempted=sum(x["attempted"] for x in per),
            solved=sum(x["solved"] for x in per), attempts=sum(x["attempts"] for x in per), families=per,
        ))
    return out
