"""programming_model.host_timeline: timelines checked by closed forms written here (back-to-back kernels when the
kernel outlasts the host's loop body, else one launch gap per kernel), apart from the family's event loop."""
import re

from .familycheck import assert_family_basics, assert_not_guessable, questions


def test_basics():
    assert_family_basics("programming_model.host_timeline")


def test_memcpy_waits_for_the_kernel():
    for q in questions("programming_model.host_timeline", 1):
        L, k, c, d = (q.params[x] for x in ("launch", "k", "cpu", "copy"))
        src = "\n".join(b["text"] for b in q.render("en")["prompt"] if b["kind"] == "code")
        assert f"runs {k} µs" in src and f"{c} µs on the CPU" in src and f"takes {d} µs" in src
        assert q.answer == {"kernel_end": L + k, "printf": max(L + c, L + k) + d}
    assert_not_guessable([q.answer["printf"] for q in questions("programming_model.host_timeline", 1)], 4)


def test_timer_without_sync_measures_the_launch_only():
    for q in questions("programming_model.host_timeline", 2):
        assert q.answer == {"a": q.params["cold"], "b": q.params["launch"] + q.params["k"]}


def test_loop_closed_form():
    both = set()
    for q in questions("programming_model.host_timeline", 3):
        L, n, k, c = (q.params[x] for x in ("launch", "n", "k", "cpu"))
        body = L + c
        if k >= body:
            last_end, idle = L + n * k, 0
        else:
            last_end, idle = (n - 1) * body + L + k, (n - 1) * (body - k)
        assert q.answer == {"total": max(n * body, last_end), "idle": idle}
        both.add(idle == 0)
    assert both == {True, False}
    assert_not_guessable([q.answer["idle"] for q in questions("programming_model.host_timeline", 3)], 4)
