"""The Instructor group may create courses (courses.create_course), on every deployment.

Whoever creates a course becomes its instructor; rights inside a course come from memberships
only (courses/access.py), so this grants nothing in anyone else's course.
"""
from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

INSTRUCTOR_GROUP = "Instructor"
CODENAME = "create_course"


def _permission(apps, using):
    # Permissions are normally created after all migrations (post_migrate): create them now.
    create_permissions(global_apps.get_app_config("courses"), verbosity=0, using=using, apps=apps)
    Permission = apps.get_model("auth", "Permission")
    return Permission.objects.using(using).get(content_type__app_label="courses", codename=CODENAME)


def grant(apps, schema_editor):
    """Create the Instructor group if missing and give it courses.create_course."""
    using = schema_editor.connection.alias
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.using(using).get_or_create(name=INSTRUCTOR_GROUP)
    group.permissions.add(_permission(apps, using))


def revoke(apps, schema_editor):
    using = schema_editor.connection.alias
    Group = apps.get_model("auth", "Group")
    group = Group.objects.using(using).filter(name=INSTRUCTOR_GROUP).first()
    if group is not None:
        group.permissions.remove(_permission(apps, using))


class Migration(migrations.Migration):

    dependencies = [
        ("courses", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
