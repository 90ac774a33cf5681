"""One Korean word for a kernel: 커널, in every sentence a Korean reader sees. A tester read "Kernel 문제"
on the home page, "커널 문제" on a problem set, "내 KERNEL" (CSS upper-cased "내 kernel") and "kernel 편집기
열기" on the exam pages. The CUDA field terms stay in English (test_korean_field_terms.py), "kernel" does
not; identifiers stay as they are in code font (`<code>kernel</code>`, `saxpy_clamp`), as do API names
such as cudaLaunchCooperativeKernel and placeholders such as %(kernel)s.

Read here: the Korean catalogue's msgstrs, the printed forms' labels, the bank's Korean statements and
starters' comments, the occupancy working, every question family's Korean text over seeds and
difficulties, the playground's Korean example and the exam template editor's example."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .test_korean_catalogue_complete import PO, _entries

ROOT = Path(__file__).resolve().parents[2]
# "kernel", "Kernel", "KERNEL", "kernels" as a word of the sentence: not part of a longer name
# (cudaLaunchCooperativeKernel, kernel_name, kernel.cu) nor a call (kernel(...), kernel<<<...>>>).
ENGLISH_WORD = re.compile(r"(?<![A-Za-z_.%(/])kernels?(?![A-Za-z_(<.])", re.I)
# What is not running text: code spans, math, and format placeholders.
NOT_TEXT = re.compile(r"<code>.*?</code>|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$|%\([a-z_]+\)[sd]|\{[a-z_]+\}", re.S)
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def english_kernel_words(text: str) -> list[str]:
    """The bare English "kernel" words of Korean running text `text` (code, math and placeholders aside)."""
    return ENGLISH_WORD.findall(NOT_TEXT.sub(" ", text))


def test_the_rule_reads_words_not_names():
    """The check itself: what counts as the word and what is a name."""
    assert english_kernel_words("Kernel 문제") == ["Kernel"] and english_kernel_words("내 KERNEL") == ["KERNEL"]
    assert english_kernel_words("kernel을 작성하십시오") == ["kernel"]
    for name in ("cudaLaunchCooperativeKernel로", "<code>kernel</code>: slug", "`kernel<<<g, b>>>`", "%(kernel)s는",
                 "kernel_name", "phase1_kernel이", "kernel.cu를", "{kernel}"):
        assert english_kernel_words(name) == [], name


def test_the_korean_catalogue_says_keoneol():
    found = [(mid, mstr) for _ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8"))
             if english_kernel_words(mstr)]
    assert not found, f"write 커널 in Korean text (msgid, msgstr): {found}"
    # The tester's four: one word now.
    korean = {mid: mstr for _ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8"))}
    assert korean["Kernel problems"] == "커널 문제" and korean["Your kernel"] == "내 커널"
    assert korean["Open the kernel editor"] == "커널 편집기 열기"


def test_the_printed_forms_labels_say_keoneol():
    labels = json.loads((ROOT / "exams" / "core" / "printing" / "labels.json").read_text(encoding="utf-8"))
    found = {key: texts["ko"] for key, texts in labels.items() if english_kernel_words(texts.get("ko", ""))}
    assert not found and labels["kernel_task"]["ko"] == "아래 빈칸에 커널을 작성하십시오."


def _markdown_text(text: str) -> str:
    """A Markdown file without its fenced code blocks."""
    return re.sub(r"^```.*?^```", " ", text, flags=re.S | re.M)


@pytest.mark.parametrize("path", sorted((ROOT / "problems" / "bank").glob("*/statement.ko.md")),
                         ids=lambda p: p.parent.name)
def test_the_banks_korean_statements_say_keoneol(path):
    assert not english_kernel_words(_markdown_text(path.read_text(encoding="utf-8")))


def test_the_banks_korean_starters_comment_in_keoneol():
    found = {}
    for path in sorted((ROOT / "problems" / "bank").glob("*/starter.ko.cu")):
        comments = [c for c in re.findall(r"//[^\n]*", path.read_text(encoding="utf-8")) if HANGUL.search(c)]
        if words := [w for c in comments for w in english_kernel_words(c)]:
            found[path.parent.name] = words
    assert not found


def test_the_occupancy_working_says_keoneol():
    from problems.core.occupancy import text

    korean = [v["ko"] for v in vars(text).values() if isinstance(v, dict) for v in v.values()
              if isinstance(v, dict) and "ko" in v]
    assert korean and not [k for k in korean if english_kernel_words(k)]


def _korean_text(question) -> list[str]:
    """Every sentence of a question as a Korean reader sees it: title, prompt, fields, choices, solution
    (code blocks aside: their comments are test_korean_code_comments.py's)."""
    shown = question.render("ko")
    out = [shown["title"]]
    for block in (*shown["prompt"], *question.render_solution("ko")):
        if block["kind"] in ("p", "math"):
            out.append(block["text"])
        elif block["kind"] == "list":
            out += block["items"]
    for f in shown["fields"]:
        out += [f["label"], f.get("hint", ""), f.get("unit", "")] + [c["label"] for c in f["choices"] if not c["code"]]
    return out


def test_every_question_family_says_keoneol_in_korean():
    from practice.core.questions import DIFFICULTIES, FAMILIES

    found = set()
    for family_id, family in sorted(FAMILIES.items()):
        for seed in range(12):
            for difficulty in DIFFICULTIES:
                for sentence in _korean_text(family.generate(seed, difficulty)):
                    if english_kernel_words(sentence):
                        found.add((family_id, sentence[:120]))
    assert not found, sorted(found)


def test_the_playgrounds_example_is_commented_in_the_readers_language():
    """The playground's starter kernel had an English comment on a Korean page."""
    from playground.forms import example_form

    korean, english = example_form("ko")["source"], example_form("en")["source"]
    assert HANGUL.search(korean.splitlines()[0]) and not HANGUL.search(english)
    strip = lambda src: re.sub(r"//[^\n]*", "", src)  # noqa: E731
    assert strip(korean) == strip(english)  # the same code


def test_the_exam_template_editors_example_titles_its_zones_in_korean_words():
    """A new exam template's example (exams/forms.py) titled a zone "ko: Kernel" and another
    "Occupancy와 인덱스 계산" on a Korean page: its Korean titles are Korean words, 커널 and 점유율."""
    import yaml

    from exams.forms import EXAMPLE

    spec = yaml.safe_load(EXAMPLE)
    korean = [spec["title"]["ko"]] + [zone["title"]["ko"] for zone in spec["zones"]]
    assert not [title for title in korean if re.search(r"[A-Za-z]", title)], korean
    assert "커널" in korean and "점유율과 인덱스 계산" in korean
