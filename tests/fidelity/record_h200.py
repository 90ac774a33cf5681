#!/usr/bin/env python3
"""Fold an observation file of observe_h200.py into each case's `h200:` block (a short summary).

    python3 tests/fidelity/record_h200.py tests/fidelity/h200_observed_2026-12-02.json [--only slug,...]
    python3 tests/fidelity/record_h200.py OBSERVATIONS --markdown      # print the table of docs/gpu-validation.md
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.fidelity.cases import CASES_DIR  # noqa: E402


def _run_line(run: dict) -> str:
    name = f"t{run.get('test', '?')}"
    status = run.get("status")
    if status == "completed":
        if run.get("matches_reference"):
            return f"{name}: completes, output matches the reference"
        bad = sum(e.get("mismatches", 0) for e in run.get("errors", {}).values())
        return f"{name}: completes, output differs from the reference ({bad} elements)"
    if status in ("launch_error", "fault"):
        return f"{name}: {status.replace('_', ' ')} {run.get('cuda_error')}"
    if status == "hang":
        return f"{name}: hangs (killed at {run.get('wall_s')} s)"
    return f"{name}: {status} {run.get('error', '')}".strip()


def _tool_line(tool: dict) -> str:
    if tool.get("status") == "hang":
        return "hangs"
    text = tool.get("summary") or f"exit {tool.get('rc')}"
    text = text.replace("ERROR SUMMARY: ", "").replace("RACECHECK SUMMARY: ", "")
    if tool.get("lines"):
        text += f"; lines {', '.join(map(str, tool['lines']))}"
    if tool.get("records"):
        text += f"; {tool['records'][0][:110]}"
    return text


def summary(obs: dict, source: str, gpu: str = "") -> dict:
    """The `h200:` block of one case from its observation (`gpu`: the card it ran on, where the
    observation file names one; an H100 is the same sm_90 as the H200)."""
    comp = obs.get("compile", {})
    out: dict = {"observed": source, **({"gpu": gpu} if gpu else {})}
    if not comp.get("ok"):
        errors = [ln.strip() for ln in comp.get("log", "").splitlines() if "error" in ln.lower() or "fatal" in ln]
        out["compile"] = f"refused: {errors[0][:160] if errors else 'nvcc failed'}"
        return out
    out["compile"] = f"ok, {comp.get('registers')} registers, {comp.get('static_smem_bytes', 0)} B static smem"
    out["runs"] = [_run_line(r) for r in obs.get("runs", [])]
    first = (obs.get("runs") or [{}])[0]
    if first.get("checksums"):
        out["sha256_t0"] = first["checksums"]
    if first.get("co_resident_blocks"):
        out["co_resident_blocks"] = first["co_resident_blocks"]["gpu"]
    for tool, rep in obs.get("sanitizers", {}).items():
        out[tool] = _tool_line(rep)
    return out


def _cell(tool: dict | None) -> str:
    if not tool:
        return ""
    if tool.get("status") == "hang":
        return "hangs"
    n = tool.get("findings")
    lines = f" @{','.join(map(str, tool['lines'][:3]))}" if n and tool.get("lines") else ""
    return f"{n}{lines}" if n is not None else "?"


def markdown(doc: dict, verdicts: dict[str, str]) -> str:
    """One row per case: expected verdict, what the plain runs did, and each tool's finding count."""
    rows = ["| case | WarpDrill must say | H200, plain runs | memcheck | racecheck | synccheck |",
            "| --- | --- | --- | --- | --- | --- |"]
    for slug, obs in doc["cases"].items():
        comp = obs.get("compile", {})
        if not comp.get("ok"):
            plain = "nvcc refuses it"
        else:
            runs = obs.get("runs", [])
            kinds = []
            for r in runs:
                st = r.get("status")
                kinds.append("right output" if st == "completed" and r.get("matches_reference") else
                             "wrong output" if st == "completed" else
                             f"{st.replace('_', ' ')} {r.get('cuda_error', '')}".strip())
            plain = ", ".join(dict.fromkeys(kinds))
        san = obs.get("sanitizers", {})
        rows.append(f"| {slug} | {verdicts.get(slug, obs.get('expected_verdict', ''))} | {plain} | "
                    f"{_cell(san.get('memcheck'))} | {_cell(san.get('racecheck'))} | {_cell(san.get('synccheck'))} |")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("observations")
    parser.add_argument("--only", default="")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    path = Path(args.observations)
    doc = json.loads(path.read_text())
    if args.markdown:
        from tests.fidelity.cases import load_cases

        print(markdown(doc, {c.slug: c.verdict for c in load_cases()}))
        return 0
    only = set(filter(None, args.only.split(",")))
    for slug, obs in doc["cases"].items():
        folder = CASES_DIR / slug
        if (only and slug not in only) or not (folder / "case.yaml").exists():
            continue
        meta = yaml.safe_load((folder / "case.yaml").read_text())
        gpu = ", ".join(doc.get("tools", {}).get("gpu", []))
        meta["h200"] = summary(obs, f"{doc['date']}, {path.name}", gpu)
        (folder / "case.yaml").write_text(yaml.safe_dump(meta, sort_keys=False, width=110, allow_unicode=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
