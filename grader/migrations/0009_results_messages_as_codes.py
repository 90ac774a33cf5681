"""Stored results with every message as its code and parameters ({"code", "params"}, messages.Message).

Results stored before held each message three times: `message` (English), `message_template` and
`message_params`; some, older still, only the English. This converts every stored result once:
submissions' results, the old results a rejudge keeps, the playground's runs. A template the catalogue
has becomes its code; English whose template is gone (or that never had one) is kept verbatim. The
reverse writes the three fields back from the codes.

The reading of the older form lives here and nowhere else (the site reads codes only). It works on the
JSON as it is and takes one thing from the site: the catalogue's English by code, whose codes are never
removed but by a migration (0010 retires eight of them; their English is copied below, RETIRED, so that
a database still to run this one gets the codes 0010 converts).
"""
from django.db import migrations

BATCH = 500

# The templates 0010 retires, English -> code, as they were when this migration was written.
RETIRED = {
    "%(output)s%(index)s: expected %(expected)s, got %(got)s (%(count)s element(s) differ)": "MISMATCH",
    "Test %(test)s failed (a hidden test: its details are not shown).": "SUMMARY_HIDDEN_TEST_OLD",
    "The %(check)s on test %(test)s found: %(reason)s The test runs below did not report it (each row gives that "
    "run's own result); the verdict comes from this finding.": "SUMMARY_CHECK_OLD",
    "The %(check)s on test %(test)s found (line %(line)s): %(reason)s The test runs below did not report it (each "
    "row gives that run's own result); the verdict comes from this finding.": "SUMMARY_CHECK_AT_LINE_OLD",
    "All %(total)s test cases passed.": "SUMMARY_ALL_PASSED",
    "%(passed)s/%(total)s test cases passed.": "SUMMARY_PASSED",
    "%(passed)s/%(total)s test cases passed. %(diagnostic)s": "SUMMARY_PASSED_WITH",
    "%(passed)s/%(total)s test cases passed. %(diagnostic)s (line %(line)s)": "SUMMARY_PASSED_WITH_LINE",
}


def _templates() -> dict[str, str]:
    """Code -> English template: the catalogue's, and the retired ones."""
    from grader.core.messages import CATALOGUE

    return {**{code: english for english, code in RETIRED.items()}, **{code: str(t) for code, t in CATALOGUE.items()}}


def _english(message: dict, templates: dict) -> str:
    """The English of a message in the code form (KeyError, ValueError or TypeError when it does not fit)."""
    params = message.get("params") or {}
    if not message["code"]:
        return str(params.get("text", ""))
    return templates[message["code"]] % {key: _english_value(value, templates) for key, value in params.items()}


def _english_value(value, templates: dict):
    if isinstance(value, dict) and "code" in value:
        return _english(value, templates)
    if isinstance(value, list):
        return "; ".join(str(_english_value(v, templates)) for v in value)
    return value


def _coded(message: str, template: str, params, codes: dict, templates: dict) -> dict:
    """The code form of a message stored as English `message`, `template` and `params` (nested messages
    as {"template", "params"}): the template's code when its parameters fit, else the English verbatim
    (rendered from the template when `message` is empty)."""
    params = {key: _coded_value(value, codes, templates) for key, value in (params or {}).items()}
    code = codes.get(template) if template else None
    if code is not None:
        coded = {"code": code, "params": params}
        try:
            _english(coded, templates)
            return coded
        except (KeyError, ValueError, TypeError):
            pass
    if not message and template:
        try:
            message = template % {key: _english_value(value, templates) for key, value in params.items()}
        except (KeyError, ValueError, TypeError):
            message = template
    return {"code": "", "params": {"text": message}}


def _coded_value(value, codes: dict, templates: dict):
    if isinstance(value, dict) and "template" in value:
        return _coded("", value["template"], value.get("params"), codes, templates)
    if isinstance(value, list):
        return [_coded_value(v, codes, templates) for v in value]
    return value


def _message_parts(d: dict, top: bool) -> list[dict]:
    """The dicts of a stored result (JudgeResult or playground result) that carry a message: the result
    itself (unless not `top`: a playground result's own message is the backend's text), its tests,
    diagnostics and compile messages."""
    parts = [d, *(d.get("tests") or []), *(d.get("diagnostics") or [])]
    parts += list(((d.get("compile") or {}).get("messages")) or [])
    return parts if top else parts[1:]


def upgrade_stored(d: dict, *, top: bool = True) -> dict:
    """`d`, a stored result dict, with every message in the code form (the three fields read and dropped).
    Changed in place; returned."""
    templates = _templates()
    codes: dict[str, str] = {}
    for code, english in templates.items():
        codes.setdefault(english, code)  # the first constant of a template shared by two codes
    for part in _message_parts(d, top):
        message = part.get("message")
        if "message" in part and not isinstance(message, dict) or "message_template" in part:
            if not isinstance(message, dict):
                message = _coded(message or "", part.get("message_template") or "", part.get("message_params"),
                                 codes, templates)
            part["message"] = message
        part.pop("message_template", None)
        part.pop("message_params", None)
    return d


def _three_field_params(params: dict, templates: dict) -> dict:
    def form(value):
        if isinstance(value, dict) and "code" in value:
            if not value["code"]:
                return str((value.get("params") or {}).get("text", ""))
            return {"template": templates[value["code"]],
                    "params": _three_field_params(value.get("params") or {}, templates)}
        if isinstance(value, list):
            return [form(v) for v in value]
        return value
    return {key: form(value) for key, value in params.items()}


def downgrade_stored(d: dict, *, top: bool = True) -> dict:
    """The inverse of upgrade_stored: each message as its English, template and parameters."""
    templates = _templates()
    for part in _message_parts(d, top):
        message = part.get("message")
        if isinstance(message, dict):
            code = message["code"]
            part.update(message=_english(message, templates), message_template=templates[code] if code else "",
                        message_params=_three_field_params(message.get("params") or {}, templates) if code else {})
    return d


def _convert(apps, label: str, field: str, change, top: bool = True) -> None:
    model = apps.get_model(*label.split("."))
    rows = model.objects.exclude(**{f"{field}__isnull": True}).only("pk", field)
    batch = []
    for row in rows.iterator(chunk_size=BATCH):
        stored = getattr(row, field)
        if not isinstance(stored, dict):
            continue
        setattr(row, field, change(stored, top=top))
        batch.append(row)
        if len(batch) >= BATCH:
            model.objects.bulk_update(batch, [field])
            batch = []
    if batch:
        model.objects.bulk_update(batch, [field])


def _every_result(change):
    def run(apps, schema_editor):
        _convert(apps, "grader.Submission", "result", change)
        _convert(apps, "authoring.RejudgeItem", "old_result", change)
        _convert(apps, "playground.PlaygroundRun", "result", change, top=False)  # its message is the backend's text
    return run


def forwards(apps, schema_editor):
    _every_result(upgrade_stored)(apps, schema_editor)


def backwards(apps, schema_editor):
    _every_result(downgrade_stored)(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("grader", "0008_submission_refusal"),
        ("authoring", "0002_rejudgerun_rejudgeitem"),
        ("playground", "0002_run_queue_times"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
