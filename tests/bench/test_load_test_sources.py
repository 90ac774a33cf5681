"""bench/load_test.py submits only sources that compile as they stand: a package with variants has
{{NAME}} placeholders that are filled per student, which the HTTP-only load script cannot see."""
import importlib.util
import sys

from tests.conftest import ROOT


def _load_test():
    spec = importlib.util.spec_from_file_location("load_test", ROOT / "bench" / "load_test.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_no_candidate_holds_a_variant_placeholder_and_plain_packages_are_all_there():
    right, wrong = _load_test().candidates()
    slugs = {c.slug for c in right}
    assert "segment-sum" not in slugs  # the bank's package with variants
    assert "vector-add-tail" in slugs and len(right) >= 30
    assert not [c.slug for c in right + wrong if "{{" in c.source]
    assert {c.verdict for c in right} == {"ACCEPTED"} and all(c.verdict != "ACCEPTED" for c in wrong)
