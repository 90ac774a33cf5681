"""Exam templates: parsing, defaults, round trip, and the path of every validation message."""
import pytest

from exams.core.catalogue import KernelInfo, StaticCatalogue
from exams.core.template import ItemKind, TemplateError, dump_yaml, load_text, parse_template

CATALOGUE = StaticCatalogue([
    KernelInfo("block-sum", 11, 1, "reduction"),
    KernelInfo("reduce4-any-block", 12, 2, "reduction", tags=("exam",)),
    KernelInfo("vector-add-tail", 13, 1, "indexing"),
    KernelInfo("broken", 14, 1, "indexing", error="solution.cu got WRONG_ANSWER, not ACCEPTED"),
])

GOOD = {
    "title": {"en": "Midterm", "ko": "중간고사"},
    "zones": [
        {"title": "Occupancy", "choose": 1, "points": 5,
         "pool": [{"family": "occupancy.blocks_per_sm", "difficulty": [1, 2]}, "indexing.global_index"]},
        {"title": {"en": "Kernels"}, "pool": [
            {"kernel": "block-sum", "attempt_points": [10, 7, 5], "partial_credit": True},
            {"kernel": {"topic": "indexing"}, "attempts": 2, "points": 8},
        ]},
    ],
}


def problems_of(data):
    with pytest.raises(TemplateError) as info:
        parse_template(data, CATALOGUE)
    return info.value.messages()


def test_good_template_parses_with_defaults():
    """Zone points apply to items without their own; attempts follow attempt_points; choose defaults to the pool."""
    spec = parse_template(GOOD, CATALOGUE)
    occ, kern = spec.zones
    assert occ.choose == 1 and occ.shuffle is True
    assert occ.pool[0].difficulty == (1, 2) and occ.pool[0].points == 5
    assert occ.pool[1].family == "indexing.global_index" and occ.pool[1].difficulty == (1, 1)
    assert kern.choose == 2
    bs, topic = kern.pool
    assert bs.kind is ItemKind.KERNEL and bs.attempts == 3 and bs.attempt_points == (10, 7, 5) and bs.points == 10
    assert bs.partial_credit is True
    assert topic.slug is None and topic.topic == "indexing" and topic.attempt_points == (8, 8)
    assert spec.item_count == 3


def test_round_trip_through_yaml_export():
    """Export (to_dict, YAML text) and import give the same spec back."""
    spec = parse_template(GOOD, CATALOGUE)
    assert parse_template(dump_yaml(spec), CATALOGUE) == spec
    assert parse_template(spec.to_dict(), CATALOGUE) == spec


def test_json_and_yaml_text_both_load():
    assert load_text('{"zones": []}') == {"zones": []}
    assert load_text("zones:\n  - pool: [indexing.inverse]\n") == {"zones": [{"pool": ["indexing.inverse"]}]}


