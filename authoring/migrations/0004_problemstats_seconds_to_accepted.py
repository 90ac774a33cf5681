from django.db import migrations, models


def backfill(apps, schema_editor):
    """first_accepted_at - first_at in seconds for every accepted pair already summed."""
    Stats = apps.get_model("authoring", "ProblemStats")
    batch = []
    for row in Stats.objects.filter(first_accepted_at__isnull=False).only("first_at", "first_accepted_at").iterator(
            chunk_size=2000):
        row.seconds_to_accepted = (row.first_accepted_at - row.first_at).total_seconds()
        batch.append(row)
        if len(batch) >= 2000:
            Stats.objects.bulk_update(batch, ["seconds_to_accepted"])
            batch.clear()
    Stats.objects.bulk_update(batch, ["seconds_to_accepted"])


class Migration(migrations.Migration):

    dependencies = [
        ('authoring', '0003_problem_stats'),
    ]

    operations = [
        migrations.AddField(
            model_name='problemstats',
            name='seconds_to_accepted',
            field=models.FloatField(null=True, verbose_name='seconds to first accepted'),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
