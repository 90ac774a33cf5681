"""Recount the dashboards' summaries (ProblemStats, ProblemDay, ProblemError) without exam work.

Until now a kernel submitted in an exam was counted as practice: the course and problem dashboards
showed exam submissions among their graded submissions, verdicts, common errors and times to a first
ACCEPTED. authoring.progress now counts practice work only (grader.access.counted_practice_q); this
recomputes every pair by that rule, once.
"""
from django.db import migrations
from django.db.models import Q


def recount(apps, schema_editor):
    """Every pair, from its graded practice submissions (authoring.progress.rebuild), by the rule as
    of this migration: purpose STUDENT, GRADED, not INTERNAL_ERROR, and no exam work."""
    from authoring.progress import rebuild

    counted = (Q(purpose="student", status="GRADED") & ~Q(verdict="INTERNAL_ERROR")
               & Q(exam_item__isnull=True, exam__isnull=True))
    rebuild(apps.get_model("grader", "Submission"), apps.get_model("authoring", "ProblemStats"),
            apps.get_model("authoring", "ProblemDay"), apps.get_model("authoring", "ProblemError"), counted=counted)


class Migration(migrations.Migration):

    dependencies = [
        ("authoring", "0005_validation_item_expected_gpu"),
        ("grader", "0012_submission_exam"),
    ]

    operations = [
        # Going back leaves the rows as recounted; `manage.py rebuild_problem_stats` recounts by the code's rule.
        migrations.RunPython(recount, migrations.RunPython.noop),
    ]
