"""Site-wide roles the pages ask about: Student and Instructor (Django groups).

Per-course roles (student, TA, instructor of one course) are the courses app's; these are the
site's: an Instructor may see every submission and hidden test details.
"""
STUDENT_GROUP = "Student"
INSTRUCTOR_GROUP = "Instructor"


def is_instructor(user) -> bool:
    """Staff and members of the Instructor group may see every submission and hidden test details."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    cached = getattr(user, "_warpdrill_is_instructor", None)
    if cached is None:
        cached = user._warpdrill_is_instructor = user.groups.filter(name=INSTRUCTOR_GROUP).exists()
    return cached
