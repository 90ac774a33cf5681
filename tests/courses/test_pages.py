"""The courses pages through Django's test client: my courses, creating, joining, the course page,
the management page (members, roles, invites, roster upload and its report) and who sees what."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from courses import actions
from courses.models import Course, Invite, Membership, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_user(people):
    def make(name):
        client = Client()
        if name:
            client.force_login(people[name])
        return client
    return make


def text(response) -> str:
    return response.content.decode()


def test_my_courses_lists_each_course_with_the_role_and_the_header_links_it(people, courses, as_user):
    page = as_user("tom").get("/courses/")
    assert page.status_code == 200
    html = text(page)
    assert "GPU Architecture" in html and "Parallel Programming" not in html and ">TA<" in html
    assert 'href="/courses/"' in html and ">Courses</a>" in html
    assert "Nothing is open in this course right now." in html


def test_my_courses_needs_a_login_and_the_header_hides_courses_when_logged_out(as_user):
    assert as_user(None).get("/courses/").status_code == 302
    assert ">Courses</a>" not in text(as_user(None).get("/"))


def test_an_instructor_creates_a_course_and_becomes_its_instructor(people, as_user):
    client = as_user("prof")
    assert 'href="/courses/new/"' in text(client.get("/courses/"))
    response = client.post("/courses/new/", {"name": "CUDA 101", "code": "CUDA-101", "term": "Spring 2027",
                                             "language": "ko", "target_cc": "8.6"})
    assert response.status_code == 302 and response["Location"] == "/courses/CUDA-101/manage/"
    course = Course.objects.get(code="CUDA-101")
    assert Membership.objects.get(course=course, user=people["prof"]).role == Role.INSTRUCTOR
    assert "8.6" in text(client.get("/courses/CUDA-101/"))


def test_a_student_cannot_create_a_course(as_user):
    client = as_user("stu")
    assert 'href="/courses/new/"' not in text(client.get("/courses/"))
    assert client.get("/courses/new/").status_code == 403
    assert client.post("/courses/new/", {"name": "x", "code": "X", "language": "en", "target_cc": "9.0"}).status_code == 403
    assert not Course.objects.filter(code="X").exists()


def test_a_reserved_or_taken_code_is_a_form_error(people, courses, as_user):
    for code in ("join", "pp-a"):
        response = as_user("prof").post("/courses/new/", {"name": "x", "code": code, "language": "en", "target_cc": "9.0"})
        assert response.status_code == 400


def test_joining_with_a_link(people, courses, as_user):
    """The link shows the course and the role; the POST enrols and leads to the course page."""
    invite = actions.create_invite(courses["A"], people["prof"])
    client = as_user("nobody")
    page = client.get(f"/courses/join/{invite.code}/")
    assert page.status_code == 200 and "Parallel Programming" in text(page) and "student" in text(page)
    assert not Membership.objects.filter(user=people["nobody"]).exists()  # a GET joins nobody
    response = client.post(f"/courses/join/{invite.code}/")
    assert response.status_code == 302 and response["Location"] == "/courses/PP-A/"
    assert client.get("/courses/PP-A/").status_code == 200


def test_the_join_link_shows_a_logged_out_visitor_the_course_and_both_ways_in(people, courses, as_user):
    """Opened logged out, an invite link names its course and role and offers Sign up and Log in, each
    coming back to the link (it used to land on a bare Log in page that named neither); a POST still
    needs a log-in and enrols nobody."""
    invite = actions.create_invite(courses["A"], people["prof"])
    link = f"/courses/join/{invite.code}/"
    page = as_user(None).get(link)
    html = text(page)
    assert page.status_code == 200 and "Parallel Programming" in html and "PP-A" in html and "student" in html
    assert f'href="/accounts/signup/?next=/courses/join/{invite.code}/"' in html
    assert f'href="/accounts/login/?next=/courses/join/{invite.code}/"' in html
    assert "Join the course" not in html  # no POST form for a visitor
    korean = text(as_user(None).get(link, HTTP_ACCEPT_LANGUAGE="ko"))
    assert "Sign up and join" not in korean and 'id="join-signup"' in korean
    response = as_user(None).post(link)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=/courses/join/")
    # The log-in and sign-up pages it leads to name the course too, and link each other with the way back.
    login = text(as_user(None).get(f"/accounts/login/?next={link}"))
    assert 'id="invite-banner"' in login and "Parallel Programming" in login
    signup = text(as_user(None).get(f"/accounts/signup/?next={link}"))
    assert 'id="invite-banner"' in signup and "Parallel Programming" in signup
    assert f'href="/accounts/login/?next=/courses/join/{invite.code}/"' in signup


def test_a_logged_out_visitor_with_an_unusable_link_is_told_why(people, courses, as_user):
    invite = actions.create_invite(courses["A"], people["prof"])
    actions.revoke_invite(courses["A"], people["prof"], invite.pk)
    page = as_user(None).get(f"/courses/join/{invite.code}/")
    assert page.status_code == 400 and "withdrawn" in text(page) and "Sign up and join" not in text(page)
    assert 'id="invite-banner"' not in text(as_user(None).get(f"/accounts/signup/?next=/courses/join/{invite.code}/"))


def test_the_typed_code_form_leads_to_the_join_page(people, courses, as_user):
    invite = actions.create_invite(courses["A"], people["prof"])
    response = as_user("nobody").post("/courses/join/", {"code": f" {invite.code.lower()} "})
    assert response.status_code == 302 and response["Location"] == f"/courses/join/{invite.code}/"


@pytest.mark.parametrize("state,message", [
    ("wrong", "This invite code is not valid"),
    ("revoked", "This invite has been withdrawn"),
    ("expired", "This invite has expired"),
    ("used_up", "This invite has been used as many times as it allows"),
])
def test_an_unusable_invite_says_why_and_enrols_nobody(people, courses, as_user, state, message):
    invite = actions.create_invite(courses["A"], people["prof"], max_uses=1)
    code = invite.code
    if state == "wrong":
        code = "WRONGCODE22"
    elif state == "revoked":
        actions.revoke_invite(courses["A"], people["prof"], invite.pk)
    elif state == "expired":
        Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    else:
        actions.join_with_code(people["bea"], code)
    client = as_user("nobody")
    for response in (client.get(f"/courses/join/{code}/"), client.post(f"/courses/join/{code}/")):
        assert response.status_code == 400 and message in text(response)
    assert not Membership.objects.filter(user=people["nobody"]).exists()


@pytest.mark.parametrize("who,status", [("prof", 200), ("tara", 200), ("stu", 200), ("bea", 403), ("tom", 403),
                                        ("nobody", 403)])
def test_the_course_page_is_for_members_only(courses, as_user, who, status):
    assert as_user(who).get("/courses/PP-A/").status_code == status


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_an_outsider_is_told_how_to_join_and_nothing_about_the_course(courses, people, as_user, lang):
    """As on the exams' pages (a removed student got Django's 404, its debug page under make dev): the
    403 "not in this course" page with the way to join; an unknown code is still a 404; the management
    pages stay 404 for outsiders."""
    client = as_user("bea")
    foreign, missing = (client.get("/courses/PP-A/", HTTP_ACCEPT_LANGUAGE=lang),
                        client.get("/courses/NO-SUCH/", HTTP_ACCEPT_LANGUAGE=lang))
    assert (foreign.status_code, missing.status_code) == (403, 404)
    html = text(foreign)
    words = {"en": ["You are not in this course", "Its pages are for the members of the course", "Join a course"],
             "ko": ["이 강좌의 구성원이 아닙니다", "이 강좌의 페이지는 강좌 구성원만", "강좌 참여"]}[lang]
    assert all(w in html for w in words), words
    main = html.split('id="not-in-course"')[1]
    course = Course.objects.get(code="PP-A")
    assert course.name not in html and "PP-A" not in main
    assert client.get("/courses/PP-A/manage/").status_code == 404


def test_a_removed_student_gets_the_not_in_course_page(courses, people, as_user):
    stu = as_user("stu")
    course = Course.objects.get(code="PP-A")
    membership = Membership.objects.get(course=course, user=people["stu"])
    actions.remove_member(course, people["prof"], membership.pk)
    r = stu.get("/courses/PP-A/")
    assert r.status_code == 403 and 'id="not-in-course"' in text(r)


@pytest.mark.parametrize("who,status", [("prof", 200), ("tara", 200), ("stu", 404), ("bea", 404), ("nobody", 404)])
def test_the_management_page_is_for_course_staff(courses, as_user, who, status):
    assert as_user(who).get("/courses/PP-A/manage/").status_code == status


def test_a_ta_sees_members_and_invites_without_the_forms_that_change_them(people, courses, as_user):
    actions.create_invite(courses["A"], people["prof"])
    html = text(as_user("tara").get("/courses/PP-A/manage/"))
    assert "stu@uni.example" in html and 'class="invite-code"' in html
    assert "/manage/invites/" not in html and "/manage/roster/" not in html and 'name="role"' not in html


@pytest.mark.parametrize("lang, note", [("en", "the student invites"), ("ko", "학생 초대")])
def test_a_ta_never_sees_a_staff_invites_code(people, courses, as_user, lang, note):
    """A TA who read an instructor's (or TA's) invite code could sign up a second account with it and be
    the course's instructor: the TA's page lists the student invites only; the instructor's lists all."""
    student = actions.create_invite(courses["A"], people["prof"])
    staff = [actions.create_invite(courses["A"], people["prof"], role=role) for role in ("ta", "instructor")]
    html = text(as_user("tara").get("/courses/PP-A/manage/", HTTP_ACCEPT_LANGUAGE=lang))
    assert student.code in html and note in html
    assert all(inv.code not in html for inv in staff)
    html = text(as_user("prof").get("/courses/PP-A/manage/"))
    assert all(inv.code in html for inv in [student, *staff])


