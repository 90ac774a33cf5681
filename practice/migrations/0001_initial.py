"""QuestionVariant and QuestionAttempt move here from the problems app (state only).

The tables stay where they are (`problems_questionvariant`, `problems_questionattempt`, named by
each model's `db_table`): this migration only tells Django's model state that the practice app
owns them now, and problems 0005 removes them from the problems app's state. The content types
are renamed to the practice app so that permissions already granted (the Instructor group's view
permissions, any given by hand) follow the models instead of being orphaned.
"""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ("questionvariant", "questionattempt")


def content_types_to_practice(apps, schema_editor):
    """Relabel the moved models' content types problems -> practice (unless practice ones already exist)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MOVED:
        if not ContentType.objects.using(db).filter(app_label="practice", model=model).exists():
            ContentType.objects.using(db).filter(app_label="problems", model=model).update(app_label="practice")


def content_types_to_problems(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MOVED:
        if not ContentType.objects.using(db).filter(app_label="problems", model=model).exists():
            ContentType.objects.using(db).filter(app_label="practice", model=model).update(app_label="problems")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
        # The tables were created (and last altered) by the problems app's migrations.
        ("problems", "0004_question_verbose_names"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="QuestionVariant",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("family", models.CharField(help_text="Generator family id, e.g. 'occupancy.blocks_per_sm'.", max_length=80)),
                        ("generator_version", models.PositiveIntegerField()),
                        ("difficulty", models.PositiveSmallIntegerField(default=1)),
                        ("seed", models.BigIntegerField()),
                        ("slot", models.CharField(help_text="Which question this is for the student: a practice counter, an exam question id.", max_length=80)),
                        ("params", models.JSONField()),
                        ("answer", models.JSONField()),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="question_variants", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "verbose_name": "question variant",
                        "verbose_name_plural": "question variants",
                        "db_table": "problems_questionvariant",
                        "constraints": [models.UniqueConstraint(fields=("user", "family", "slot"), name="unique_variant_per_user_slot")],
                    },
                ),
                migrations.CreateModel(
                    name="QuestionAttempt",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("response", models.JSONField(help_text="The parsed answer, per field.")),
                        ("correct", models.BooleanField()),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("variant", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="attempts", to="practice.questionvariant")),
                    ],
                    options={
                        "ordering": ["-created_at"],
                        "verbose_name": "question attempt",
                        "verbose_name_plural": "question attempts",
                        "db_table": "problems_questionattempt",
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to_practice, content_types_to_problems),
    ]
