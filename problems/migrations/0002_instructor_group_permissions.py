"""The Instructor group and its model permissions, on every deployment.

The group used to be created only by `seed_demo`, and with no permissions, so an instructor with
staff status could open nothing in the admin. This migration creates the group (if missing) and
grants what an instructor needs: to edit problems, to read versions and students' practice
questions, and to read submissions and rejudge them (the admin's rejudge action asks for
grader.change_submission). Students get no permissions: they never reach the admin.

Permissions are normally created by a post_migrate handler, after every migration has run; on a
fresh database they do not exist yet, so they are created here first (for the historical models).
"""
from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

INSTRUCTOR_GROUP = "Instructor"

# (app label, model, actions). Frozen here rather than imported: a migration must not change
# meaning when application code does; a later change of the set is a later migration.
INSTRUCTOR_PERMISSIONS = [
    ("problems", "problem", ("view", "add", "change")),
    # Versions are immutable snapshots made by `import_problems`; the admin refuses edits anyway.
    ("problems", "problemversion", ("view",)),
    # Students' generated questions and answers: instructors read them, never rewrite them.
    ("problems", "questionvariant", ("view",)),
    ("problems", "questionattempt", ("view",)),
    # change = the rejudge action; the admin shows a submission's fields read-only to non-superusers.
    ("grader", "submission", ("view", "change")),
]


def _codenames():
    return [(app, f"{action}_{model}") for app, model, actions in INSTRUCTOR_PERMISSIONS for action in actions]


def _permissions(apps, using):
    for label in ("problems", "grader"):
        create_permissions(global_apps.get_app_config(label), verbosity=0, using=using, apps=apps)
    Permission = apps.get_model("auth", "Permission")
    perms = []
    for app, codename in _codenames():
        perms.append(Permission.objects.using(using).get(content_type__app_label=app, codename=codename))
    return perms


def grant(apps, schema_editor):
    """Create the Instructor group if missing and add its permissions (keeps any others it has)."""
    using = schema_editor.connection.alias
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.using(using).get_or_create(name=INSTRUCTOR_GROUP)
    group.permissions.add(*_permissions(apps, using))


def revoke(apps, schema_editor):
    """Take this migration's permissions away from the group; the group itself stays."""
    using = schema_editor.connection.alias
    Group = apps.get_model("auth", "Group")
    group = Group.objects.using(using).filter(name=INSTRUCTOR_GROUP).first()
    if group is not None:
        group.permissions.remove(*_permissions(apps, using))


class Migration(migrations.Migration):

    dependencies = [
        ("problems", "0001_initial"),
        ("grader", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
