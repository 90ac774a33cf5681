"""A graded submission's JSON (GET /api/v1/submissions/<id>) as terminal text.

`render_result(data, t)` returns the lines: the verdict, the summary message, the compiler's messages
(line:column severity: text), each test with its verdict and time (a sample's first mismatch and printf
output), the diagnostics with their kind, line and test, and the page's URL. Only what the API gives a
student is shown: hidden tests come with their name, verdict and time only.
"""
from __future__ import annotations

from .i18n import Translator


def _index(index) -> str:
    if isinstance(index, (list, tuple)):
        return ", ".join(str(i) for i in index)
    return str(index)


def render_status(data: dict, t: Translator) -> str:
    """One line for a submission in progress: "Running (1/2 tests)" or just the status."""
    status = data.get("status") or ""
    progress = data.get("progress") or {}
    if status == "RUNNING" and progress.get("total"):
        return t("progress", status=t(status), done=progress.get("done", 0), total=progress["total"])
    return t(status)


def render_result(data: dict, t: Translator) -> list[str]:
    """The lines that describe a graded submission `data` (the API's JSON), in `t`'s language."""
    lines = [t("verdict", verdict=t(data.get("verdict") or data.get("status") or "?"))]
    if data.get("message"):
        lines.append(data["message"])
    compiled = data.get("compile") or {}
    messages = compiled.get("messages") or []
    if messages:
        lines.append(t("compiler"))
        for m in messages:
            where = ":".join(str(x) for x in (m.get("line"), m.get("column")) if x is not None)
            lines.append(f"  {where + ': ' if where else ''}{m.get('severity', '')}: {m.get('message', '')}")
    elif data.get("verdict") == "COMPILE_ERROR" and compiled.get("log"):
        lines.append(t("compiler"))
        lines.extend("  " + row for row in compiled["log"].splitlines()[:40])
    tests = data.get("tests") or []
    if tests:
        lines.append(t("tests"))
        for test in tests:
            kind = t("sample") if test.get("sample") else t("hidden")
            time_s = test.get("time_s")
            timing = f"  {time_s:.3f} s" if isinstance(time_s, (int, float)) and time_s else ""
            lines.append(f"  {test.get('name', '?')} ({kind}): {t(test.get('verdict') or '?')}{timing}")
            if test.get("message"):
                lines.append(f"    {test['message']}")
            mismatch = test.get("mismatch")
            if mismatch:
                lines.append(t("mismatch", output=mismatch.get("output", "?"), index=_index(mismatch.get("index")),
                               expected=mismatch.get("expected"), got=mismatch.get("got"),
                               count=mismatch.get("count", 1)))
                if mismatch.get("allowed") and mismatch.get("error"):
                    lines.append(t("allowed", error=mismatch["error"], allowed=mismatch["allowed"]))
            if test.get("output_log"):
                lines.append(t("output_log"))
                lines.extend("      " + row for row in test["output_log"].splitlines()[:20])
    diagnostics = data.get("diagnostics") or []
    if diagnostics:
        lines.append(t("diagnostics"))
        for d in diagnostics:
            where = [t("line", line=d["line"])] if d.get("line") is not None else []
            if d.get("test"):
                where.append(t("on_test", test=d["test"]))
            head = f"  [{t(d.get('kind') or '?')}]" + (f" ({', '.join(where)})" if where else "")
            lines.append(f"{head} {d.get('message', '')}".rstrip())
    if data.get("html_url"):
        lines.append(t("details", html_url=data["html_url"]))
    return lines
