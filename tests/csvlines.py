"""Reading the CSV exports in tests: every cell is written quoted (courses.core.spreadsheet), so a
row is compared as its cells, parsed by the csv module, not as the raw text of its line; the byte-order
mark a download starts with (courses.core.spreadsheet.BOM) is not part of its first cell."""
from __future__ import annotations

import csv
import io


def csv_rows(response_or_text) -> list[list[str]]:
    """The rows of a CSV export (an HttpResponse or its text), each a list of cells."""
    text = response_or_text if isinstance(response_or_text, str) else response_or_text.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def csv_lines(response_or_text) -> list[str]:
    """Each row of a CSV export as its cells joined by "," (no cell of these tests holds a comma)."""
    return [",".join(row) for row in csv_rows(response_or_text)]
