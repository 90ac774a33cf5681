"""Stored results with every message as its code and parameters ({"code", "params"}, messages.Message).

Results stored before held each message three times: `message` (English), `message_template` and
`message_params`; some, older still, only the English. This converts every stored result once:
submissions' results, the old results a rejudge keeps, the playground's runs. A template the catalogue
has becomes its code; English whose template is gone (or that never had one) is kept verbatim. The
reverse writes the three fields back from the codes. grader.core.results still reads both forms.
"""
from django.db import migrations

BATCH = 500


def _convert(apps, label: str, field: str, change, top: bool = True) -> None:
    model = apps.get_model(*label.split("."))
    rows = model.objects.exclude(**{f"{field}__isnull": True}).only("pk", field)
    batch = []
    for row in rows.iterator(chunk_size=BATCH):
        stored = getattr(row, field)
        if not isinstance(stored, dict):
            continue
        setattr(row, field, change(stored, top=top))
        batch.append(row)
        if len(batch) >= BATCH:
            model.objects.bulk_update(batch, [field])
            batch = []
    if batch:
        model.objects.bulk_update(batch, [field])


def _every_result(change):
    def run(apps, schema_editor):
        _convert(apps, "grader.Submission", "result", change)
        _convert(apps, "authoring.RejudgeItem", "old_result", change)
        _convert(apps, "playground.PlaygroundRun", "result", change, top=False)  # its message is the backend's text
    return run


def forwards(apps, schema_editor):
    from grader.core.results import upgrade_stored

    _every_result(upgrade_stored)(apps, schema_editor)


def backwards(apps, schema_editor):
    from grader.core.results import downgrade_stored

    _every_result(downgrade_stored)(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("grader", "0008_submission_refusal"),
        ("authoring", "0002_rejudgerun_rejudgeitem"),
        ("playground", "0002_run_queue_times"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
