"""Every topic a page can show has a name in English and in Korean. The tester read "Programming_Model"
(the `topic_label` filter's fallback, `str(topic).title()`) and, in Korean, untranslated "Divergence" and
"Performance": the filter had its own list of six topics. It now reads problems.core.topics.TOPIC_NAMES,
and a key that is not a topic is written as words."""
import re
from pathlib import Path

import pytest
import yaml
from django.template import Context, Template
from django.utils import translation

from practice.core.questions import FAMILIES
from problems.core.topics import Topic, humanize
from problems.templatetags.warpdrill import topic_label

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def used_topics() -> set[str]:
    """The topics of the bank's packages, of the question families, and the ones a course's own problem
    may have (Problem.topic's choices: every Topic)."""
    bank = {yaml.safe_load((p / "problem.yaml").read_text())["topic"] for p in BANK.iterdir()
            if (p / "problem.yaml").exists()}
    families = {str(f.topic) for f in FAMILIES.values()}
    assert bank and families and bank <= {str(t) for t in Topic}
    return bank | families | {str(t) for t in Topic}


@pytest.mark.parametrize("topic", sorted(used_topics()))
def test_every_topic_has_an_english_and_a_korean_name(topic):
    with translation.override("en"):
        en = topic_label(topic)
    with translation.override("ko"):
        ko = topic_label(topic)
    assert en != topic and en[0].isupper() and not re.search(r"[_-]", en), en  # was "Programming_Model"
    assert ko != topic and ko != en and HANGUL.search(ko), ko  # was "Divergence", "Performance"


def test_the_filter_in_a_template_gives_the_readers_language():
    page = Template("{% load warpdrill %}{{ t|topic_label }}|{{ t|topic_name }}")
    with translation.override("en"):
        assert page.render(Context({"t": "programming_model"})) == "Programming model|Programming model"
    with translation.override("ko"):
        assert page.render(Context({"t": "divergence"})) == "Warp divergence (분기)|Warp divergence (분기)"
        assert page.render(Context({"t": "performance"})) == "성능 모델|성능 모델"


def test_a_key_that_is_not_a_topic_is_written_as_words_translated_where_known():
    assert humanize("shared_memory") == "Shared memory" and humanize("warp-level_ops") == "Warp level ops"
    with translation.override("en"):
        assert topic_label("shared_memory") == "Shared memory"
    with translation.override("ko"):
        assert topic_label("memory_error") == "메모리 오류"  # "Memory error" is in the catalogue
        assert topic_label("no_such-topic") == "No such topic"
