"""manage.py rebuild_practice_stats: recompute every student's practice summary per topic."""
from django.core.management.base import BaseCommand

from practice.topic_stats import rebuild


class Command(BaseCommand):
    help = ("Recompute TopicStats (one row per student and topic: answers and questions solved per difficulty) "
            "from the answers, e.g. after loading answers in bulk or after a question family moved to another topic.")

    def handle(self, *args, **options):
        self.stdout.write(f"{rebuild()} (student, topic) rows")
