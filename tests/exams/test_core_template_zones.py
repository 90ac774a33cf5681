"""exams.core.template_zones: the template editor's zone list adds, removes and renames zones in the
template's text, keeping the author's YAML comments and layout where it can; a new or untitled zone is
"Zone N" / "구역 N" (it was "Part N", in English on Korean pages too)."""
import json

import pytest
import yaml

from exams.core.template import default_zone_title, parse_template
from exams.core.template_edit import EditProblem, PickKind, TemplateEditError, add_pool_item
from exams.core.template_zones import ZoneOp, add_zone, remove_zone, rename_zone, zone_summaries

EXAMPLE = """title: {en: Midterm 1, ko: 중간고사 1}
zones:
  # the warm-up
  - title: {en: Occupancy and indexing, ko: 점유율과 인덱스 계산}
    choose: 2
    pool:
      - {family: occupancy.blocks_per_sm, difficulty: [1, 2]}
      - {family: indexing.global_index, difficulty: 2}
      - {family: indexing.warp_lane}
  - choose: 1   # this zone has no title
    pool:
      - {kernel: vector-add-tail}
"""


def zones_of(text):
    return yaml.safe_load(text)["zones"]


def test_the_zones_are_summarised_as_written():
    assert [(z.index, z.title, z.items, z.choose) for z in zone_summaries(EXAMPLE)] == [
        (0, {"en": "Occupancy and indexing", "ko": "점유율과 인덱스 계산"}, 3, 2), (1, {}, 1, 1)]
    assert zone_summaries("zones: [unclosed") == [] and zone_summaries("") == []


def test_a_new_zone_is_named_by_its_place_and_ready_for_the_picker():
    """One zone block below the last, comments kept; its empty pool takes the picker's next item."""
    edit = add_zone(EXAMPLE)
    assert edit.op is ZoneOp.ADD and edit.zone == 2 and not edit.rewritten
    assert edit.title == {"en": "Zone 3", "ko": "구역 3"} == default_zone_title(3)
    assert edit.text.startswith(EXAMPLE.rstrip("\n")) and "# the warm-up" in edit.text
    assert zones_of(edit.text)[2] == {"title": {"en": "Zone 3", "ko": "구역 3"}, "pool": None}
    filled = add_pool_item(edit.text, PickKind.FAMILY, "indexing.inverse", 2)
    assert zones_of(filled.text)[2]["pool"] == [{"family": "indexing.inverse"}] and not filled.rewritten


def test_a_new_zones_default_name_is_not_one_already_taken():
    text = "zones:\n  - title: {en: Zone 2, ko: 구역 2}\n    pool: [indexing.inverse]\n"
    assert add_zone(text).title == {"en": "Zone 3", "ko": "구역 3"}


@pytest.mark.parametrize("text", ["", "title: {en: Quiz}\n", "# my quiz\ntitle: Quiz"])
def test_a_template_without_zones_gets_its_first(text):
    edit = add_zone(text)
    assert zones_of(edit.text) == [{"title": {"en": "Zone 1", "ko": "구역 1"}, "pool": None}]
    assert not edit.rewritten and edit.text.startswith(text)


def test_json_stays_json_and_a_flow_template_is_written_whole():
    edit = add_zone(json.dumps({"title": "Quiz", "zones": [{"pool": ["indexing.inverse"]}]}))
    assert json.loads(edit.text)["zones"][1] == {"title": {"en": "Zone 2", "ko": "구역 2"}, "pool": []}
    flow = add_zone("{title: Quiz, zones: [{pool: [indexing.inverse]}]}")
    assert flow.rewritten and zones_of(flow.text)[1]["pool"] == []


def test_removing_a_zone_cuts_its_lines_and_says_what_went_with_it():
    first = remove_zone(EXAMPLE, 0)
    assert first.op is ZoneOp.REMOVE and first.items == 3 and not first.rewritten
    assert first.title == {"en": "Occupancy and indexing", "ko": "점유율과 인덱스 계산"}
    assert zones_of(first.text) == [{"choose": 1, "pool": [{"kernel": "vector-add-tail"}]}]
    assert "# this zone has no title" in first.text
    last = remove_zone(EXAMPLE, 1)
    assert last.title == {"en": "Zone 2", "ko": "구역 2"} and last.items == 1
    assert [z["title"]["en"] for z in zones_of(last.text)] == ["Occupancy and indexing"]
    assert last.text.endswith("- {family: indexing.warp_lane}\n")
    only = remove_zone(last.text, 0)
    assert zones_of(only.text) == []


@pytest.mark.parametrize("index, title, expected", [
    (0, {"en": "Warm-up: occupancy", "ko": "준비"}, {"en": "Warm-up: occupancy", "ko": "준비"}),
    (1, {"en": "  Kernel  ", "ko": ""}, {"en": "Kernel"}),  # an empty language is left out
    (1, {"en": "", "ko": "커널"}, {"en": "Zone 2", "ko": "커널"}),  # no English: the default one
    (0, {"en": "", "ko": ""}, {"en": "Zone 1", "ko": "구역 1"}),
])
def test_renaming_a_zone_replaces_or_adds_its_title_line(index, title, expected):
    edit = rename_zone(EXAMPLE, index, title)
    assert edit.op is ZoneOp.RENAME and edit.title == expected and not edit.rewritten
    zones = zones_of(edit.text)
    assert zones[index]["title"] == expected and zones[1 - index] == zones_of(EXAMPLE)[1 - index]
    assert "# the warm-up" in edit.text and "# this zone has no title" in edit.text
    assert len(edit.text.splitlines()) == len(EXAMPLE.splitlines()) + (1 if index == 1 else 0)


def test_a_block_title_is_replaced_whole():
    text = "zones:\n  - title:\n      en: Old\n      ko: 옛\n    pool: [indexing.inverse]\n"
    edit = rename_zone(text, 0, {"en": "New", "ko": "새"})
    assert edit.text == "zones:\n  - title: {en: New, ko: 새}\n    pool: [indexing.inverse]\n"


def test_edits_of_an_unreadable_text_or_a_missing_zone_are_refused_and_change_nothing():
    with pytest.raises(TemplateEditError) as err:
        remove_zone(EXAMPLE, 5)
    assert err.value.problem is EditProblem.NO_SUCH_ZONE and err.value.params == {"zone": 6, "zones": 2}
    with pytest.raises(TemplateEditError) as err:
        rename_zone("zones: [unclosed", 0, {"en": "x"})
    assert err.value.problem is EditProblem.UNREADABLE
    with pytest.raises(TemplateEditError) as err:
        add_zone("- a\n- list\n")
    assert err.value.problem is EditProblem.NOT_A_TEMPLATE


def test_an_untitled_zone_is_zone_n_in_both_languages_when_parsed():
    spec = parse_template({"zones": [{"title": "Warm-up", "pool": ["indexing.inverse"]},
                                     {"pool": ["indexing.warp_lane"]}]})
    assert [z.title for z in spec.zones] == [{"en": "Warm-up"}, {"en": "Zone 2", "ko": "구역 2"}]