def test_the_instructor_makes_and_revokes_an_invite(people, courses, as_user):
    client = as_user("prof")
    response = client.post("/courses/PP-A/manage/invites/", {"role": "student", "days": "7", "max_uses": "30"})
    assert response.status_code == 302
    invite = Invite.objects.get(course=courses["A"])
    assert invite.max_uses == 30 and timedelta(days=6) < invite.expires_at - timezone.now() <= timedelta(days=7)
    html = text(client.get("/courses/PP-A/manage/"))
    assert invite.code in html and f"/courses/join/{invite.code}/" in html
    client.post(f"/courses/PP-A/manage/invites/{invite.pk}/revoke/")
    invite.refresh_from_db()
    assert invite.revoked_at is not None


@pytest.mark.parametrize("who", ["tara", "stu", "bea"])
def test_nobody_else_posts_to_the_management_forms(people, courses, as_user, who):
    """A's TA and student and B's instructor: 404 for every change, and nothing changes."""
    invite = actions.create_invite(courses["A"], people["prof"])
    stu = Membership.objects.get(course=courses["A"], user=people["stu"])
    client = as_user(who)
    roster = SimpleUploadedFile("r.csv", b"username,email\nkim,kim@uni.example\n", content_type="text/csv")
    for url, data in [("/courses/PP-A/manage/invites/", {"role": "ta"}),
                      (f"/courses/PP-A/manage/invites/{invite.pk}/revoke/", {}),
                      (f"/courses/PP-A/manage/members/{stu.pk}/role/", {"role": "instructor"}),
                      (f"/courses/PP-A/manage/members/{stu.pk}/remove/", {}),
                      ("/courses/PP-A/manage/roster/", {"file": roster})]:
        assert client.post(url, data).status_code == 404, url
    assert client.get("/courses/PP-A/manage/passwords/").status_code == 404
    assert Invite.objects.filter(course=courses["A"]).count() == 1 and Invite.objects.get().revoked_at is None
    assert Membership.objects.get(pk=stu.pk).role == Role.STUDENT


