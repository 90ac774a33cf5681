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


def test_no_student_gets_one_question_variant_twice():
    """reduction.tree_steps has 4 variants at difficulty 3: two of its items (3, and the range 2-3)
    gave about one student in five the same question twice; now never, and the first item keeps
    the variant it drew before."""
    from exams.core.draw import repeats, variant_id

    spec = parse_template({"zones": [{"shuffle": False,
                                      "pool": [{"family": "reduction.tree_steps", "difficulty": 3},
                                               {"family": "reduction.tree_steps", "difficulty": [2, 3]}]}]})
    first_only = parse_template({"zones": [{"shuffle": False,
                                            "pool": [{"family": "reduction.tree_steps", "difficulty": 3}]}]})
    for s in range(60):
        items = draw_exam(spec, "secret", s, CATALOGUE).items
        assert repeats(items) == [] and len({variant_id(i["question"]) for i in items}) == 2
        assert items[0]["question"] == draw_exam(first_only, "secret", s).items[0]["question"]


def test_a_stored_template_that_repeats_an_item_draws_distinct_variants_or_fails():
    """A template saved before repeats were refused (read leniently): two identical family items give
    two different variants; a kernel problem named twice is a DrawError, never given twice."""
    from exams.core.catalogue import AnyCatalogue
    from exams.core.draw import repeats

    spec = parse_template({"zones": [{"pool": ["reduction.scan_work", "reduction.scan_work"]}]}, AnyCatalogue())
    for s in range(30):
        assert repeats(draw_exam(spec, "secret", s).items) == []
    twice = parse_template({"zones": [{"pool": [{"kernel": "block-sum"}, {"kernel": "block-sum"}]}]}, AnyCatalogue())
    with pytest.raises(DrawError, match="named twice"):
        draw_exam(twice, "secret", 1, CATALOGUE)


def test_repeats_names_what_a_stored_draw_holds_twice():
    from exams.core.draw import repeats

    items = draw_exam(SPEC, "s", 1, CATALOGUE).items
    assert repeats(items) == []
    assert repeats(items + [dict(items[-1])]) == [items[-1]["kernel"]["slug"]]


def test_a_reset_repeats_none_of_the_attempts_other_items():
    """A staff reset draws a variant the attempt's other items do not have (tree_steps: 4 variants at
    difficulty 3; the template, read leniently, has it twice)."""
    from exams.core.catalogue import AnyCatalogue
    from exams.core.draw import variant_id

    item = {"family": "reduction.tree_steps", "difficulty": 3}
    spec = parse_template({"zones": [{"shuffle": False, "pool": [item, item]}]}, AnyCatalogue())
    for s in range(20):
        first, second = draw_exam(spec, "secret", s).items
        for _ in range(3):
            second = redraw_item(spec, second, "secret", s, others=[first])
            assert variant_id(second["question"]) != variant_id(first["question"])