@pytest.mark.parametrize("mutate, expected", [
    (lambda d: d["zones"][0]["pool"].append({"family": "x"}), "zones[0].pool[2].family: unknown family 'x'"),
    (lambda d: d["zones"][0].update(choose=5), "zones[0].choose: chooses 5 items from a pool of 2"),
    (lambda d: d["zones"][1]["pool"].append({"kernel": "nope"}), "zones[1].pool[2].kernel: unknown problem 'nope'"),
    (lambda d: d["zones"][1]["pool"].append({"kernel": "broken"}),
     "zones[1].pool[2].kernel: problem 'broken' does not validate: solution.cu got WRONG_ANSWER, not ACCEPTED"),
    (lambda d: d["zones"][1]["pool"].append({"kernel": {"topic": "atomics"}}),
     "zones[1].pool[2].kernel: no usable problem of topic 'atomics'"),
    (lambda d: d["zones"][1]["pool"].append({"kernel": {"tag": "nope"}}),
     "zones[1].pool[2].kernel: no usable problem with tag 'nope'"),
    (lambda d: d["zones"][1]["pool"].append({"kernel": {"topic": "indexing"}}),
     "zones[1].pool[1].kernel: matches 1 usable problem(s) of topic 'indexing' (vector-add-tail), fewer than the 2 "
     "this zone can draw: a student would get the same problem twice"),
    (lambda d: d["zones"][0]["pool"][0].update(difficulty=[3, 1]), "zones[0].pool[0].difficulty: levels must be"),
    (lambda d: d["zones"][1]["pool"][0].update(attempts=2), "zones[1].pool[0].attempt_points: has 3 values for 2"),
    (lambda d: d["zones"][1]["pool"][0].update(attempt_points=[5, 7]),
     "zones[1].pool[0].attempt_points: must not grow"),
    (lambda d: d["zones"][1]["pool"][0].update(points=3), "zones[1].pool[0].points: is 3 but the best attempt earns 10"),
    (lambda d: d["zones"][0].update(pool=[]), "zones[0].pool: must be a non-empty list"),
    (lambda d: d["zones"][0]["pool"][0].update(colour="red"), "zones[0].pool[0].colour: unknown key"),
    (lambda d: d["zones"][0].update(feedback="loud"), "zones[0].feedback: must be one of none, verdict, full"),
    (lambda d: d["zones"][1]["pool"].append({"family": "indexing.inverse", "kernel": "block-sum"}),
     "zones[1].pool[2]: needs exactly one of"),
])
def test_validation_messages_name_the_path(mutate, expected):
    import copy

    data = copy.deepcopy(GOOD)
    mutate(data)
    assert any(m.startswith(expected) for m in problems_of(data)), problems_of(data)


def test_tag_and_topic_pools_draw_among_matching_problems():
    """A tag pool matches the problems with the tag; a reduction item and a reduction-with-tag-exam item
    get the two reduction problems, the first moved off reduce4-any-block when it drew it."""
    assert [i.slug for i in CATALOGUE.matching(None, "exam")] == ["reduce4-any-block"]
    data = {"zones": [{"pool": [{"kernel": {"topic": "reduction"}}]},
                      {"pool": [{"kernel": {"tag": "exam", "topic": "reduction"}}]}]}
    spec = parse_template(data, CATALOGUE)
    from exams.core.draw import draw_exam

    for student in range(12):
        slugs = [i["kernel"]["slug"] for i in draw_exam(spec, "s", student, CATALOGUE).items]
        assert slugs == ["block-sum", "reduce4-any-block"]


def test_pools_that_together_match_too_few_problems_are_refused():
    """Two reduction items and a reduction-with-tag-exam item need three problems; there are two, so a
    student would get one twice (the draw used to give reduce4-any-block twice)."""
    data = {"zones": [{"choose": 2, "pool": [{"kernel": {"topic": "reduction"}}, {"kernel": {"topic": "reduction"}}]},
                      {"pool": [{"kernel": {"tag": "exam", "topic": "reduction"}}]}]}
    assert problems_of(data) == [
        "zones[0].pool[0].kernel: matches 2 usable problem(s) of topic 'reduction' / of topic 'reduction' with tag "
        "'exam' (block-sum, reduce4-any-block), fewer than the 3 that zones[0].pool[0], zones[0].pool[1], "
        "zones[1].pool[0] can draw for one student: a student would get the same problem twice"]


def test_every_problem_is_reported_at_once():
    """Two mistakes in different zones are both listed, so an author fixes them in one pass."""
    data = {"zones": [{"pool": [{"family": "nope"}]}, {"choose": 3, "pool": ["indexing.inverse"]}]}
    msgs = problems_of(data)
    assert "zones[0].pool[0].family: unknown family 'nope'" in msgs
    assert "zones[1].choose: chooses 3 items from a pool of 1" in msgs


def test_kernel_items_need_a_catalogue():
    with pytest.raises(TemplateError, match="no catalogue"):
        parse_template({"zones": [{"pool": [{"kernel": "block-sum"}]}]})


def test_not_a_mapping_and_no_zones():
    with pytest.raises(TemplateError, match="must be a mapping"):
        parse_template([1, 2])
    with pytest.raises(TemplateError, match="zones: must be a non-empty list"):
        parse_template({"title": "x"})
    with pytest.raises(TemplateError, match="not valid JSON or YAML"):
        parse_template("zones: [unclosed")