def test_the_instructor_changes_a_role_and_cannot_remove_the_last_instructor(people, courses, as_user):
    client = as_user("prof")
    stu = Membership.objects.get(course=courses["A"], user=people["stu"])
    client.post(f"/courses/PP-A/manage/members/{stu.pk}/role/", {"role": "ta"})
    assert Membership.objects.get(pk=stu.pk).role == Role.TA
    me = Membership.objects.get(course=courses["A"], user=people["prof"])
    page = client.post(f"/courses/PP-A/manage/members/{me.pk}/remove/", follow=True)
    assert "A course needs at least one instructor" in text(page)
    assert Membership.objects.filter(pk=me.pk).exists()


def test_roster_upload_shows_what_was_taken_and_each_refused_row(people, courses, as_user):
    csv = ("username,email,name\n"
           "kim,kim@uni.example,Kim\n"
           "bad name,x@uni.example,\n"
           "lee,lee@,\n"
           "kim,k2@uni.example,\n"
           "nobody,other@uni.example,\n"
           "stu,stu@uni.example,\n").encode()
    response = as_user("prof").post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile("r.csv", csv)},
                                    follow=True)
    assert response.status_code == 200
    html = text(response)
    assert "1 account created" in html and "1 already in the course" in html and "4 rows not taken" in html
    issues = re.findall(r'data-issue="([a-z_]+)"><td class="num">(\d+)</td>', html)
    assert issues == [("bad_username", "3"), ("bad_email", "4"), ("duplicate_username", "5"),
                      ("existing_user_other_email", "6")]
    assert "duplicate: line 2 has the same username" in html and "“lee@” is not an email address" in html
    assert "other@uni.example" in html or "different email address" in html
    assert "nobody@uni.example" not in html  # the existing account's own email is never shown


