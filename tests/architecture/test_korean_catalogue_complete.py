"""Every phrase of the interface reads in Korean on a Korean page: no catalogue entry of two or more words
keeps the English as its translation (format strings and product names excepted), and every topic
name of more than one word has its Korean name."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ko" / "LC_MESSAGES" / "django.po"
# Names that are the same in both languages: products and formats, and the CUDA field terms that the
# Korean interface keeps in English (test_korean_field_terms.py).
SAME_IN_KOREAN = {"Canvas CSV", "Moodle CSV", "LMS (LTI 1.3)", "shared memory"}
# Single words a tester found left in English although the course has a Korean word for them.
MUST_TRANSLATE = {"Launch", "scalar", "Occupancy", "occupancy", "Compute capability", "Kernel signature"}


def _entries(text: str):
    """(msgctxt, msgid, msgstr) of each active entry (multi-line strings joined; a plural entry's msgstr is
    its msgstr[0], Korean having one form). An entry starts at its msgctxt or msgid, not at a blank line:
    gettext needs none between entries, and 37 entries written without one were read as part of the entry
    before them, so every catalogue test skipped them."""
    entries, fields, key = [], {}, None
    for line in text.splitlines():
        m = re.match(r"(msgctxt|msgid|msgid_plural|msgstr)(?:\[0\])? (\".*\")$", line)
        if m and (m.group(1) == "msgctxt" or (m.group(1) == "msgid" and "msgid" in fields)):
            entries.append(fields)
            fields = {}
        if m:
            key = m.group(1)
            fields[key] = ast.literal_eval(m.group(2))
        elif line.startswith('"') and key:
            fields[key] += ast.literal_eval(line)
        else:
            key = None
    entries.append(fields)
    for fields in entries:
        if fields.get("msgid"):
            yield fields.get("msgctxt"), fields["msgid"], fields.get("msgstr", "")


def test_no_phrase_keeps_its_english_as_the_korean():
    same = [mid for _ctx, mid, mstr in _entries(PO.read_text(encoding="utf-8"))
            if mstr == mid and mid not in SAME_IN_KOREAN
            and (mid in MUST_TRANSLATE or re.search(r"[A-Za-z]+ [A-Za-z(]", mid))]
    assert not same, f"translate these into Korean: {same}"


def test_every_topic_of_more_than_one_word_has_a_korean_name():
    from problems.core.topics import TOPIC_NAMES

    untranslated = [n["en"] for n in TOPIC_NAMES.values() if " " in n["en"] and n["ko"] == n["en"]]
    assert not untranslated