def test_a_kernel_problem_named_twice_is_refused_in_any_zones():
    """block-sum twice (the tester's template: a student was given it twice) is refused at its second
    place, naming the first; the same in one zone."""
    data = {"zones": [{"pool": [{"kernel": "block-sum"}, "indexing.inverse"]},
                      {"pool": [{"kernel": "block-sum", "attempts": 2}]}]}
    assert problems_of(data) == ["zones[1].pool[0].kernel: kernel problem 'block-sum' is already in the template "
                                 "(zones[0].pool[0]): a student would get it twice; remove one of them"]
    one_zone = {"zones": [{"choose": 1, "pool": [{"kernel": "block-sum"}, {"kernel": "block-sum"}]}]}
    assert [m.split(":")[0] for m in problems_of(one_zone)] == ["zones[0].pool[1].kernel"]


def test_a_family_with_the_same_difficulty_twice_is_refused_another_difficulty_is_not():
    """A bare family id is the family at difficulty 1, so `indexing.inverse` and `{family: indexing.inverse,
    difficulty: 1}` are the same item; at difficulty 2 it is another one, and so is a range."""
    same = {"zones": [{"pool": ["indexing.inverse"]}, {"pool": [{"family": "indexing.inverse", "difficulty": 1}]}]}
    assert problems_of(same) == [
        "zones[1].pool[0].family: question family 'indexing.inverse' at difficulty 1 is already in the template "
        "(zones[0].pool[0]): a student could get it twice; remove one of them or give it another difficulty"]
    ranges = {"zones": [{"pool": [{"family": "indexing.inverse", "difficulty": [1, 2]},
                                  {"family": "indexing.inverse", "difficulty": [1, 2], "points": 3}]}]}
    assert "at difficulties 1-2 is already in the template (zones[0].pool[0])" in problems_of(ranges)[0]
    other = {"zones": [{"pool": ["indexing.inverse", {"family": "indexing.inverse", "difficulty": 2},
                                 {"family": "indexing.inverse", "difficulty": [1, 3]}]}]}
    assert len(parse_template(other).zones[0].pool) == 3


def test_a_stored_template_with_a_repeat_still_reads():
    """An exam scheduled before repeats were refused is read with AnyCatalogue (no checks that need the
    real problems), so its pages still open; drawing it refuses to repeat (tests/exams/test_core_draw.py)."""
    from exams.core.catalogue import AnyCatalogue

    data = {"zones": [{"pool": [{"kernel": "block-sum"}, {"kernel": "block-sum"}, "indexing.inverse",
                                "indexing.inverse"]}]}
    assert len(parse_template(data, AnyCatalogue()).zones[0].pool) == 4


def test_a_slug_item_and_a_topic_item_of_its_topic_draw_distinct_problems():
    """block-sum by slug and a reduction item: the reduction item gets the other reduction problem,
    whatever the order of the zones (the slug item came after it and repeated it)."""
    from exams.core.draw import draw_exam

    for zones in ([{"pool": [{"kernel": {"topic": "reduction"}}]}, {"pool": [{"kernel": "block-sum"}]}],
                  [{"pool": [{"kernel": "block-sum"}]}, {"pool": [{"kernel": {"topic": "reduction"}}]}]):
        spec = parse_template({"zones": zones}, CATALOGUE)
        for student in range(10):
            slugs = sorted(i["kernel"]["slug"] for i in draw_exam(spec, "s", student, CATALOGUE).items)
            assert slugs == ["block-sum", "reduce4-any-block"]
    too_few = {"zones": [{"pool": [{"kernel": {"tag": "exam"}}]}, {"pool": [{"kernel": "reduce4-any-block"}]}]}
    assert problems_of(too_few) == [
        "zones[0].pool[0].kernel: matches 1 usable problem(s) with tag 'exam' (reduce4-any-block), fewer than the 2 "
        "that zones[0].pool[0], zones[1].pool[0] can draw for one student: a student would get the same problem twice"]
