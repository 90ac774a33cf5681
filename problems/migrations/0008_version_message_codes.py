"""Version messages WarpDrill wrote become codes with parameters (authoring.version_messages): the
rows written before, in English or (translated when written) in Korean, are recognised by their exact
forms and converted; an author's own message is left as written."""
import re

from django.db import migrations, models

# The exact forms WarpDrill wrote before codes, in both languages: (pattern, code).
LEGACY = (
    (re.compile(r"Created from the skeleton|기본 틀에서 만들었습니다"), "skeleton"),
    (re.compile(r"Uploaded|업로드했습니다"), "uploaded"),
    (re.compile(r"Copied from the bank's (?P<slug>[a-z0-9][a-z0-9-]*) v(?P<n>\d+)"), "bank_copy"),
    (re.compile(r"문제 은행의 (?P<slug>[a-z0-9][a-z0-9-]*) v(?P<n>\d+)에서 복사했습니다"), "bank_copy"),
)
ENGLISH = {"skeleton": "Created from the skeleton", "uploaded": "Uploaded",
           "bank_copy": "Copied from the bank's %(slug)s v%(n)d"}


def to_codes(apps, schema_editor):
    ProblemVersion = apps.get_model("problems", "ProblemVersion")
    for version in ProblemVersion.objects.exclude(message="").only("pk", "message").iterator():
        for pattern, code in LEGACY:
            m = pattern.fullmatch(version.message.strip())
            if m:
                params = {"slug": m["slug"], "n": int(m["n"])} if code == "bank_copy" else {}
                ProblemVersion.objects.filter(pk=version.pk).update(message="", message_code=code,
                                                                    message_params=params)
                break


def to_english(apps, schema_editor):
    ProblemVersion = apps.get_model("problems", "ProblemVersion")
    for version in ProblemVersion.objects.exclude(message_code="").iterator():
        template = ENGLISH.get(version.message_code, "")
        ProblemVersion.objects.filter(pk=version.pk).update(
            message=template % version.message_params if version.message_params else template)


class Migration(migrations.Migration):

    dependencies = [
        ('problems', '0007_topic_one_set'),
    ]

    operations = [
        migrations.AddField(
            model_name='problemversion',
            name='message_code',
            field=models.CharField(blank=True, max_length=40, verbose_name='message code'),
        ),
        migrations.AddField(
            model_name='problemversion',
            name='message_params',
            field=models.JSONField(blank=True, default=dict, verbose_name='message parameters'),
        ),
        migrations.RunPython(to_codes, to_english),
    ]
