"""exams/core/nesting.py: a template text nested deeper than a template can be is refused before (or
instead of) Python's recursive parsers, as TemplateError / TemplateEditError, never RecursionError.
No database."""
from __future__ import annotations

import json

import pytest
import yaml

from exams.core.nesting import MAX_DEPTH, TooDeepError, data_depth, load_json_or_yaml, text_depth
from exams.core.repeats import TemplateProblem
from exams.core.template import TemplateError, load_text
from exams.core.template_edit import EditProblem, PickKind, TemplateEditError, add_pool_item, readable_zones

EXAMPLE = """title: {en: Midterm 1, ko: 중간고사 1}
zones:
  - title: {en: Occupancy and indexing, ko: Occupancy와 인덱스 계산}
    choose: 2
    pool:
      - {family: occupancy.blocks_per_sm, difficulty: [1, 2]}
      - family: indexing.warp_lane
        difficulty: [2, 3]
  - title: Kernel [part 2
    notes: |
      [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ brackets in a block scalar are text
    pool:
      - {kernel: vector-add-tail, attempt_points: [10, 7, 5]}
"""

# Shapes of deep nesting, each far past MAX_DEPTH; every one of them raised RecursionError (a 500).
DEEP = {
    "json arrays": "[" * 100_000 + "]" * 100_000,
    "json objects": '{"a":' * 5_000 + "1" + "}" * 5_000,
    "yaml flow in a template": "title: x\nzones: " + "[" * 50_000 + "]" * 50_000,
    "yaml block sequences": "zones:\n" + "- " * 3_000 + "x\n",
    "yaml indentation": "".join(" " * i + f"k{i}:\n" for i in range(700)) + " " * 700 + "v\n",
}


def test_a_real_template_is_far_below_the_limit_however_it_is_written():
    """The editor's example, as YAML, as indented and as one-line JSON: about 7 levels, and brackets in
    plain and block scalars are not counted."""
    data = yaml.safe_load(EXAMPLE)
    for text in (EXAMPLE, json.dumps(data, indent=2), json.dumps(data)):
        assert 6 <= text_depth(text) <= 8
        assert load_json_or_yaml(text)[0] == data
    assert data_depth(data) == 6 and data_depth(1) == 0 and data_depth([]) == 1


@pytest.mark.parametrize("shape", DEEP)
def test_deep_text_is_refused_before_a_parser_sees_it(shape):
    assert text_depth(DEEP[shape]) > MAX_DEPTH
    with pytest.raises(TooDeepError):
        load_json_or_yaml(DEEP[shape])


def test_what_the_text_does_not_show_is_measured_in_the_data():
    """A chain of YAML aliases nests one level per line (the text looks flat), and an alias inside its
    own anchor nests forever; aliases that multiply the size are measured once each, quickly."""
    chain = "a0: &a0 [1]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 60))
    assert text_depth(chain) <= 3
    with pytest.raises(TooDeepError):
        load_json_or_yaml(chain)
    with pytest.raises(TooDeepError):
        load_json_or_yaml("a: &a [*a]\n")
    laughs = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdefg", "bcdefgh"))
    assert data_depth(yaml.safe_load(laughs)) == 9  # 10**8 leaves, 71 distinct lists


@pytest.mark.parametrize("shape", DEEP)
def test_the_template_reader_says_nested_too_deeply(shape):
    with pytest.raises(TemplateError) as caught:
        load_text(DEEP[shape])
    [(path, message)] = caught.value.problems
    assert path == "" and message.code is TemplateProblem.TOO_DEEP and message.params == {"depth": MAX_DEPTH}
    assert f"nested too deeply (more than {MAX_DEPTH} levels" in message


@pytest.mark.parametrize("shape", DEEP)
def test_the_picker_and_the_zone_list_refuse_it_too(shape):
    """Adding an item says why nothing was added; the zone list of such a text is empty."""
    with pytest.raises(TemplateEditError) as caught:
        add_pool_item(DEEP[shape], PickKind.FAMILY, "indexing.warp_lane", None, "en")
    assert caught.value.problem is EditProblem.TOO_DEEP and caught.value.params == {"depth": MAX_DEPTH}
    assert readable_zones(DEEP[shape]) == []
