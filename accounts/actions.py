"""The write path of accounts: creating users."""
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import Group

from .roles import STUDENT_GROUP


def create_student(form: UserCreationForm):
    """Save the (valid) sign-up form's user and put it in the Student group. Call inside a transaction."""
    user = form.save()
    group, _ = Group.objects.get_or_create(name=STUDENT_GROUP)
    user.groups.add(group)
    return user
