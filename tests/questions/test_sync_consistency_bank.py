"""The bank's synchronization statements say what the barrier rule and the judge say.

Each synchronization problem shows shapes of the rule's table (docs/synchronization.md, "The
table"): its wrong solutions name their row on a `// rule: N` line, and kernels kept beside this
test (tests/questions/sync_shapes/<slug>/*.cu, `// verdict:` and `// rule:` lines) show the shapes
the rule accepts, such as the tail of the last block returning before the barrier. For every such
kernel:

1. the verdict it declares is the table's verdict for its row;
2. the emulator's judge gives that verdict, on the problem's own package and tests;
3. the statement, in English and in Korean, has a bullet under "What is checked" ("채점 기준")
   that names the shape, in the field's words for that row (ROW_TERMS: "race", "divergent",
   "return"/"exit", ...), together with that verdict in bold.

So a statement that calls an early exit a SYNC_ERROR, or says nothing of a shape its kernels show,
fails here, and so does a kernel whose verdict drifts from the table.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.core.backends.emulator import EmulatorBackend
from grader.core.judge import judge
from problems.core.package import load_package

ROOT = Path(__file__).resolve().parents[2]
BANK = ROOT / "problems" / "bank"
SHAPES = Path(__file__).resolve().parent / "sync_shapes"
RULE_LINE = re.compile(r"^// rule: (\w+)", re.M)
VERDICT_LINE = re.compile(r"^// verdict: (\w+)", re.M)
SECTION = {"en": "## What is checked", "ko": "## 채점 기준"}

# How a statement names the shape of each row, in each language (lower-case regular expressions
# over one bullet). Korean statements keep the field's English terms (race, divergent barrier).
RACE = (r"\brac(e|es|y)\b", r"race")
DIVERGENT = (r"divergent|different|another", r"divergent|다른")
EXITED = (r"\breturn\b|\bexit", r"return|종료")
ROW_TERMS = {
    "1b": RACE, "5": (r"divergent|skips?\b", r"divergent|건너"), "6": DIVERGENT, "7": DIVERGENT, "8": DIVERGENT,
    "2": EXITED, "3": EXITED, "4": EXITED, "9": (r"deadlock|never finishes|hang", r"deadlock|멈"),
    "13": RACE, "14": (r"\brac(e|es|y)\b|lost|atomic", r"race|atomic"), "15": RACE, "16b": RACE,
}


def table_verdicts() -> dict[str, str]:
    """{row: our verdict} of docs/synchronization.md's table (its first word, e.g. "ACCEPTED")."""
    text = (ROOT / "docs" / "synchronization.md").read_text()
    table = text[text.index("## The table"):]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 7 and re.fullmatch(r"\d+[a-z]?", cells[0]):
            rows[cells[0]] = cells[5].split()[0]
    return rows


def sync_problems() -> list[str]:
    return sorted(p.parent.name for p in BANK.glob("*/problem.yaml")
                  if "topic: synchronization" in p.read_text())


def shape_kernels(slug: str) -> list[tuple[str, str, str, str]]:
    """(name, source, declared verdict, row) of the problem's wrong solutions with a rule line and of
    its kernels under sync_shapes/."""
    package = load_package(BANK / slug)
    found = [(f"wrong/{w.name}", w.source, str(w.verdict), m.group(1))
             for w in package.wrong if (m := RULE_LINE.search(w.source))]
    for path in sorted((SHAPES / slug).glob("*.cu")) if (SHAPES / slug).is_dir() else ():
        text = path.read_text()
        found.append((f"sync_shapes/{path.name}", text, VERDICT_LINE.search(text).group(1),
                      RULE_LINE.search(text).group(1)))
    return found


def bullets(statement: str, language: str) -> list[str]:
    """The bullets of the statement's "What is checked" section, each joined into one lower-case line."""
    head = SECTION[language]
    assert head in statement, f"no {head!r} section"
    section = statement[statement.index(head) + len(head):]
    section = section[:section.index("\n## ")] if "\n## " in section else section
    items: list[str] = []
    for line in section.splitlines():
        if line.startswith("- "):
            items.append(line[2:])
        elif line.startswith("  ") and items:
            items[-1] += " " + line.strip()
    return [item.lower() for item in items]


