"""An item once per set: duplicates added before (the same kernel problem or question family twice:
two identical dashboard columns) are removed, the first of each kept, and the database refuses them
from now on."""
from django.db import migrations, models


def drop_duplicates(apps, schema_editor):
    """Delete every item that repeats an earlier one of its set (by position, then id). Students lose
    nothing: their submissions and answers belong to the problems and families, and count for the
    item that stays. A question opened from a removed family item no longer links back to the set."""
    Item = apps.get_model("homework", "ProblemSetItem")
    seen, doomed = set(), []
    for pk, set_id, problem_id, family in Item.objects.order_by("problem_set_id", "position", "pk").values_list(
            "pk", "problem_set_id", "problem_id", "family"):
        key = (set_id, problem_id, family)
        if key in seen:
            doomed.append(pk)
        seen.add(key)
    Item.objects.filter(pk__in=doomed).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('homework', '0002_problem_set_difficulty'),
        ('problems', '0008_version_message_codes'),
    ]

    operations = [
        migrations.RunPython(drop_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='problemsetitem',
            constraint=models.UniqueConstraint(condition=models.Q(('problem__isnull', False)), fields=('problem_set', 'problem'), name='problem_set_item_unique_problem'),
        ),
        migrations.AddConstraint(
            model_name='problemsetitem',
            constraint=models.UniqueConstraint(condition=models.Q(('family', ''), _negated=True), fields=('problem_set', 'family'), name='problem_set_item_unique_family'),
        ),
    ]
