"""`manage.py seed_demo`: groups Student and Instructor, a demo student and a demo instructor, and
the demo course "GPU Programming (Demo)" that the instructor teaches and the student takes.

Idempotent: running it again resets the demo passwords (to the fixed development defaults, or
to fresh random ones with --random) and prints them.
"""
import secrets

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.roles import INSTRUCTOR_GROUP, STUDENT_GROUP

# Development defaults, printed by the command; never use them on a public server (use --random).
DEMO_USERS = [
    # (username, default password, group, is_staff)
    ("student", "student-demo-pass", STUDENT_GROUP, False),
    ("instructor", "instructor-demo-pass", INSTRUCTOR_GROUP, True),
]


class Command(BaseCommand):
    help = "Create the Student and Instructor groups and the demo users 'student' and 'instructor'; print their passwords."

    def add_arguments(self, parser):
        parser.add_argument("--random", action="store_true", help="set random passwords instead of the fixed dev defaults")
        parser.add_argument("--quiet", action="store_true", help="print nothing (make dev prints the logins once the site answers)")

    @transaction.atomic
    def handle(self, *args, random=False, quiet=False, **options):
        User = get_user_model()
        users = {}
        groups = {name: Group.objects.get_or_create(name=name)[0] for name in (STUDENT_GROUP, INSTRUCTOR_GROUP)}
        for username, default_password, group, is_staff in DEMO_USERS:
            password = secrets.token_urlsafe(12) if random else default_password
            user, created = User.objects.get_or_create(username=username)
            user.set_password(password)
            user.is_staff = is_staff
            user.is_active = True
            user.save()
            user.groups.add(groups[group])
            users[username] = user
            verb = "created" if created else "reset"
            if not quiet:
                self.stdout.write(f"{group.lower():<10} {username:<12} password: {password}   ({verb})")
        if apps.is_installed("courses"):
            # Site-level glue: the demo course is the courses app's, made through its write path.
            from courses.actions import ensure_demo_course

            course = ensure_demo_course(users["instructor"], [users["student"]])
            if not quiet:
                self.stdout.write(f"course     {course.code:<12} {course.name}: instructor teaches, student enrolled")
