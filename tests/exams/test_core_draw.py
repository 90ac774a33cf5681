"""Drawing: deterministic per (exam secret, student), different between students, stored in full."""
import json

import pytest

from exams.core import families
from exams.core.draw import DrawError, draw_exam, question_view, redraw_item
from exams.core.scoring import score_question
from exams.core.catalogue import KernelInfo, StaticCatalogue
from exams.core.template import parse_template

CATALOGUE = StaticCatalogue([
    KernelInfo("block-sum", 11, 1, "reduction"),
    KernelInfo("reduce4-any-block", 12, 2, "reduction"),
    KernelInfo("vector-add-tail", 13, 1, "indexing"),
])
TEMPLATE = {
    "zones": [
        {"choose": 3, "points": 2, "pool": [
            {"family": "occupancy.blocks_per_sm", "difficulty": [1, 3]}, "indexing.global_index",
            "indexing.warp_lane", "synchronization.classify", "occupancy.limiter"]},
        {"choose": 1, "shuffle": False, "pool": [{"kernel": {"topic": "reduction"}, "attempt_points": [10, 5]}]},
    ],
}
SPEC = parse_template(TEMPLATE, CATALOGUE)


def test_same_student_same_exam():
    """Drawing twice for one (secret, student) gives identical items, down to the JSON."""
    a = draw_exam(SPEC, "secret-1", 42, CATALOGUE).to_dict()
    b = draw_exam(SPEC, "secret-1", "42", CATALOGUE).to_dict()
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_students_get_different_variants():
    """Over 30 students, the chosen items, their order and the generated params vary."""
    draws = [draw_exam(SPEC, "secret-1", s, CATALOGUE) for s in range(30)]
    orders = {tuple(i["key"] for i in d.items) for d in draws}
    params = {json.dumps([i.get("question", {}).get("params") for i in d.items], sort_keys=True) for d in draws}
    slugs = {d.items[-1]["kernel"]["slug"] for d in draws}
    assert len(orders) > 5
    assert len(params) == 30
    assert slugs == {"block-sum", "reduce4-any-block"}


def test_other_secret_other_exam():
    a = draw_exam(SPEC, "secret-1", 7, CATALOGUE).items
    b = draw_exam(SPEC, "secret-2", 7, CATALOGUE).items
    assert [i.get("question", {}).get("seed") for i in a] != [i.get("question", {}).get("seed") for i in b]


def test_items_are_stored_in_full():
    """A question item holds family, version, difficulty, seed, params, en+ko prompt, answer and solution;
    a kernel item its slug and package version id; numbering is 1..N."""
    items = draw_exam(SPEC, "s", 1, CATALOGUE).items
    assert [i["number"] for i in items] == [1, 2, 3, 4]
    q = items[0]["question"]
    for key in ("family", "generator_version", "difficulty", "seed", "params", "prompt", "fields", "answer",
                "solution", "title"):
        assert key in q
    assert set(q["prompt"]) == {"en", "ko"} and set(q["solution"]) == {"en", "ko"}
    assert q["prompt"]["ko"] != q["prompt"]["en"]
    assert items[3]["kind"] == "kernel" and items[3]["kernel"]["version_id"] in (11, 12)
    assert items[3]["kernel"]["attempt_points"] == [10, 5]
    json.dumps(items)  # JSON-ready


def test_difficulty_within_range():
    seen = set()
    for s in range(40):
        for i in draw_exam(SPEC, "s", s, CATALOGUE).items:
            if i.get("question", {}).get("family") == "occupancy.blocks_per_sm":
                seen.add(i["question"]["difficulty"])
    assert seen <= {1, 2, 3} and len(seen) >= 2


def test_unshuffled_zone_keeps_pool_order():
    spec = parse_template({"zones": [{"choose": 3, "shuffle": False, "pool": [
        "indexing.inverse", "indexing.global_index", "indexing.warp_lane", "indexing.grid_dims"]}]})
    for s in range(10):
        keys = [i["key"] for i in draw_exam(spec, "s", s).items]
        assert keys == sorted(keys)


def test_stored_variant_survives_a_generator_change(monkeypatch):
    """After the family's code changes (a new version with other answers), a stored item still shows and
    grades exactly as drawn: scoring reads only the stored key."""
    item = draw_exam(SPEC, "s", 5, CATALOGUE).items[0]
    stored = json.loads(json.dumps(item))
    right = {name: str(value) for name, value in stored["question"]["answer"].items()}
    fam = families.family(stored["question"]["family"])
    original_compose = type(fam).compose

    def broken(self, params):
        prompt, fields, answer, solution = original_compose(self, params)
        return prompt, fields, {k: "zzz" for k in answer}, solution

    monkeypatch.setattr(type(fam), "compose", broken)
    monkeypatch.setattr(type(fam), "version", fam.version + 1)
    assert score_question(stored, right).correct
    assert question_view(stored["question"], "en")["prompt"] == item["question"]["prompt"]["en"]


def test_question_view_hides_key_unless_asked():
    q = draw_exam(SPEC, "s", 5, CATALOGUE).items[0]["question"]
    view = question_view(q, "ko")
    assert "answer" not in view and "solution" not in view
    assert view["prompt"] == q["prompt"]["ko"]
    keyed = question_view(q, "en", with_key=True)
    assert set(keyed["answer"]) == {f["name"] for f in q["fields"]} and keyed["solution"]


def test_redraw_gives_a_fresh_variant_of_the_same_slot():
    item = draw_exam(SPEC, "s", 9, CATALOGUE).items[0]
    new = redraw_item(SPEC, item, "s", 9, CATALOGUE)
    assert new["key"] == item["key"] and new["number"] == item["number"] and new["generation"] == 1
    assert new["question"]["seed"] != item["question"]["seed"]
    assert redraw_item(SPEC, item, "s", 9, CATALOGUE) == new  # deterministic too


def test_vanished_problem_is_a_draw_error():
    with pytest.raises(DrawError):
        draw_exam(SPEC, "s", 1, StaticCatalogue([]))


def test_kernel_problem_with_variants_gets_a_variant_per_student():
    """A kernel item of a package with variant parameters stores the student's variant: the same on every
    draw, one of the declared combinations, and not the same for all 30 students."""
    from pathlib import Path

    from problems.core.package import load_package

    variants = load_package(Path(__file__).resolve().parents[2] / "problems" / "bank" / "segment-sum").variants
    catalogue = StaticCatalogue([KernelInfo("segment-sum", 21, 1, "reduction", variants=variants)])
    spec = parse_template({"zones": [{"pool": [{"kernel": "segment-sum"}]}]}, catalogue)
    drawn = [draw_exam(spec, "secret-1", s, catalogue).items[0]["kernel"]["variant"] for s in range(30)]
    assert drawn[7] == draw_exam(spec, "secret-1", 7, catalogue).items[0]["kernel"]["variant"]
    assert all(variants.check(v) == v for v in drawn)
    assert len({tuple(v.values()) for v in drawn}) >= 4
    plain = draw_exam(SPEC, "secret-1", 1, CATALOGUE).items[-1]["kernel"]
    assert plain["variant"] == {}  # a problem without variants
