"""The authoring pages: write, save versions with errors at their fields, history and diff, upload
and download, copy from the bank, validate and publish."""
from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from authoring import actions
from authoring.models import ValidationRun
from grader.models import Purpose, Status, Submission
from problems.models import Problem

pytestmark = pytest.mark.django_db


def _fields(version) -> dict:
    files = version.files
    data = {"title_en": version.package().title["en"], "title_ko": version.package().title.get("ko", ""),
            "statement_en": files["statement.md"], "statement_ko": files.get("statement.ko.md", ""),
            "starter": files["starter.cu"], "solution": files["solution.cu"], "harness": files["harness.py"],
            "problem_yaml": files["problem.yaml"], "message": ""}
    for i, path in enumerate(sorted(p for p in files if p.startswith("wrong/"))):
        source = files[path]
        data[f"wrong-{i}-name"] = path[len("wrong/"):-3]
        data[f"wrong-{i}-verdict"] = source.split("\n", 1)[0].split(":")[1].strip()
        data[f"wrong-{i}-source"] = source.split("\n", 1)[1]
    return data


def test_an_instructor_creates_a_problem_and_the_editor_shows_its_files(client_for, courses):
    client = client_for("prof")
    response = client.post(reverse("authoring:new", args=["PP-A"]),
                           {"slug": "my-scale", "title_en": "My scale", "title_ko": "나의 스케일"})
    assert response.status_code == 302
    problem = Problem.objects.get(slug="my-scale")
    assert problem.course == courses["A"] and not problem.is_published and problem.current_version is None
    page = client.get(response["Location"]).content.decode()
    assert "My scale" in page and "__global__ void scale" in page and "no_bounds_check" in page
    assert "MEMORY_ERROR" in page
    # Not on the public list, and a student of the course cannot open it before it is published.
    assert "my-scale" not in client_for("stu").get("/").content.decode()
    assert client_for("stu").get(reverse("problems:detail", args=["my-scale"])).status_code == 404


def test_saving_changed_files_makes_a_new_version_with_author_and_message(client_for, problem):
    client = client_for("tara")  # a TA may author
    data = _fields(problem.versions.get(number=1))
    data["statement_en"] += "\nNow with $\\alpha$.\n"
    data["message"] = "mention alpha"
    response = client.post(reverse("authoring:edit", args=["PP-A", problem.slug]), data)
    assert response.status_code == 302
    v2 = problem.versions.get(number=2)
    assert v2.author.username == "tara" and v2.message == "mention alpha" and "alpha" in v2.files["statement.md"]
    assert "Saved as version 2." in client.get(response["Location"]).content.decode()
    # The same files again: no new version, and the editor says so.
    again = client.post(reverse("authoring:edit", args=["PP-A", problem.slug]), {**data, "message": "again"},
                        follow=True)
    assert problem.versions.count() == 2
    assert "No changes: the files are those of version 2." in again.content.decode()


def test_a_parser_error_is_shown_at_its_field_and_nothing_is_saved(client_for, problem):
    client = client_for("prof")
    data = _fields(problem.versions.get(number=1))
    data["problem_yaml"] = data["problem_yaml"].replace("difficulty: 1", "difficulty: 9")
    response = client.post(reverse("authoring:edit", args=["PP-A", problem.slug]), data)
    page = response.content.decode()
    assert response.status_code == 200 and "difficulty: must be an integer from 1 to 5" in page
    assert 'id="field-problem_yaml"' in page and "has-error" in page
    assert problem.versions.count() == 1
    # A wrong solution whose verdict is not chosen properly is named at that solution.
    data = _fields(problem.versions.get(number=1))
    data["wrong-0-verdict"] = "ACCEPTED"
    page = client.post(reverse("authoring:edit", args=["PP-A", problem.slug]), data).content.decode()
    assert "Choose the verdict this wrong solution must get." in page and problem.versions.count() == 1


def test_the_slug_cannot_change_in_problem_yaml(client_for, problem):
    data = _fields(problem.versions.get(number=1))
    data["problem_yaml"] = data["problem_yaml"].replace("slug: scale-a", "slug: other")
    page = client_for("prof").post(reverse("authoring:edit", args=["PP-A", problem.slug]), data).content.decode()
    assert "must stay &#x27;scale-a&#x27;" in page or "must stay 'scale-a'" in page


def test_the_preview_uses_the_students_renderer(client_for, courses):
    response = client_for("prof").post(reverse("authoring:preview", args=["PP-A"]) + "?field=statement_ko",
                                       {"statement_ko": "**굵게** $x^2$ <script>alert(1)</script>",
                                        "statement_en": "ignored"})
    html = response.content.decode()
    assert 'id="preview-statement_ko"' in html and "<strong>굵게</strong>" in html
    assert "\\(x^2\\)" in html and "<script>" not in html


