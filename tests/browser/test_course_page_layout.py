"""A course page's section links sit together at the right of its title, in English and Korean, for a
student and for its instructor: one row of buttons, each next to the previous one (the second tester's
07-after-signup7: "Problem sets" floated in the middle of the header and "Exams" at its far right)."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]

_MEASURE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const head = document.querySelector('.page-head');
  return {head: box(head), title: box(head.querySelector('h1')),
          links: [...head.querySelectorAll('a.btn')].map((a) => ({id: a.id, text: a.innerText, ...box(a)}))};
}"""


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("who, n_links", [("stu", 2), ("prof", 5)])  # prof: Manage, Settings, Problems, …
def test_the_section_links_are_one_group_at_the_right(live_server, browser, log_in, transactional_db, lang, who,
                                                      n_links):
    from django.contrib.auth.models import User

    from courses.models import Course, Membership, Role

    course = Course.objects.create(name="병렬 프로그래밍 Parallel Programming T2", code="PP-T2")
    for name, role in (("stu", Role.STUDENT), ("prof", Role.INSTRUCTOR)):
        Membership.objects.create(course=course, user=User.objects.create_user(name, password="pass-1234-word"),
                                  role=role)
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale=lang,
                            extra_http_headers={"Accept-Language": lang})
    log_in(page, who)
    page.goto(f"{live_server.url}/courses/PP-T2/")
    m = page.evaluate(_MEASURE)
    links = m["links"]
    assert len(links) == n_links and links[-2]["id"] == "course-sets" and links[-1]["id"] == "course-exams", links
    for before, after in zip(links, links[1:]):
        assert abs(before["top"] - after["top"]) < 1, (before, after)  # one row
        assert 0 <= after["left"] - before["right"] <= 12, (before, after)  # side by side, a small gap
    assert m["head"]["right"] - links[-1]["right"] < 2  # the group ends at the header's right edge
    assert links[0]["left"] > m["title"]["right"]  # and starts after the title
    nav_label = page.locator("#course-sections").get_attribute("aria-label")
    assert nav_label == ("강좌 메뉴" if lang == "ko" else "Course sections")
