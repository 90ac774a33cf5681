"""problem.yaml as a form: every bank package round-trips through the form's fields unchanged, bad
cells are refused with the field named, and the form page saves a new version through the parser."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.urls import reverse

from authoring.core import yamlform

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


@pytest.mark.parametrize("path", sorted(BANK.glob("*/problem.yaml")), ids=lambda p: p.parent.name)
def test_every_bank_package_round_trips_through_the_form(path):
    text = path.read_text()
    again = yamlform.yaml_from_fields(yamlform.fields_from_yaml(text), text)
    assert yaml.safe_load(again) == yaml.safe_load(text)


def test_form_values_land_in_the_yaml_and_unknown_keys_stay():
    text = (BANK / "segment-sum" / "problem.yaml").read_text()
    f = yamlform.fields_from_yaml(text)
    f.block, f.time_s = "256", 2.5
    f.args[1].init = "zeros"
    f.tests.append(yamlform.TestRow("big", "m=4096", 7, False))
    f.checks = ["memcheck", "racecheck"]
    data = yaml.safe_load(yamlform.yaml_from_fields(f, text))
    assert data["launch"]["block"] == "256" and data["limits"]["time_s"] == 2.5
    assert data["kernel"]["args"][1] == {"name": "out", "role": "out", "dtype": "float32", "init": "zeros"}
    assert data["tests"][-1] == {"name": "big", "params": {"m": 4096}, "seed": 7}
    assert data["checks"] == ["memcheck", "racecheck"]
    assert data["variants"] == yaml.safe_load(text)["variants"] and data["title"] == yaml.safe_load(text)["title"]


@pytest.mark.parametrize("mutate, words", [
    (lambda f: setattr(f.args[0], "role", "input"), "role must be one of"),
    (lambda f: setattr(f.args[0], "dtype", "float128"), "dtype must be one of"),
    (lambda f: setattr(f.tests[0], "params", "n=ten"), "is not name=integer"),
    (lambda f: setattr(f, "checks", ["valgrind"]), "unknown valgrind"),
])
def test_bad_cells_are_refused_naming_the_field(mutate, words):
    text = (BANK / "vector-add-tail" / "problem.yaml").read_text()
    f = yamlform.fields_from_yaml(text)
    mutate(f)
    with pytest.raises(yamlform.FormError, match=words):
        yamlform.yaml_from_fields(f, text)


def _post_of(page_fields: yamlform.Fields, **changes) -> dict:
    data = {"topic": page_fields.topic, "difficulty": str(page_fields.difficulty), "kernel_name": page_fields.kernel_name,
            "block": page_fields.block, "grid": page_fields.grid, "shared_bytes": page_fields.shared_bytes,
            "time_s": "" if page_fields.time_s is None else str(page_fields.time_s),
            "atol": "" if page_fields.atol is None else str(page_fields.atol),
            "rtol": "" if page_fields.rtol is None else str(page_fields.rtol),
            "checks": page_fields.checks, "arg_rows": str(len(page_fields.args) + 1),
            "test_rows": str(len(page_fields.tests)), "message": "from the form"}
    if page_fields.student_chooses:
        data["student_chooses"] = "1"
    for i, a in enumerate(page_fields.args):
        data.update({f"arg-{i}-name": a.name, f"arg-{i}-role": a.role, f"arg-{i}-dtype": a.dtype, f"arg-{i}-init": a.init})
    data[f"arg-{len(page_fields.args)}-name"] = ""  # the blank row the page offers
    for i, t in enumerate(page_fields.tests):
        data.update({f"test-{i}-name": t.name, f"test-{i}-params": t.params, f"test-{i}-seed": "" if t.seed is None else str(t.seed)})
        if t.sample:
            data[f"test-{i}-sample"] = "1"
    data.update(changes)
    return data


def test_the_form_page_saves_a_new_version_and_refuses_a_bad_one(problem, client_for):

    url = reverse("authoring:yaml-form", args=["PP-A", problem.slug])
    page = client_for("tara").get(url)
    assert page.status_code == 200 and 'id="arg-table"' in page.content.decode()
    f = yamlform.fields_from_yaml(problem.versions.get().files["problem.yaml"])
    tara = client_for("tara")
    ok = tara.post(url, _post_of(f, time_s="3"))
    assert ok.status_code == 302
    assert "Saved as version 2." in tara.get(ok["Location"]).content.decode()
    newest = problem.versions.order_by("-number").first()
    assert newest.number == 2 and yaml.safe_load(newest.files["problem.yaml"])["limits"]["time_s"] == 3.0
    assert newest.message == "from the form"
    bad = client_for("tara").post(url, _post_of(f, **{"arg-0-role": "sideways"}))
    assert bad.status_code == 400 and "role must be one of" in bad.content.decode()
    empty = client_for("tara").post(url, _post_of(f, kernel_name=""))
    assert empty.status_code == 400 and 'id="form-error"' in empty.content.decode()
    assert problem.versions.count() == 2  # neither refused form saved anything
    for outsider in ("stu", "tom", "nobody"):
        assert client_for(outsider).get(url).status_code == 404
