from django.db import migrations, models


class Migration(migrations.Migration):
    """Exam.lockdown: exam mode, on for new and existing exams (exams.lockdown)."""

    dependencies = [
        ('exams', '0005_attempt_close_reason'),
    ]

    operations = [
        migrations.AddField(
            model_name='exam',
            name='lockdown',
            field=models.BooleanField(default=True, help_text="While a student's attempt is in progress, the other pages of the site (problems, practice, the occupancy calculator, the playground, courses, other exams, submissions) are closed to them. Course staff are never locked out.", verbose_name='close the rest of the site during an attempt'),
        ),
    ]
