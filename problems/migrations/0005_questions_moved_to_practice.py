"""QuestionVariant and QuestionAttempt now belong to the practice app (practice 0001): state only.

Their tables are kept (the practice models name them with `db_table`), so nothing is dropped.
"""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("problems", "0004_question_verbose_names"),
        ("practice", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="QuestionAttempt"),
                migrations.DeleteModel(name="QuestionVariant"),
            ],
            database_operations=[],
        ),
    ]
