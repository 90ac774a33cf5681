import django.db.models.deletion
from django.db import migrations, models


def mark_exam_work(apps, schema_editor):
    """Fill `exam` for the submissions made in exams so far: those answering an item, and those a
    reset detached from one (its timeline event names them: data["old"]["submissions"])."""
    Submission = apps.get_model("grader", "Submission")
    ExamItem = apps.get_model("exams", "ExamItem")
    AttemptEvent = apps.get_model("exams", "AttemptEvent")
    exam_of_item = dict(ExamItem.objects.values_list("pk", "attempt__exam_id"))
    for pk, item_id in Submission.objects.filter(exam_item__isnull=False).values_list("pk", "exam_item_id").iterator():
        Submission.objects.filter(pk=pk).update(exam_id=exam_of_item[item_id])
    for exam_id, data in AttemptEvent.objects.filter(kind="reset").values_list("attempt__exam_id", "data").iterator():
        ids = [i for i in ((data or {}).get("old") or {}).get("submissions") or [] if isinstance(i, int)]
        if ids:
            Submission.objects.filter(pk__in=ids, exam__isnull=True).update(exam_id=exam_id)


class Migration(migrations.Migration):

    dependencies = [
        ('exams', '0003_predrawn_variants'),
        ('grader', '0011_submission_queue'),
    ]

    operations = [
        migrations.AddField(
            model_name='submission',
            name='exam',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='submissions', to='exams.exam', verbose_name='exam'),
        ),
        migrations.RunPython(mark_exam_work, migrations.RunPython.noop),
    ]