def test_a_roster_without_the_columns_is_refused_whole(people, courses, as_user):
    response = as_user("prof").post("/courses/PP-A/manage/roster/",
                                    {"file": SimpleUploadedFile("r.csv", b"name,mail\nKim,kim@uni.example\n")}, follow=True)
    assert "lacks the column(s) username, email" in text(response)
    assert "Nothing was taken." in text(response)


def test_the_passwords_page_lists_a_link_per_new_account(people, courses, as_user):
    as_user("prof").post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile("r.csv", b"username,email\nkim,kim@uni.example\n")})
    html = text(as_user("prof").get("/courses/PP-A/manage/passwords/"))
    assert re.search(r"http://testserver/accounts/reset/[\w-]+/[\w-]+/", html) and "kim" in html


def test_pages_in_korean(people, courses, as_user):
    """My courses, the management page and an invite refusal are in Korean for a Korean reader."""
    client = as_user("prof")
    client.cookies["django_language"] = "ko"
    assert "내 강좌" in text(client.get("/courses/"))
    assert "초대" in text(client.get("/courses/PP-A/manage/"))
    assert "유효하지 않은 초대 코드" in text(client.post("/courses/join/NOSUCHCODE/"))


def test_members_are_listed_instructors_first_then_tas_then_students(people, courses, as_user):
    html = text(as_user("prof").get("/courses/PP-A/manage/"))
    assert re.findall(r'<tr data-username="(\w+)">', html) == ["prof", "tara", "stu"]


def test_the_course_page_lists_the_courses_published_problems_only(people, courses, as_user):
    """A published problem of the course is linked from its page (not only through a problem set);
    an unpublished one, another course's and the bank's are not."""
    from problems.core.package import parse_package
    from problems.models import Problem
    from problems.services import import_package
    from tests.packages import tiny_package_files

    import_package(parse_package(tiny_package_files()))
    bank = Problem.objects.get(slug="tiny-add")
    for slug, course, published in (("ours", courses["A"], True), ("draft", courses["A"], False),
                                    ("theirs", courses["B"], True)):
        Problem.objects.create(slug=slug, title_en=f"Problem {slug}", topic=bank.topic, course=course,
                               is_published=published, current_version=bank.current_version)
    html = text(as_user("stu").get(f"/courses/{courses['A'].code}/"))
    section = html.split('id="course-problem-list"', 1)[1].split("</section>", 1)[0]
    assert 'href="/problems/ours/"' in section and "Problem ours" in section
    assert "draft" not in section and "theirs" not in section and "tiny-add" not in section
    empty = text(as_user("tom").get(f"/courses/{courses['B'].code}/"))
    assert "Problem theirs" in empty


def test_roster_upload_reports_student_ids_stored_and_not_stored(people, courses, as_user):
    """The report counts the IDs stored and lists, with its line, each row whose account kept its own ID."""
    from accounts.profiles import set_identity

    set_identity(people["stu"], full_name="", email="stu@uni.example", student_id="2025999")
    csv = "username,email,학번\nkim,kim@uni.example,2026001\nstu,stu@uni.example,2026003\n".encode()
    html = text(as_user("prof").post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile("r.csv", csv)},
                                     follow=True))
    assert "1 student ID stored" in html
    assert re.findall(r'<tr class="student-id-conflict"><td class="num">(\d+)</td><td>(\w+)</td><td>([^<]*)</td>', html) == [
        ("3", "stu", "the account already has the student ID 2025999, which was kept; the roster&#x27;s 2026003 "
                     "was not stored (the student can change it on My account)")]


def test_the_roster_form_names_its_columns_in_english_and_korean(people, courses, as_user):
    client = as_user("prof")
    html = text(client.get("/courses/PP-A/manage/"))
    assert "<code>student_id</code>" in html and "<code>학번</code>" in html and "name (이름) and student_id (학번)" in html
    client.cookies["django_language"] = "ko"
    html = text(client.get("/courses/PP-A/manage/"))
    assert "<code>student_id</code>" in html and "열" in html and "Columns, named" not in html
    conflict = text(client.post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile(
        "r.csv", "username,email,학번\nstu,stu@uni.example,2026 3\n".encode())}, follow=True))
    assert 'data-issue="bad_student_id"' in conflict and "학번" in conflict and "may only contain" not in conflict


