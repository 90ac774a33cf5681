"""Roster uploads through courses.actions.import_roster: creating and linking accounts, every
reason a row is refused, and the one-time set-password links of created accounts."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.http import Http404

from accounts.models import Profile
from accounts.profiles import set_identity, student_id_of
from courses import actions
from courses.core.roster import FileIssue, RowIssue
from courses.models import Membership, ProvisionedAccount, Role
from courses.services import password_links

pytestmark = pytest.mark.django_db


def roster(*lines: str) -> bytes:
    return ("username,email,name\n" + "".join(f"{line}\n" for line in lines)).encode()


def issues(report) -> list[tuple[int, RowIssue]]:
    return [(p.line, p.issue) for p in report.problems]


def test_new_usernames_become_students_with_no_usable_password(people, courses):
    report = actions.import_roster(courses["A"], people["prof"], roster("kim,Kim@uni.example,Kim Minjun",
                                                                        "lee,lee@uni.example,"))
    assert [r.username for r in report.created] == ["kim", "lee"] and report.problems == []
    kim = User.objects.get(username="kim")
    assert (kim.email, kim.first_name, kim.has_usable_password()) == ("kim@uni.example", "Kim Minjun", False)
    assert kim.groups.filter(name="Student").exists()
    assert Membership.objects.get(course=courses["A"], user=kim).role == Role.STUDENT
    assert ProvisionedAccount.objects.get(user=kim).course == courses["A"]


def test_an_existing_account_with_the_same_email_is_linked(people, courses):
    """tom (B's TA) is on A's roster with his own email (any case): he joins A as a student, B unchanged."""
    report = actions.import_roster(courses["A"], people["prof"], roster("TOM,Tom@Uni.Example,Tom"))
    assert [r.username for r in report.linked] == ["TOM"] and report.created == []
    assert Membership.objects.get(course=courses["A"], user=people["tom"]).role == Role.STUDENT
    assert Membership.objects.get(course=courses["B"], user=people["tom"]).role == Role.TA
    assert not ProvisionedAccount.objects.exists()


def test_members_already_in_the_course_are_listed_and_left_alone(people, courses):
    report = actions.import_roster(courses["A"], people["prof"], roster("tara,tara@uni.example,", "stu,stu@uni.example,"))
    assert [(r.username, role) for r, role in report.already] == [("tara", "ta"), ("stu", "student")]
    assert Membership.objects.get(course=courses["A"], user=people["tara"]).role == Role.TA


def test_a_member_whose_email_differs_is_listed_as_already_in_the_course(people, courses):
    """The demo student has no email: a roster row for them with one is "already in the course", not "an account
    with this username exists with a different email" (a tester read that as a refusal). Its student ID is not
    stored from a row whose email is not the account's."""
    stu = people["stu"]
    User.objects.filter(pk=stu.pk).update(email="")
    report = actions.import_roster(courses["A"], people["prof"], with_ids("stu,stu@uni.example,2026777"))
    assert [(r.username, role) for r, role in report.already] == [("stu", "student")] and report.problems == []
    assert student_id_of(User.objects.get(pk=stu.pk)) == "" and report.student_ids_stored == 0


def test_every_database_reason_a_row_is_refused(people, courses):
    """Existing username with another email (or none), an email of another account, a deactivated account."""
    User.objects.create_user("noemail")
    User.objects.create_user("gone", email="gone@uni.example", is_active=False)
    report = actions.import_roster(courses["A"], people["prof"], roster(
        "nobody,someone.else@uni.example,",  # line 2: nobody exists with nobody@uni.example
        "noemail,noemail@uni.example,",  # line 3: exists without an email: cannot be confirmed
        "newname,BEA@uni.example,",  # line 4: the email is bea's account
        "gone,gone@uni.example,",  # line 5: deactivated
        "fresh,fresh@uni.example,",  # line 6: taken
    ))
    assert issues(report) == [(2, RowIssue.EXISTING_USER_OTHER_EMAIL), (3, RowIssue.EXISTING_USER_OTHER_EMAIL),
                              (4, RowIssue.EMAIL_OF_OTHER_USER), (5, RowIssue.INACTIVE_USER)]
    assert [r.username for r in report.created] == ["fresh"]
    assert not User.objects.filter(username="newname").exists()
    assert not Membership.objects.filter(course=courses["A"], user__username__in=["nobody", "noemail", "gone"]).exists()


def test_file_level_problems_and_parse_problems_reach_the_report(people, courses):
    report = actions.import_roster(courses["A"], people["prof"], b"name,email\nKim,kim@uni.example\n")
    assert report.error == FileIssue.MISSING_COLUMNS and report.taken == 0
    report = actions.import_roster(courses["A"], people["prof"], roster("ok,ok@uni.example,", "bad,bad@,", "ok,x@uni.example,"))
    assert issues(report) == [(3, RowIssue.BAD_EMAIL), (4, RowIssue.DUPLICATE_USERNAME)]
    assert report.taken == 1


@pytest.mark.parametrize("who", ["tara", "stu", "bea", "nobody"])
def test_only_the_course_instructor_uploads_a_roster(people, courses, who):
    with pytest.raises(Http404):
        actions.import_roster(courses["A"], people[who], roster("kim,kim@uni.example,"))
    assert not User.objects.filter(username="kim").exists()


def test_set_password_link_works_once_and_only_for_this_course_instructors(people, courses, client):
    """A's instructor gets a link for the account A's roster created; the owner sets a password with
    it and logs in; the link then stops working and is no longer listed. B's instructor and A's TA get 404."""
    actions.import_roster(courses["A"], people["prof"], roster("kim,kim@uni.example,Kim"))
    [link] = password_links(courses["A"], people["prof"])
    assert link.user.username == "kim"
    for who in ("tara", "bea"):
        with pytest.raises(Http404):
            password_links(courses["A"], people[who])
    assert password_links(courses["B"], people["bea"]) == []
    form_page = client.get(link.path, follow=True)
    assert form_page.status_code == 200 and form_page.context["validlink"]
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": "a-Fine-passw0rd", "new_password2": "a-Fine-passw0rd"})
    assert done.status_code == 302
    assert User.objects.get(username="kim").check_password("a-Fine-passw0rd")
    assert password_links(courses["A"], people["prof"]) == []
    again = client.get(link.path, follow=True)
    assert not again.context["validlink"]


def test_no_link_for_an_account_another_course_created(people, courses):
    """B's roster created kim; A's roster then links kim (same email): A's instructor gets no link for kim."""
    actions.import_roster(courses["B"], people["bea"], roster("kim,kim@uni.example,"))
    report = actions.import_roster(courses["A"], people["prof"], roster("kim,kim@uni.example,"))
    assert [r.username for r in report.linked] == ["kim"]
    assert password_links(courses["A"], people["prof"]) == []
    assert [link.user.username for link in password_links(courses["B"], people["bea"])] == ["kim"]


def with_ids(*lines: str) -> bytes:
    return ("username,email,학번\n" + "".join(f"{line}\n" for line in lines)).encode()


def test_a_rosters_student_ids_are_stored_where_my_account_keeps_them(people, courses, client):
    """A new account, a linked one and a member with no ID all get the roster's ID in accounts.Profile,
    and the student sees it on My account."""
    report = actions.import_roster(courses["A"], people["prof"], with_ids(
        "kim,kim@uni.example,2026001", "tom,tom@uni.example,2026002", "stu,stu@uni.example,2026003",
        "lee,lee@uni.example,"))
    assert report.problems == [] and report.student_id_conflicts == []
    assert report.student_ids_stored == 3
    assert {u: student_id_of(User.objects.get(username=u)) for u in ("kim", "tom", "stu", "lee")} == {
        "kim": "2026001", "tom": "2026002", "stu": "2026003", "lee": ""}
    client.force_login(people["stu"])
    assert 'value="2026003"' in client.get("/accounts/me/").content.decode()


def test_a_students_own_student_id_is_never_overwritten_and_the_row_is_reported(people, courses):
    """stu (a member) and tom (linked) gave their own IDs: the roster's different ones are not stored,
    each is a conflict line, and both are still in the course; the same ID in another letter case is no conflict."""
    set_identity(people["stu"], full_name="", email="stu@uni.example", student_id="2025999")
    set_identity(people["tom"], full_name="", email="tom@uni.example", student_id="2024abc")
    report = actions.import_roster(courses["A"], people["prof"], with_ids(
        "stu,stu@uni.example,2026003", "tom,tom@uni.example,2024ABC", "nobody,nobody@uni.example,2026004"))
    assert [(c.line, c.username, c.roster_id, c.account_id) for c in report.student_id_conflicts] == [
        (2, "stu", "2026003", "2025999")]
    assert report.student_ids_stored == 1 and report.problems == []
    assert [r.username for r in report.linked] == ["tom", "nobody"] and [r.username for r, _ in report.already] == ["stu"]
    assert dict(Profile.objects.filter(user__username__in=["stu", "tom", "nobody"])
                .values_list("user__username", "student_id")) == {"stu": "2025999", "tom": "2024abc", "nobody": "2026004"}


def test_a_refused_row_stores_no_student_id(people, courses):
    """A row refused against the database (another email) changes nothing of the account it names."""
    report = actions.import_roster(courses["A"], people["prof"], with_ids("nobody,someone@uni.example,2026009"))
    assert issues(report) == [(2, RowIssue.EXISTING_USER_OTHER_EMAIL)]
    assert student_id_of(User.objects.get(username="nobody")) == "" and report.student_ids_stored == 0
