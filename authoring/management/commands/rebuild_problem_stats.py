"""manage.py rebuild_problem_stats: recompute every student's per-problem summary the dashboards read."""
from django.core.management.base import BaseCommand

from authoring.progress import rebuild


class Command(BaseCommand):
    help = ("Recompute ProblemStats (one row per student and problem: attempts, verdict counts, first and last "
            "times) from the submissions, e.g. after loading submissions in bulk.")

    def handle(self, *args, **options):
        self.stdout.write(f"{rebuild()} (student, problem) rows")
