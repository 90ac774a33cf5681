"""The kernel problems a template names, read without validating it (exams.core.kernel_refs): what an
exam reserves and what the editor warns about. No database."""
from exams.core.kernel_refs import KernelRef, kernel_refs, kernel_refs_in_text


def test_slugs_and_topic_or_tag_pools_are_read_in_order():
    data = {"zones": [{"pool": ["indexing.global_index", {"kernel": "secret-add", "attempts": 2}]},
                      {"pool": [{"kernel": {"topic": "reduction"}}, {"kernel": {"tag": "midterm", "topic": "memory"}},
                                {"family": "occupancy.blocks_per_sm"}]}]}
    assert kernel_refs(data) == [KernelRef("secret-add"), KernelRef(None, "reduction", None),
                                 KernelRef(None, "memory", "midterm")]


def test_what_is_not_well_formed_is_skipped():
    assert kernel_refs({"zones": [{"pool": [{"kernel": ""}, {"kernel": 3}, {"kernel": {}}, "x"]}, "junk", {}]}) == []
    assert kernel_refs(["not", "a", "template"]) == [] and kernel_refs(None) == []


def test_text_in_yaml_or_json_and_unreadable_text():
    yaml = "zones:\n  - pool:\n      - kernel: vector-add-tail\n"
    assert kernel_refs_in_text(yaml) == [KernelRef("vector-add-tail")]
    assert kernel_refs_in_text('{"zones": [{"pool": [{"kernel": {"topic": "indexing"}}]}]}') == [
        KernelRef(None, "indexing", None)]
    assert kernel_refs_in_text("zones: [unclosed") == [] and kernel_refs_in_text("") == []