def test_a_roster_with_korean_headers_enrols_its_students_with_their_names(people, courses, as_user):
    """아이디, 이메일, 이름 and 학번 are read as username, email, name and student_id."""
    from accounts.profiles import student_id_of

    csv = "아이디,이메일,이름,학번\nkim,kim@uni.example,김민준,2026001\n".encode()
    html = text(as_user("prof").post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile("r.csv", csv)},
                                     follow=True))
    assert "1 account created" in html and "0 rows not taken" in html
    kim = Membership.objects.get(course=courses["A"], user__username="kim").user
    assert (kim.email, kim.get_full_name(), student_id_of(kim)) == ("kim@uni.example", "김민준", "2026001")


def test_a_roster_heading_a_column_twice_is_refused_naming_both_headers(people, courses, as_user):
    """student_id and 학번 in one file: nothing is taken, and the message names both, in either language."""
    csv = "username,email,student_id,학번\nkim,kim@uni.example,2026001,2026002\n".encode()
    client = as_user("prof")
    html = text(client.post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile("r.csv", csv)}, follow=True))
    assert "The header row names the same column more than once: student_id, 학번." in html
    assert "Nothing was taken." in html and not Membership.objects.filter(user__username="kim").exists()
    client.cookies["django_language"] = "ko"
    html = text(client.post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile("r.csv", csv)}, follow=True))
    assert "첫 줄에 같은 열이 두 번 이상 있습니다: student_id, 학번." in html and "same column" not in html


def test_a_roster_upload_redirects_and_its_report_is_shown_once(people, courses, as_user):
    """POST/redirect/GET: the upload redirects to the roster page, which shows the report once; opening
    or refreshing it again shows the upload form alone and uploads nothing."""
    client = as_user("prof")
    csv = b"username,email\nkim,kim@uni.example\nlee,lee@\n"
    response = client.post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile("r.csv", csv)})
    assert response.status_code == 302 and response["Location"] == "/courses/PP-A/manage/roster/#report"
    assert Membership.objects.filter(course=courses["A"], user__username="kim").exists()
    first = client.get("/courses/PP-A/manage/roster/")
    assert first.status_code == 200
    html = text(first)
    assert 'id="report"' in html and "1 account created" in html and "1 row not taken" in html
    assert 'data-issue="bad_email"' in html
    again = text(client.get("/courses/PP-A/manage/roster/"))
    assert 'id="report"' not in again and "account created" not in again
    assert 'enctype="multipart/form-data" action="/courses/PP-A/manage/roster/"' in again
    assert Membership.objects.filter(course=courses["A"], user__username="kim").count() == 1


def test_the_roster_page_opened_directly_shows_the_upload_form(people, courses, as_user):
    """GET without an upload: the management page with the upload form (not 405); TAs and others get 404."""
    response = as_user("prof").get("/courses/PP-A/manage/roster/")
    assert response.status_code == 200
    html = text(response)
    assert 'id="roster"' in html and 'name="file"' in html and 'id="report"' not in html
    for who in ("tara", "stu", "bea"):
        assert as_user(who).get("/courses/PP-A/manage/roster/").status_code == 404, who


def test_a_long_report_keeps_the_session_small_and_counts_what_it_does_not_list(people, courses, as_user):
    """Only the first MAX_LISTED refused rows travel in the session; the rest are counted, in either language."""
    from courses.reports import MAX_LISTED

    client = as_user("prof")
    csv = ("username,email\n" + "".join(f"u{i},bad{i}@\n" for i in range(MAX_LISTED + 30))).encode()
    client.post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile("r.csv", csv)})
    assert len(str(client.session["courses.roster_report.PP-A"])) < 30_000
    html = text(client.get("/courses/PP-A/manage/roster/"))
    assert f"{MAX_LISTED + 30} rows not taken" in html and html.count('class="row-problem"') == MAX_LISTED
    assert "30 more rows not taken are not listed" in html
    client.post("/courses/PP-A/manage/roster/", {"file": SimpleUploadedFile("r.csv", csv)})
    client.cookies["django_language"] = "ko"
    html = text(client.get("/courses/PP-A/manage/roster/"))
    assert "반영되지 않은 행 30개가 더 있지만" in html and "more rows" not in html
