"""A student's practice progress: per topic, family and difficulty, what they attempted and solved.

Progress is measured against something that does not grow with every question drawn: the question
types (families) of a topic a student has solved at least once, and solved out of attempted, per
difficulty. Questions drawn but never answered do not count against anyone.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max, Q

from .core.questions import DIFFICULTIES, Topic, families_for
from .models import QuestionAttempt, QuestionVariant

COUNTS = ("questions", "attempted", "solved", "attempts")


@dataclass
class TopicProgress:
    topic: str
    questions: int  # variants the student has been given
    attempted: int  # variants with at least one graded attempt
    solved: int  # variants answered right at least once
    attempts: int  # graded attempts in all
    families: list[dict] = field(default_factory=list)  # per family: id, title and the four counts
    by_difficulty: list[dict] = field(default_factory=list)  # per difficulty: difficulty, attempted, solved

    @property
    def families_total(self) -> int:
        """Question types this topic has."""
        return len(self.families)

    @property
    def families_solved(self) -> int:
        """Question types of this topic solved at least once."""
        return sum(1 for f in self.families if f["solved"])

    @property
    def solved_pct(self) -> int:
        """Share of the topic's question types solved at least once, in percent (0–100)."""
        return round(100 * self.families_solved / self.families_total) if self.families_total else 0


def progress(user) -> list[TopicProgress]:
    """Per topic (in Topic order), per family and per difficulty, counted from the student's variants and attempts."""
    rows = (QuestionVariant.objects.filter(user=user)
            .values("family", "difficulty")
            .annotate(questions=Count("id", distinct=True),
                      attempted=Count("id", filter=Q(attempts__isnull=False), distinct=True),
                      solved=Count("id", filter=Q(attempts__correct=True, attempts__after_reveal=False), distinct=True),
                      attempts=Count("attempts")))
    by_family: dict[str, dict] = {}
    by_level: dict[tuple[str, int], dict] = {}
    for r in rows:
        fam = by_family.setdefault(r["family"], dict.fromkeys(COUNTS, 0))
        level = by_level.setdefault((r["family"], r["difficulty"]), dict.fromkeys(COUNTS, 0))
        for k in COUNTS:
            fam[k] += r[k]
            level[k] += r[k]
    out = []
    for topic in Topic:
        fams = families_for(topic)
        per = [{"id": f.id, "title": f.title, **by_family.get(f.id, dict.fromkeys(COUNTS, 0))} for f in fams]
        levels = [{"difficulty": d,
                   "attempted": sum(by_level.get((f.id, d), {}).get("attempted", 0) for f in fams),
                   "solved": sum(by_level.get((f.id, d), {}).get("solved", 0) for f in fams)} for d in DIFFICULTIES]
        out.append(TopicProgress(
            topic=str(topic), families=per, by_difficulty=levels,
            **{k: sum(x[k] for x in per) for k in COUNTS},
        ))
    return out


def streak(user) -> int:
    """Questions solved in a row, counting back from the most recently answered one (0 if it was not solved).

    A question counts once, at its last attempt: solved if any attempt at it was right before its key
    was shown.
    """
    answered = (QuestionAttempt.objects.filter(variant__user=user).values("variant")
                .annotate(last=Max("created_at"), solved=Count("id", filter=Q(correct=True, after_reveal=False)))
                .order_by("-last")[:200])
    run = 0
    for row in answered:
        if not row["solved"]:
            break
        run += 1
    return run


@dataclass(frozen=True)
class TopicReach:
    """How far a group of students (a course's) got with one topic's questions, at every difficulty
    (difficulty None) or at one."""

    topic: str
    difficulty: int | None  # 1..3, or None for every difficulty together
    attempted: int  # students who answered at least one question of it
    solved: int  # students who answered at least one right before its key was shown
    attempts: int  # answers given in all (an unparseable answer is not stored, so never counted)


def group_progress(user_ids) -> list[TopicReach]:
    """Practice of the students `user_ids` (ids, or a query of them) per topic, in Topic order: for
    each topic one row for every difficulty together, then one per difficulty in DIFFICULTIES.

    Read from TopicStats (practice.topic_stats keeps it equal to a recount of the answers): one
    aggregate over at most one row per student and topic, whatever the number of answers. All the
    students' practice counts, wherever they started it: practice belongs to a student, not to a course.
    """
    from django.db.models import Sum

    from .models import TopicStats

    solved_any = Q(solved_1__gt=0) | Q(solved_2__gt=0) | Q(solved_3__gt=0)
    sums = {"attempted": Count("pk"), "solved": Count("pk", filter=solved_any)}
    for d in DIFFICULTIES:
        sums |= {f"attempted_{d}": Count("pk", filter=Q(**{f"answers_{d}__gt": 0})),
                 f"solved_{d}": Count("pk", filter=Q(**{f"solved_{d}__gt": 0})), f"attempts_{d}": Sum(f"answers_{d}")}
    found = {r["topic"]: r for r in TopicStats.objects.filter(user_id__in=user_ids).order_by().values("topic")
             .annotate(**sums)}
    out = []
    for topic in Topic:
        row = found.get(str(topic)) or {}
        levels = [TopicReach(str(topic), d, row.get(f"attempted_{d}", 0), row.get(f"solved_{d}", 0),
                             row.get(f"attempts_{d}") or 0) for d in DIFFICULTIES]
        out.append(TopicReach(str(topic), None, row.get("attempted", 0), row.get("solved", 0),
                              sum(t.attempts for t in levels)))
        out.extend(levels)
    return out