def test_history_diffs_two_versions(client_for, problem, people):
    files = dict(problem.versions.get(number=1).files)
    files["solution.cu"] = files["solution.cu"].replace("a * x[i]", "x[i] * a")
    actions.save_version(problem, people["prof"], files, "commute")
    page = client_for("prof").get(reverse("authoring:history", args=["PP-A", problem.slug]),
                                  {"a": 1, "b": 2}).content.decode()
    assert "commute" in page and "solution.cu" in page
    assert "diff-delete" in page and "x[i] * a" in page
    assert "starter.cu" not in page.split('id="diff"')[1]  # unchanged files are not listed


def test_download_then_upload_is_the_same_version(client_for, problem):
    client = client_for("prof")
    response = client.get(reverse("authoring:download", args=["PP-A", problem.slug]))
    assert response["Content-Type"] == "application/zip"
    data = b"".join(response.streaming_content) if response.streaming else response.content
    assert "scale-a/problem.yaml" in zipfile.ZipFile(io.BytesIO(data)).namelist()
    upload = SimpleUploadedFile("scale-a.zip", data, content_type="application/zip")
    response = client.post(reverse("authoring:upload", args=["PP-A"]), {"archive": upload}, follow=True)
    assert problem.versions.count() == 1
    assert "Same files as version 1" in response.content.decode()


def test_an_upload_with_a_new_slug_makes_a_new_problem_and_one_of_another_course_is_refused(client_for, problem):
    from authoring.core.archive import pack_zip
    from authoring.core.edit import skeleton

    client = client_for("bea")
    new = SimpleUploadedFile("p.zip", pack_zip(skeleton("bea-scale", "Bea's scale"), "bea-scale"))
    client.post(reverse("authoring:upload", args=["GA-B"]), {"archive": new})
    assert Problem.objects.get(slug="bea-scale").course.code == "GA-B"
    theirs = SimpleUploadedFile("p.zip", pack_zip(problem.versions.get(number=1).files, "scale-a"))
    response = client.post(reverse("authoring:upload", args=["GA-B"]), {"archive": theirs}, follow=True)
    assert "belongs to another problem" in response.content.decode()
    assert problem.versions.count() == 1


def test_a_tar_bomb_upload_is_refused_in_the_readers_language_and_saves_nothing(client_for, courses):
    """The tester's upload: a small .tar.gz whose member declares 1 GiB. Refused at its header, with the
    member named, in English and in Korean; no problem is made."""
    import gzip
    import tarfile

    info = tarfile.TarInfo("pkg/big.bin")
    info.size = 1 << 30
    zeros = gzip.compress(bytes(1 << 20), compresslevel=9)
    bomb = gzip.compress(info.tobuf()) + zeros * 1024 + gzip.compress(bytes(1024))
    assert len(bomb) < 1_200_000
    client = client_for("prof")
    before = Problem.objects.count()
    for language, says in (("en", "pkg/big.bin: larger than 256 KiB"), ("ko", "pkg/big.bin: 256 KiB보다 큽니다")):
        upload = SimpleUploadedFile("bomb.tar.gz", bomb, content_type="application/gzip")
        response = client.post(reverse("authoring:upload", args=["PP-A"]), {"archive": upload}, follow=True,
                               HTTP_ACCEPT_LANGUAGE=language)
        assert says in response.content.decode()
    assert Problem.objects.count() == before


def test_copy_to_my_course_makes_an_editable_copy_and_leaves_the_bank_alone(client_for, courses, bank_problem):
    response = client_for("prof").post(reverse("authoring:copy", args=["PP-A", bank_problem.slug]))
    copy = Problem.objects.get(course=courses["A"])
    assert copy.slug == f"{bank_problem.slug}-pp-a" and response["Location"].endswith(f"/{copy.slug}/")
    assert copy.versions.get().package().slug == copy.slug
    bank_problem.refresh_from_db()
    assert bank_problem.course is None and bank_problem.versions.count() == 1
    # The bank itself has no editor page.
    assert client_for("prof").get(reverse("authoring:edit", args=["PP-A", bank_problem.slug])).status_code == 404


