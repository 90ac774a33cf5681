"""A Korean button says the action its English says: "Remove" was "내보내기" (Export) on problem-set
items, course members and the wrong-solution checkbox whose tick deletes the file on save. Korean
words that name one action are used only where the English names that action, and every "Remove",
whatever its context, reads as removing."""
from tests.architecture.test_korean_catalogue_complete import PO, _entries

# Korean stems that name one action, and the English word an entry using them must contain.
ACTION_STEMS = {"내보내": "export", "내보낸": "export", "내보냈": "export", "가져오": "import", "가져온": "import"}
REMOVING = ("제거", "제외", "삭제")


def test_action_words_translate_their_own_action():
    wrong = [(ctx, mid, mstr) for ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8"))
             for stem, english in ACTION_STEMS.items() if stem in mstr and english not in mid.lower()]
    assert not wrong, f"these Korean words name another action than the English: {wrong}"


def test_every_remove_reads_as_removing():
    removes = [(ctx, mstr) for ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8")) if mid == "Remove"]
    assert {ctx for ctx, _ in removes} >= {None, "course member", "problem set item"}
    assert all(mstr in REMOVING for _, mstr in removes), removes
