"""exams.core.template_edit: the template editor's picker adds an item to a zone's pool of the text,
keeping the author's YAML (comments, flow items) where it can, and never breaking it. The tester's
"Add to the template" with the caret never placed pasted the item under `title:` (shot 12): here the
line the caret is on plays no part."""
import json

import pytest
import yaml

from exams.core.template import parse_template
from exams.core.catalogue import KernelInfo, StaticCatalogue
from exams.core.template_edit import (EditProblem, PickKind, TemplateEditError, UsedItem, add_pool_item, check_id,
                                      used_items, zone_titles)

# The editor's example (exams/forms.py), as the tester had it when pressing the button.
EXAMPLE = """title: {en: Midterm 1, ko: 중간고사 1}
zones:
  - title: {en: Occupancy and indexing, ko: 점유율과 인덱스 계산}
    choose: 2
    points: 5
    pool:
      - {family: occupancy.blocks_per_sm, difficulty: [1, 2]}
      - {family: indexing.global_index, difficulty: 2}
      - {family: indexing.warp_lane}
  - title: {en: Kernel, ko: 커널}
    pool:
      - {kernel: vector-add-tail, attempt_points: [10, 7, 5], partial_credit: true}
"""
CATALOGUE = StaticCatalogue([KernelInfo(s, 1, 1, "memory") for s in ("vector-add-tail", "block-sum")])


def pools(text):
    return [[p.family if hasattr(p, "family") else p.slug for p in z.pool]
            for z in parse_template(text, CATALOGUE).zones]


def test_a_family_goes_to_the_last_zone_holding_families_and_the_template_stays_valid():
    added = add_pool_item(EXAMPLE, PickKind.FAMILY, "synchronization.classify")
    assert added.zone == 0 and not added.rewritten
    assert pools(added.text)[0][-1] == "synchronization.classify"
    assert added.text.splitlines()[added.line - 1] == "      - {family: synchronization.classify}"
    # Everything else is as the author wrote it: one line more, nothing else changed.
    lines = added.text.splitlines()
    assert lines[:added.line - 1] + lines[added.line:] == EXAMPLE.splitlines()


def test_a_kernel_goes_to_the_last_zone_holding_kernels():
    added = add_pool_item(EXAMPLE, PickKind.KERNEL, "block-sum")
    assert added.zone == 1 and pools(added.text)[1] == ["vector-add-tail", "block-sum"]
    assert added.zones == ["Occupancy and indexing", "Kernel"]


def test_the_chosen_zone_gets_the_item():
    added = add_pool_item(EXAMPLE, PickKind.FAMILY, "memory.bank_conflicts", zone=1)
    assert pools(added.text)[1] == ["vector-add-tail", "memory.bank_conflicts"]
    with pytest.raises(TemplateEditError) as err:
        add_pool_item(EXAMPLE, PickKind.FAMILY, "memory.bank_conflicts", zone=2)
    assert err.value.problem is EditProblem.NO_SUCH_ZONE and err.value.params == {"zone": 3, "zones": 2}


LAYOUTS = """title: T
zones:
- title: Block items
  pool:
  - family: indexing.inverse
    difficulty: 2   # kept
  # a comment after the pool, kept where it is

- title: Flow list
  pool: [indexing.inverse, indexing.limits]
- title: Empty pool
  pool:
- title: No pool
  choose: 1
"""


@pytest.mark.parametrize("zone, line", [(0, "  - {family: indexing.grid_dims}"),
                                        (1, "  pool: [indexing.inverse, indexing.limits, {family: indexing.grid_dims}]"),
                                        (2, "    - {family: indexing.grid_dims}"),
                                        (3, "    - {family: indexing.grid_dims}")])
def test_every_pool_layout_takes_the_item_in_place(zone, line):
    """Block items (indentless), a flow list, an empty `pool:` and a zone with no pool yet: one line
    added or extended, comments kept, and the data is the old data with the item appended."""
    added = add_pool_item(LAYOUTS, PickKind.FAMILY, "indexing.grid_dims", zone=zone)
    assert not added.rewritten and added.text.splitlines()[added.line - 1] == line
    assert "# kept" in added.text and "# a comment after the pool" in added.text
    before, after = yaml.safe_load(LAYOUTS), yaml.safe_load(added.text)
    assert (after["zones"][zone]["pool"] or [])[-1] == {"family": "indexing.grid_dims"}
    after["zones"][zone]["pool"].pop()
    if not after["zones"][zone]["pool"]:
        after["zones"][zone]["pool"] = before["zones"][zone].get("pool")
        if "pool" not in before["zones"][zone]:
            del after["zones"][zone]["pool"]
    assert after == before