def test_validate_queues_validation_submissions_and_publish_needs_a_pass(client_for, problem, people):
    client = client_for("prof")
    version = problem.versions.get(number=1)
    # Publishing before validating is refused.
    client.post(reverse("authoring:publish", args=["PP-A", problem.slug, 1]))
    problem.refresh_from_db()
    assert not problem.is_published
    response = client.post(reverse("authoring:validate", args=["PP-A", problem.slug, 1]))
    run = ValidationRun.objects.get(version=version)
    assert response["Location"] == reverse("authoring:run", args=["PP-A", problem.slug, run.pk])
    items = {i.name: i for i in run.items.select_related("submission")}
    assert {n: i.expected for n, i in items.items()} == {"solution.cu": "ACCEPTED",
                                                         "wrong/no_bounds_check.cu": "MEMORY_ERROR"}
    assert all(i.submission.purpose == Purpose.VALIDATION and i.submission.problem_version == version
               for i in items.values())
    page = client.get(response["Location"]).content.decode()
    assert 'hx-trigger="every 1s"' in page and "no_bounds_check" in page  # polls while grading
    # The worker's verdicts (written through grader's write path): a mismatch fails the run.
    from grader.core.results import JudgeResult
    from grader.core.verdicts import Verdict
    from grader import grading as grader_grading

    for name, verdict in (("solution.cu", Verdict.ACCEPTED), ("wrong/no_bounds_check.cu", Verdict.WRONG_ANSWER)):
        grader_grading.finish_grading(items[name].submission.pk, JudgeResult(verdict=verdict))
    assert run.outcome() == "failed"
    client.post(reverse("authoring:publish", args=["PP-A", problem.slug, 1]))
    problem.refresh_from_db()
    assert not problem.is_published
    # A fresh run that gets the declared verdicts passes, and then the version can be published.
    client.post(reverse("authoring:validate", args=["PP-A", problem.slug, 1]))
    run = ValidationRun.objects.filter(version=version).first()
    for item in run.items.all():
        grader_grading.finish_grading(item.submission_id, JudgeResult(verdict=Verdict(item.expected)))
    assert run.outcome() == "passed"
    page = client.get(reverse("authoring:run", args=["PP-A", problem.slug, run.pk])).content.decode()
    assert "every 1s" not in page and 'id="publish-button"' in page
    client.post(reverse("authoring:publish", args=["PP-A", problem.slug, 1]))
    problem.refresh_from_db()
    assert problem.is_published and problem.current_version == version
    # Now the course's student opens it; a student of no course does not.
    assert client_for("stu").get(reverse("problems:detail", args=[problem.slug])).status_code == 200
    assert client_for("nobody").get(reverse("problems:detail", args=[problem.slug])).status_code == 404
    # Validation runs are nobody's attempts: the instructor's problem page opens with the starter.
    assert Submission.objects.filter(purpose=Purpose.STUDENT).count() == 0


def test_a_harness_failure_shows_its_traceback_on_the_run_page_only(client_for, problem, people):
    """A validation submission that ended INTERNAL_ERROR because harness.py failed shows the author
    the traceback on the run table (the task stores it only for validation submissions)."""
    from grader import grading as grader_grading
    from grader.core.results import JudgeResult
    from grader.core.verdicts import Verdict

    run = actions.start_validation(problem.versions.get(), people["prof"])
    item = run.items.get(name="solution.cu")
    grader_grading.finish_grading(item.submission_id, JudgeResult(
        verdict=Verdict.INTERNAL_ERROR, message="Not graded: harness.py line 5: TypeError: boom"))
    page = client_for("prof").get(reverse("authoring:run", args=["PP-A", problem.slug, run.pk])).content.decode()
    assert 'class="harness-error"' in page and "harness.py line 5: TypeError: boom" in page


def test_page_words_cannot_be_slugs(client_for, courses):
    client_for("prof").post(reverse("authoring:new", args=["PP-A"]), {"slug": "dashboard", "title_en": "D"})
    assert not Problem.objects.filter(slug="dashboard").exists()


