"""Stored results without the eight codes kept only for results stored before their wording changed.

Results stored before the judge's summaries and messages were reworded hold codes that the catalogue no
longer has: a mismatch's "(N element(s) differ)", a hidden test's "its details are not shown", the check
pass's older summary, and summaries that began with the count of passed test cases ("2/3 test cases
passed. ..."; the page states that count above the summary now). This rewrites each into the message the
judge writes today for the same facts, found in the result itself:

    MISMATCH                    -> MISMATCH_ONE or MISMATCH_MANY, by its count
    SUMMARY_HIDDEN_TEST_OLD     -> SUMMARY_HIDDEN_TEST
    SUMMARY_CHECK[_AT_LINE]_OLD -> SUMMARY_CHECK[_AT_LINE]
    SUMMARY_ALL_PASSED          -> no summary (an ACCEPTED result has none)
    SUMMARY_PASSED              -> the summary of the first test case with the result's verdict
    SUMMARY_PASSED_WITH[_LINE]  -> "Test <the quoted diagnostic's test>: <diagnostic> [(line N)]", or the
                                   check pass's summary when the check pass found it

so a converted result is what grader.core.summary would write for it, and the quoted diagnostic stays a
nested message (the site still replaces it when its test is hidden). It works on the JSON alone and
imports nothing from the site: what it needs of the retired templates (their codes and parameters) is
written here. The reverse changes nothing: the codes written are in the catalogue of every version.
"""
from django.db import migrations

BATCH = 500

RENAMED = {"SUMMARY_HIDDEN_TEST_OLD": "SUMMARY_HIDDEN_TEST", "SUMMARY_CHECK_OLD": "SUMMARY_CHECK",
           "SUMMARY_CHECK_AT_LINE_OLD": "SUMMARY_CHECK_AT_LINE"}
# The summaries that began with the count (their parameters: passed, total, and diagnostic, line).
COUNTED = {"SUMMARY_ALL_PASSED", "SUMMARY_PASSED", "SUMMARY_PASSED_WITH", "SUMMARY_PASSED_WITH_LINE"}
# grader.core.messages.CHECK_NAMES: the pass of the check stage, by the kind of diagnostic it finds.
CHECK_NAMES = {"race", "divergent_barrier", "warp_mask", "out_of_bounds", "misaligned"}
NO_SUMMARY = {"code": "", "params": {"text": ""}}


def _message(value):
    """`value` with every retired code below it converted (messages are dicts with "code")."""
    if isinstance(value, list):
        return [_message(v) for v in value]
    if not isinstance(value, dict) or "code" not in value:
        return value
    code, params = value["code"], {key: _message(v) for key, v in (value.get("params") or {}).items()}
    if code == "MISMATCH":
        code = "MISMATCH_ONE" if str(params.get("count")) == "1" else "MISMATCH_MANY"
    return {"code": RENAMED.get(code, code), "params": params}


def _check_name(kind: str) -> dict:
    return {"code": f"CHECK_NAMES.{kind}" if kind in CHECK_NAMES else "CHECK_PASS", "params": {}}


def _summary(d: dict, summary: dict) -> dict:
    """The summary of today's judge in place of one that began with the count (see the module's table)."""
    code, params = summary["code"], summary.get("params") or {}
    tests = d.get("tests") or []
    failing = next((t for t in tests if t.get("verdict") == d.get("verdict")), None)
    if code == "SUMMARY_ALL_PASSED" or d.get("verdict") == "ACCEPTED":
        return NO_SUMMARY
    if code == "SUMMARY_PASSED":
        if failing is None:
            return NO_SUMMARY
        if not failing.get("sample", True):
            return {"code": "SUMMARY_HIDDEN_TEST", "params": {"test": failing["name"]}}
        reason = failing.get("message")
        if not isinstance(reason, dict) or reason == NO_SUMMARY:
            return {"code": "SUMMARY_TEST_FAILED", "params": {"test": failing["name"]}}
        return {"code": "SUMMARY_TEST", "params": {"test": failing["name"], "reason": reason}}
    reason = params.get("diagnostic")
    line = {"line": params["line"]} if code == "SUMMARY_PASSED_WITH_LINE" and "line" in params else {}
    at_line = "_AT_LINE" if line else ""
    quoted = next((x for x in d.get("diagnostics") or [] if x.get("message") == reason and x.get("test")), None)
    if quoted is not None and quoted.get("check"):
        return {"code": "SUMMARY_CHECK" + at_line,
                "params": {"check": _check_name(quoted.get("kind", "")), "test": quoted["test"], "reason": reason, **line}}
    test = quoted["test"] if quoted is not None else failing["name"] if failing is not None else None
    if test is None:
        return reason if isinstance(reason, dict) else NO_SUMMARY
    return {"code": "SUMMARY_TEST" + at_line, "params": {"test": test, "reason": reason, **line}}


def retire_old_codes(d: dict, *, top: bool = True) -> dict:
    """`d`, a stored result dict in the code form, with no retired code left. Changed in place; returned.
    `top`: the dict's own "message" is the judge's summary (False for a playground result: the backend's)."""
    parts = [d, *(d.get("tests") or []), *(d.get("diagnostics") or [])]
    parts += list(((d.get("compile") or {}).get("messages")) or [])
    for part in parts if top else parts[1:]:
        if isinstance(part.get("message"), dict):
            part["message"] = _message(part["message"])
    if top and isinstance(d.get("message"), dict) and d["message"].get("code") in COUNTED:
        d["message"] = _summary(d, d["message"])
    return d


def _convert(apps, label: str, field: str, top: bool = True) -> None:
    model = apps.get_model(*label.split("."))
    batch = []
    for row in model.objects.exclude(**{f"{field}__isnull": True}).only("pk", field).iterator(chunk_size=BATCH):
        stored = getattr(row, field)
        if not isinstance(stored, dict):
            continue
        setattr(row, field, retire_old_codes(stored, top=top))
        batch.append(row)
        if len(batch) >= BATCH:
            model.objects.bulk_update(batch, [field])
            batch = []
    if batch:
        model.objects.bulk_update(batch, [field])


def forwards(apps, schema_editor):
    _convert(apps, "grader.Submission", "result")
    _convert(apps, "authoring.RejudgeItem", "old_result")
    _convert(apps, "playground.PlaygroundRun", "result", top=False)


class Migration(migrations.Migration):

    dependencies = [("grader", "0009_results_messages_as_codes")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
