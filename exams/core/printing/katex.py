"""TeX to HTML on the server with KaTeX (through node), for PDFs: WeasyPrint runs no JavaScript.

Why KaTeX: it is the renderer the site's pages already use (npm dependency `katex`), so a printed
formula is the one a student saw on screen, and it covers the TeX our statements use. Measured on
every formula of the bank's statements (2026-12-01): KaTeX's HTML output with its own fonts lays out
correctly in WeasyPrint 70 (fractions, sums with limits, cases, \\texttt, \\bmod, \\mathrel{+}=);
ziamath 0.13 (SVG) dropped the `+` of `\\mathrel{+}=` (printing `y = Σ` for `y += Σ`), set
\\texttt in a roman font and ran `\\bmod m` together. KaTeX is called once per batch (one node
process for a whole form set), with trust off: no \\href, \\url or HTML extensions reach the PDF.

Plain Python, no Django: the caller passes the katex package folder (node_modules/katex).
"""
from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(__file__).with_name("katex_render.cjs")
DEFAULT_KATEX_DIR = Path(__file__).resolve().parents[3] / "node_modules" / "katex"
TIMEOUT_S = 60.0


class MathRenderError(RuntimeError):
    """KaTeX could not be run at all (node or the katex package missing, node failing): a platform fault."""


@dataclass(frozen=True)
class Formula:
    """One TeX formula to typeset."""

    tex: str  # TeX source without its $ delimiters
    display: bool  # True: a display formula ($$...$$), on its own centred line


class KatexRenderer:
    """Typesets formulas with KaTeX, caching each (tex, display) for the life of the renderer.

    `katex_dir` is the katex npm package (with dist/katex.min.css and dist/fonts/); `node` is the node
    executable. Raises MathRenderError from `render` when either is missing.
    """

    def __init__(self, katex_dir: str | Path = DEFAULT_KATEX_DIR, node: str = "node"):
        self.katex_dir = Path(katex_dir)
        self.node = node
        self._cache: dict[Formula, str] = {}

    def check(self) -> None:
        """Raise MathRenderError unless node and the katex package are there."""
        if shutil.which(self.node) is None:
            raise MathRenderError(f"node ({self.node}) is not installed: printed exams typeset math with KaTeX")
        if not (self.katex_dir / "dist" / "katex.min.css").is_file():
            raise MathRenderError(f"KaTeX is not installed at {self.katex_dir} (run npm ci)")

    def stylesheet(self) -> str:
        """KaTeX's CSS with its font URLs made absolute (file://), for WeasyPrint."""
        self.check()
        css = (self.katex_dir / "dist" / "katex.min.css").read_text(encoding="utf-8")
        return css.replace("url(fonts/", f"url({(self.katex_dir / 'dist' / 'fonts').as_uri()}/")

    def render(self, formulas: list[Formula]) -> dict[Formula, str]:
        """HTML for each formula (KaTeX's `span.katex`); a formula KaTeX rejects maps to its TeX, escaped,
        in a `code.tex-error` element, so a typo in one statement never stops a print run."""
        from html import escape

        todo = sorted({f for f in formulas if f not in self._cache}, key=lambda f: (f.tex, f.display))
        if todo:
            self.check()
            try:
                done = subprocess.run(
                    [self.node, str(SCRIPT), str(self.katex_dir)], input=json.dumps([[f.tex, f.display] for f in todo]),
                    capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise MathRenderError(f"KaTeX did not run: {exc}") from exc
            if done.returncode != 0:
                raise MathRenderError(f"KaTeX failed (exit {done.returncode}): {done.stderr[-2000:]}")
            results = json.loads(done.stdout)
            if len(results) != len(todo):
                raise MathRenderError(f"KaTeX returned {len(results)} results for {len(todo)} formulas")
            for formula, result in zip(todo, results):
                self._cache[formula] = result.get("html") or \
                    f'<code class="tex-error" title="{escape(result.get("error", ""))}">{escape(formula.tex)}</code>'
        return {f: self._cache[f] for f in formulas}
