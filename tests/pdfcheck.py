"""A PDF seen as a reader sees it, with poppler-utils: the text of each page (pdftotext), the fonts
embedded (pdffonts), each page as a greyscale image (pdftoppm), and where each run of text lies and in
which font (pdftohtml -xml). For tests of printed exams; every function writes the PDF into `folder`."""
from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from PIL import Image


def _write(pdf: bytes, folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(pdf)
    return path


def pages_text(pdf: bytes, folder: Path) -> list[str]:
    """The text of every page (pdftotext -layout), one string a page."""
    path = _write(pdf, folder, "out.pdf")
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return text.rstrip("\f\n").split("\f")


def fonts(pdf: bytes, folder: Path) -> str:
    """pdffonts' table: one line per font, its name (with the subset prefix) and whether it is embedded."""
    path = _write(pdf, folder, "fonts.pdf")
    return subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout


def page_images(pdf: bytes, folder: Path, dpi: int = 100) -> list[Image.Image]:
    """Every page rendered by pdftoppm at `dpi`, as a greyscale image (at 72 dpi a pixel is a point)."""
    path = _write(pdf, folder, "img.pdf")
    for old in folder.glob("page-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), str(path), str(folder / "page")], check=True)
    return [Image.open(p).convert("L") for p in sorted(folder.glob("page-*.png"))]


def ink(image: Image.Image, box=None) -> int:
    """Dark pixels (below 128) in `box` (left, top, right, bottom) of a greyscale page."""
    region = image.crop(box) if box else image
    return sum(region.histogram()[:128])


@dataclass(frozen=True)
class TextRun:
    """A run of text on a page as poppler lays it out, in points from the page's top left corner."""

    page: int  # 0-based
    left: float
    top: float
    width: float
    height: float
    font: str  # the font family without its subset prefix, e.g. "KaTeX_Main", "Noto-Sans-CJK-KR"
    text: str

    def box(self, scale: float = 1.0) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) in pixels of an image rendered at 72 * scale dpi."""
        return (int(self.left * scale), int(self.top * scale),
                int((self.left + self.width) * scale) + 1, int((self.top + self.height) * scale) + 1)


def text_runs(pdf: bytes, folder: Path) -> list[TextRun]:
    """Every run of text of every page with its box and font (pdftohtml -xml at zoom 1: points)."""
    path = _write(pdf, folder, "runs.pdf")
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", "-zoom", "1", str(path)],
                         capture_output=True, text=True, check=True).stdout
    runs, families = [], {}
    for number, page in enumerate(ET.fromstring(xml).iter("page")):
        # A font is declared on the first page that uses it; its id holds for the pages after.
        families.update({f.get("id"): f.get("family", "").split("+", 1)[-1] for f in page.iter("fontspec")})
        for t in page.iter("text"):
            runs.append(TextRun(number, float(t.get("left")), float(t.get("top")), float(t.get("width")),
                                float(t.get("height")), families.get(t.get("font"), ""), "".join(t.itertext())))
    return runs


def hangul(text: str) -> int:
    """How many Hangul syllables `text` holds."""
    return sum("\uac00" <= ch <= "\ud7a3" for ch in text)
