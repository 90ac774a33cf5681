"""One set of words for the field terms on a Korean page: the Korean interface keeps the CUDA field
terms in English (the problems' "block 수", "shared memory tree", the launch form's "동적 shared memory"),
so the Korean catalogue, diagnostics included, never spells them as Korean loanwords or translations
(a page had "일부 thread가 barrier에서" one line above "11번 줄의 배리어")."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPELLED_OUT = {"블록": "block", "스레드": "thread", "워프": "warp", "레인": "lane", "그리드": "grid",
               "배리어": "barrier", "공유 메모리": "shared memory", "경쟁 상태": "race"}


def _msgstrs(path: Path):
    inside = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("msgstr"):
            inside = True
        elif not line.startswith('"'):
            inside = False
        if inside:
            yield number, line


def test_the_korean_catalogue_keeps_the_field_terms_in_english():
    path = ROOT / "locale" / "ko" / "LC_MESSAGES" / "django.po"
    found = [(n, word, SPELLED_OUT[word]) for n, line in _msgstrs(path) for word in SPELLED_OUT if word in line]
    assert not found, f"write the field term in English (line, Korean, English): {found[:10]}"