def test_the_editor_speaks_korean(client_for, problem):
    page = client_for("prof").get(reverse("authoring:edit", args=["PP-A", problem.slug]),
                                  HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "새 버전으로 저장" in page and "오답 풀이" in page and "버전 1 검증" in page


def test_staff_preview_any_version_and_variant_as_a_student_sees_it_and_cannot_submit_from_it(courses, people,
                                                                                                 client_for):
    """Preview as a student: the student's problem page for version N and a chosen variant; submitting is off."""
    from pathlib import Path

    from grader.models import Submission
    from problems.core.package import load_package
    from problems.models import Problem
    from problems.services import import_package

    import_package(load_package(Path(__file__).resolve().parents[2] / "problems" / "bank" / "segment-sum"))
    copy = actions.copy_from_bank(courses["A"], people["prof"], Problem.objects.get(slug="segment-sum"), "seg-a")
    url = reverse("authoring:as-student", args=["PP-A", copy.slug, 1])
    page = client_for("tara").get(url + "?variant=5").content.decode()
    assert 'id="student-preview"' in page and 'id="submit-button" disabled' in page
    assert "512 floats each" in page and "BLOCK=512, LAYOUT=col" in page  # the sixth variant, its statement
    assert "128 floats each" in client_for("tara").get(url + "?variant=zz").content.decode()  # default variant
    assert "data-draft-key" not in page
    assert client_for("prof").post(url, {"source": "__global__ void k() {}"}).status_code == 405
    assert not Submission.objects.filter(problem_version__problem=copy, purpose=Purpose.STUDENT).exists()
    for outsider in ("stu", "tom", "nobody"):
        assert client_for(outsider).get(url).status_code == 404
    editor = client_for("prof").get(reverse("authoring:edit", args=["PP-A", copy.slug])).content.decode()
    assert url in editor


def test_validating_a_package_with_variants_runs_every_source_in_each_variant_of_its_validation_set(courses, people):
    """segment-sum declares BLOCK x LAYOUT and validate: 3: each source is queued once per variant, as that variant."""
    from pathlib import Path

    from problems.core.package import load_package
    from problems.services import import_package

    import_package(load_package(Path(__file__).resolve().parents[2] / "problems" / "bank" / "segment-sum"))
    copy = actions.copy_from_bank(courses["A"], people["prof"], Problem.objects.get(slug="segment-sum"), "seg-v")
    version = copy.versions.get()
    run = actions.start_validation(version, people["prof"])
    package = version.package()
    wanted = package.variants.validation_set()
    items = list(run.items.select_related("submission"))
    assert len(wanted) == 3 and len(items) == 3 * (1 + len(package.wrong))
    assert all(i.submission.variant in wanted for i in items)
    solutions = [i for i in items if i.name.startswith("solution.cu")]
    assert [s.submission.variant for s in solutions] == wanted
    assert all(f"BLOCK={s.submission.variant['BLOCK']}" in s.name for s in solutions)
    assert {s.submission.variant["BLOCK"] for s in solutions} == {128, 256, 512}
    assert all("{{" not in s.submission.source for s in solutions)  # placeholders filled per variant


def test_staff_preview_generated_families_with_keys_for_the_courses_target_gpu(courses, client_for):
    from practice.core.questions import generate

    course = courses["A"]
    course.target_cc = "8.6"
    course.save()
    url = reverse("authoring:family-preview", args=["PP-A"])
    page = client_for("tara").get(url, {"family": "occupancy.blocks_per_sm", "difficulty": "2", "seed": "5", "n": "2"})
    html = page.content.decode()
    assert page.status_code == 200 and html.count('class="card question family-sample"') == 2
    assert 'data-seed="5"' in html and 'data-seed="6"' in html and "Worked solution" in html
    q = generate("occupancy.blocks_per_sm", 5, 2, "8.6")
    expected = [f.format_value(q.answer[f.name], "en") for f in q.fields]
    assert all(f"<td>{e}</td>" in html for e in expected)
    assert "no question family" in client_for("tara").get(url, {"family": "nope.nope"}).content.decode()
    assert client_for("tara").get(url, {"family": "occupancy.blocks_per_sm", "n": "999"}).content.decode() \
        .count("family-sample") == 12  # capped
    for outsider in ("stu", "tom", "nobody"):
        assert client_for(outsider).get(url).status_code == 404


def test_the_students_page_and_the_preview_as_a_student_render_one_shared_context(courses, people, client_for):
    """problem_page_context is what both pages show: the student's page for the student's own practice
    variant, and the preview for the picked one (statement, signature, samples, hidden count, launch)."""
    from pathlib import Path

    from problems.core.package import load_package
    from problems.pages import problem_page_context
    from problems.services import import_package, practice_variant, version_package

    import_package(load_package(Path(__file__).resolve().parents[2] / "problems" / "bank" / "segment-sum"))
    bank = Problem.objects.get(slug="segment-sum")
    copy = actions.copy_from_bank(courses["A"], people["prof"], bank, "seg-ctx")
    version = copy.versions.get()
    picked = version_package(version).variants.combinations()[5]
    preview = client_for("tara").get(reverse("authoring:as-student", args=["PP-A", copy.slug, 1]) + "?variant=5")
    expected = problem_page_context(copy, version, picked)
    assert "512 floats each" in expected["statement_html"] and expected["hidden_count"] > 0
    for key, value in expected.items():
        assert preview.context[key] == value, key
    own = practice_variant(people["stu"], version_package(bank.current_version))
    page = client_for("stu").get(reverse("problems:detail", args=["segment-sum"]))
    for key, value in problem_page_context(bank, bank.current_version, own).items():
        assert page.context[key] == value, key
