"""A Korean question says its actions in Korean: students read "커널을 launch합니다", "diverge하는 warp",
"exit하지 않은 thread", "shared memory로 load한 뒤" and "reduction합니다" in their exams, an English verb glued
to a Korean ending. The glossary's "Verbs and actions" table (docs/content.md) gives the Korean word for each
(launch → 실행하다, diverge → 분기되다, exit → 종료하다, load → 읽다, reduction → 리덕션, ...).

The check reads running text only: code spans (`return`, `__syncthreads()`), math and format placeholders are
names, not words, and stay as they are. The field terms the glossary keeps in English (thread, block, warp,
lane, grid, barrier, shared memory) are nouns and take particles with a space-free join ("warp가"), which the
rule does not touch: it looks for a Latin word followed by a verb ending (합니다, 하면, 된, 되는, ...).

The catalogue also said "launch" as a Korean noun ("launch 설정", "launch 식", "이 launch는"), where the
glossary says 실행 구성 for the configuration and 실행 for the launch: a bare "launch" in Korean running text is
read too, once the names that keep the word (LAUNCH_NAMES) are cut out.

Read here: every question family's Korean text (title, prompt, fields, choices, solution) over seeds and
difficulties, the occupancy working the families and the judge's report share, the Korean catalogue's
msgstrs (every page and message of the site), and the bank's Korean statements (fenced code aside) and
starters' Korean comments, which said "load합니다", "store합니다", "return하므로" and "## Launch"."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from .test_korean_catalogue_complete import PO, _entries
from .test_korean_kernel_word import HANGUL, NOT_TEXT, _korean_text, _markdown_text

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"

# A Latin word (hyphens allowed: warm-up, opt-in) glued to the ending of 하다, 되다 or 시키다.
GLUED_VERB = re.compile(
    r"(?<![A-Za-z0-9_])([A-Za-z][A-Za-z-]*)"
    r"(합니다|합니까|하면|하고|하는|한다|했|하지|하여|하기|하려|하도록|하며|하므로|하십시오|하세요|하거나|하더라도|하든"
    r"|하니|하자|해|할|한|함"
    r"|됩니다|됩니까|된|되는|되면|되어|되지|되고|되므로|되며|되기|되었|되거나|되더라도|되든|되니|될|됨|돼|시키|시킨)")
# Latin words that may stand before such an ending because they are not verbs. Each needs its reason;
# none does today (code font, math and placeholders are cut out before the check).
ALLOWED: dict[str, str] = {}


def glued_verbs(text: str) -> list[str]:
    """The English verbs glued to a Korean ending in Korean running text `text`, e.g. ["launch합니다"]."""
    return [m.group(0) for m in GLUED_VERB.finditer(NOT_TEXT.sub(" ", text)) if m.group(1) not in ALLOWED]

# "launch" as a word of a Korean sentence, where the glossary says 실행 (the launch) or 실행 구성 (its configuration).
LAUNCH_WORD = re.compile(r"(?<![A-Za-z_])launch(?![A-Za-z_])", re.I)
# Names that keep the English word, each with its reason; they are cut out before LAUNCH_WORD reads the text.
LAUNCH_NAMES = {
    "cooperative launch": "a CUDA launch mode's name (cudaLaunchCooperativeKernel); the glossary keeps it",
    "// launch:": "the directive a student types in a source file, quoted as it is typed",
    "unspecified launch failure": "CUDA's own error string, quoted beside CUDA_ERROR_LAUNCH_FAILED",
}


def launch_words(text: str) -> list[str]:
    """The bare "launch" words of Korean running text `text` (code, math, placeholders and LAUNCH_NAMES aside)."""
    text = NOT_TEXT.sub(" ", text)
    for name in LAUNCH_NAMES:
        text = re.sub(re.escape(name), " ", text, flags=re.I)
    return LAUNCH_WORD.findall(text)


def test_the_rule_reads_verbs_not_names():
    """The check itself: glued verbs are found; field terms with particles, code and placeholders are not."""
    assert glued_verbs("커널을 block당 thread 256개로 launch합니다.") == ["launch합니다"]
    assert glued_verbs("diverge하는 warp와 exit하지 않은 thread") == ["diverge하는", "exit하지"]
    assert glued_verbs("shared memory로 load한 뒤 reduction합니다") == ["load한", "reduction합니다"]
    assert glued_verbs("warm-up한 커널, opt-in했습니다, 그 mask로 shuffle하면") == ["warm-up한", "opt-in했", "shuffle하면"]
    assert glued_verbs("launch된 warp 수, scale되지 않는 원소, load됩니다") == ["launch된", "scale되지", "load됩니다"]
    # The log-softmax question (reduction.softmax, every seed at difficulty 2) said "overflow하거나": the ending
    # was missing from the list, not the variant from the seeds read.
    assert glued_verbs("`log(softmax)`는 여기서 overflow하거나 −inf가 됩니다") == ["overflow하거나"]
    assert glued_verbs("wrap되거나 diverge하더라도") == ["wrap되거나", "diverge하더라도"]
    for fine in ("warp가 분기됩니다", "thread 256개로 실행합니다", "block당 shared memory를 씁니다",
                 "`return`으로 종료한 thread", "`__syncthreads()`를 호출하면", "%(kernel)s를 실행합니다",
                 "{launch}합니다", "SM당 block 수", "cooperative launch가 받아들이는", "thread 한 개"):
        assert glued_verbs(fine) == [], fine


def test_the_launch_rule_reads_the_noun_not_names():
    """The check itself: "launch" as a Korean noun is found; the kept names, code and placeholders are not."""
    assert launch_words("launch 설정: grid") == ["launch"] and launch_words("이 Launch는 실행할 수 없습니다") == ["Launch"]
    for fine in ("cooperative launch의 grid 한도", "`// launch: block=256`", "// launch: 줄로 고를 수 없습니다",
                 "<code>%(launch)s</code>", "<<<%(launch)s>>>", "cudaLaunchCooperativeKernel로",
                 "CUDA_ERROR_LAUNCH_FAILED(unspecified launch failure)", "launch_block 칸", "실행 구성: grid"):
        assert launch_words(fine) == [], fine


def test_every_question_family_says_its_verbs_in_korean():
    from practice.core.questions import DIFFICULTIES, FAMILIES

    found = set()
    for family_id, family in sorted(FAMILIES.items()):
        for seed in range(8):
            for difficulty in DIFFICULTIES:
                for sentence in _korean_text(family.generate(seed, difficulty)):
                    found.update((family_id, verb, sentence[:100]) for verb in glued_verbs(sentence))
    assert not found, f"write the verb in Korean (docs/content.md, 'Verbs and actions'): {sorted(found)}"


def test_the_occupancy_working_says_its_verbs_in_korean():
    from problems.core.occupancy import text

    korean = [v["ko"] for v in vars(text).values() if isinstance(v, dict) for v in v.values()
              if isinstance(v, dict) and "ko" in v]
    assert korean and not [(k, glued_verbs(k)) for k in korean if glued_verbs(k)]


def test_the_korean_catalogue_says_its_verbs_in_korean():
    """Every Korean msgstr: no English verb glued to a Korean ending ("이 block은 launch할 수 없습니다",
    "opt-in해야", "ACCEPTED된 시각") and no "launch" as a Korean noun ("launch 설정" is 실행 구성)."""
    korean = [(mid, mstr) for _ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8")) if HANGUL.search(mstr)]
    assert len(korean) > 1000
    found = [(mid[:60], glued_verbs(mstr) + launch_words(mstr)) for mid, mstr in korean
             if glued_verbs(mstr) or launch_words(mstr)]
    assert not found, f"write the verb in Korean (docs/content.md, 'Verbs and actions'): {found}"
    # The rule's verdict keeps its English name (docs/synchronization.md): one page said "갈라진 barrier" and
    # the diagnostic label "분기된 barrier" beside "divergent barrier".
    assert not [mstr for _mid, mstr in korean if re.search(r"(갈라진|분기된) barrier", mstr)]
    # A launch is 실행 and a runtime error 실행 오류: the diagnostic label of a refused launch must not read as
    # the RUNTIME_ERROR verdict beside it on a result page.
    labels = {mid: mstr for _ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8"))}
    assert labels["Launch error"] != labels["Runtime error"]


@pytest.mark.parametrize("path", sorted(BANK.glob("*/statement.ko.md")), ids=lambda p: p.parent.name)
def test_the_banks_korean_statements_say_their_verbs_in_korean(path):
    text = _markdown_text(path.read_text(encoding="utf-8"))
    assert glued_verbs(text) + launch_words(text) == []


def test_the_banks_korean_starters_comment_in_korean_verbs():
    found = {}
    for path in sorted(BANK.glob("*/starter.ko.cu")):
        comments = [c for c in re.findall(r"//[^\n]*", path.read_text(encoding="utf-8")) if HANGUL.search(c)]
        if words := [w for c in comments for w in glued_verbs(c) + launch_words(c)]:
            found[path.parent.name] = words
    assert not found


def test_the_clis_site_labels_read_as_the_site_does():
    """The CLI's copy of the site's labels (cli/warpdrill_cli/messages.json, "site") says in Korean what the
    catalogue says: it had "분기된 배리어", "경쟁 상태" and "Launch 오류" where the site says divergent barrier,
    race and 커널 실행 거부."""
    import json

    site = json.loads((BANK.parents[1] / "cli" / "warpdrill_cli" / "messages.json").read_text(encoding="utf-8"))["site"]
    catalogue = {mid: mstr for ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8")) if ctx is None}
    assert len(site) >= 20
    assert {key: label["ko"] for key, label in site.items() if catalogue.get(label["en"]) != label["ko"]} == {}