def names_shape(items: list[str], row: str, verdict: str, language: str) -> bool:
    """Whether one bullet names the row's shape in `language` and its verdict in bold."""
    terms = ROW_TERMS[row][0 if language == "en" else 1]
    return any(re.search(terms, item) and f"**{verdict.lower()}**" in item for item in items)


PROBLEMS = sync_problems()


def test_every_sync_wrong_solution_names_its_row_and_the_rows_are_the_tables():
    """Each SYNC_ERROR or DEADLOCK wrong solution of a synchronization problem has a `// rule:` line,
    every row named exists in the table with a verdict, and ROW_TERMS covers it."""
    rows = table_verdicts()
    assert {"1", "1b", "2", "3", "7", "8", "9", "14", "17", "18"} <= set(rows), rows
    assert len(PROBLEMS) >= 6, PROBLEMS
    missing = [f"{slug}/{w.name}" for slug in PROBLEMS for w in load_package(BANK / slug).wrong
               if str(w.verdict) in ("SYNC_ERROR", "DEADLOCK") and not RULE_LINE.search(w.source)]
    assert missing == []
    named = {row for slug in PROBLEMS for *_, row in shape_kernels(slug)}
    assert named <= set(rows) and named <= set(ROW_TERMS), named - set(rows) - set(ROW_TERMS)
    assert {"2", "3"} <= named, "no kernel shows the shapes the rule accepts"


@pytest.mark.parametrize("slug", PROBLEMS)
def test_each_shape_declares_the_tables_verdict_and_the_statement_names_it(slug):
    """Every kernel of the problem declares its row's verdict, and both statements name that shape
    with that verdict in one bullet of "What is checked"."""
    rows = table_verdicts()
    package = load_package(BANK / slug)
    problems = []
    for name, _, verdict, row in shape_kernels(slug):
        if verdict != rows[row]:
            problems.append(f"{name}: declares {verdict}, row {row} of the table says {rows[row]}")
        for language in ("en", "ko"):
            if not names_shape(bullets(package.statement[language], language), row, rows[row], language):
                problems.append(f"{name}: statement.{language} names no shape of row {row} with **{rows[row]}**")
    assert problems == []


@pytest.fixture(scope="module")
def emulator():
    return EmulatorBackend()


@pytest.mark.slow
@pytest.mark.parametrize("slug", PROBLEMS)
def test_the_judge_gives_each_shape_the_verdict_the_statement_names(slug, emulator):
    """The emulator judges every kernel of the problem (its package, its tests, the check pass) and
    gives the verdict the kernel declares: the one the table's row and the statement name."""
    package = load_package(BANK / slug)
    got = {name: (verdict, str(judge(package, source, emulator).verdict))
           for name, source, verdict, _ in shape_kernels(slug)}
    assert {name: v for name, (want, v) in got.items() if v != want} == {}, got


def test_the_check_catches_a_statement_that_calls_an_early_exit_an_error():
    """neighbour-exchange's statement as it read before the rule (a barrier "that some threads reach
    and others do not ... SYNC_ERROR", no word of exited threads) fails the check for the early-return
    kernel, and today's passes it."""
    old = ("## What is checked\n\n- A read of a slot that another thread may not have written yet is a shared-memory "
           "race: **SYNC_ERROR**.\n- A `__syncthreads()` that some threads of a block reach and others do not (or a "
           "different one)\n  is undefined behaviour: **SYNC_ERROR**.\n\n## Constraints\n")
    assert not names_shape(bullets(old, "en"), "2", "ACCEPTED", "en")
    assert names_shape(bullets(old, "en"), "7", "SYNC_ERROR", "en")
    today = load_package(BANK / "neighbour-exchange").statement
    assert names_shape(bullets(today["en"], "en"), "2", "ACCEPTED", "en")
    assert names_shape(bullets(today["ko"], "ko"), "2", "ACCEPTED", "ko")