def test_a_flow_style_zone_is_rewritten_whole_and_says_so():
    text = "title: T\nzones:\n- {title: Q, pool: [indexing.inverse]}  # gone\n"
    added = add_pool_item(text, PickKind.FAMILY, "indexing.limits")
    assert added.rewritten and "# gone" not in added.text
    assert yaml.safe_load(added.text)["zones"][0]["pool"] == ["indexing.inverse", {"family": "indexing.limits"}]
    assert added.text.splitlines()[added.line - 1].strip() == "- family: indexing.limits"


def test_json_stays_json():
    text = json.dumps(yaml.safe_load(EXAMPLE))
    added = add_pool_item(text, PickKind.KERNEL, "block-sum")
    data = json.loads(added.text)
    assert data["zones"][1]["pool"][-1] == {"kernel": "block-sum"}
    assert added.text.splitlines()[added.line - 1].strip() == '"kernel": "block-sum"'


def test_an_empty_text_gets_a_zone():
    """Titled as a new zone of the zone list is, "Zone 1" / "구역 1" (it had none: "Part 1" once saved)."""
    added = add_pool_item("", PickKind.FAMILY, "indexing.inverse")
    assert yaml.safe_load(added.text) == {"zones": [{"title": {"en": "Zone 1", "ko": "구역 1"},
                                                     "pool": [{"family": "indexing.inverse"}]}]}


def test_the_testers_broken_text_is_refused_with_its_line_and_left_alone():
    broken = "title: {en: Midterm 1, ko: 중간고사 1}\n  - {family: synchronization.classify}\nzones:\n"
    with pytest.raises(TemplateEditError) as err:
        add_pool_item(broken, PickKind.FAMILY, "indexing.inverse")
    assert err.value.problem is EditProblem.UNREADABLE and err.value.params["line"] == 2
    with pytest.raises(TemplateEditError) as err:
        add_pool_item("- just\n- a list\n", PickKind.FAMILY, "indexing.inverse")
    assert err.value.problem is EditProblem.NOT_A_TEMPLATE


def test_ids_are_checked_with_the_closest_known_one():
    known = ["memory.bank_conflicts", "memory.coalescing"]
    assert check_id(PickKind.FAMILY, " memory.coalescing ", known) == "memory.coalescing"
    with pytest.raises(TemplateEditError) as err:
        check_id(PickKind.FAMILY, "memory.bank_conflict", known)
    assert err.value.problem is EditProblem.UNKNOWN_ID and err.value.params["close"] == "memory.bank_conflicts"
    with pytest.raises(TemplateEditError) as err:
        check_id(PickKind.KERNEL, "zzz", known)
    assert err.value.params["close"] == ""
    with pytest.raises(TemplateEditError) as err:
        check_id(PickKind.KERNEL, "  ", known)
    assert err.value.problem is EditProblem.EMPTY_ID


def test_zone_titles_in_each_language():
    assert zone_titles(EXAMPLE, "ko") == ["점유율과 인덱스 계산", "커널"]
    assert zone_titles("title: x\n  - y: [\n") == []


def test_an_item_the_template_has_is_refused_and_the_text_kept():
    """vector-add-tail is in zone 2 and indexing.warp_lane (difficulty 1, as the picker adds a family) in
    zone 1: a student would get either twice. indexing.global_index is there at difficulty 2 only, so
    the picker's difficulty-1 item is another one and goes in."""
    for kind, item_id, zone in ((PickKind.KERNEL, "vector-add-tail", 2), (PickKind.FAMILY, "indexing.warp_lane", 1)):
        with pytest.raises(TemplateEditError) as err:
            add_pool_item(EXAMPLE, kind, item_id, zone=0)
        assert err.value.problem is EditProblem.ALREADY_THERE
        assert err.value.params == {"kind": str(kind), "id": item_id, "zone": zone}
    added = add_pool_item(EXAMPLE, PickKind.FAMILY, "indexing.global_index")
    assert pools(added.text)[0][-1] == "indexing.global_index"


def test_used_items_lists_families_and_named_kernels_in_order():
    text = EXAMPLE + "  - pool: [indexing.inverse, {kernel: {topic: reduction}}]\n"
    assert used_items(text) == [
        UsedItem(PickKind.FAMILY, "occupancy.blocks_per_sm", 0, (1, 2)),
        UsedItem(PickKind.FAMILY, "indexing.global_index", 0, (2, 2)),
        UsedItem(PickKind.FAMILY, "indexing.warp_lane", 0, (1, 1)),
        UsedItem(PickKind.KERNEL, "vector-add-tail", 1, None),
        UsedItem(PickKind.FAMILY, "indexing.inverse", 2, (1, 1)),
    ]
    assert used_items("zones: [unclosed") == []
