"""A printed exam's PDF writes no WeasyPrint warnings: the KaTeX declarations WeasyPrint does not implement
(SVG fill and stroke, text-rendering, clip-path, min-content widths) are left out before it parses them."""
import logging

from exams.core.printing import KatexRenderer
from exams.core.printing import pdf


def test_printable_css_drops_only_what_weasyprint_ignores():
    css = (".katex svg{fill:currentColor;stroke:currentColor;display:block;height:inherit}"
           ".a{stroke-width:1;color:red;fill-rule:nonzero}.b{width:-webkit-min-content;width:min-content;"
           "width:100%}.c{clip-path:inset(50%);text-rendering:auto;border-color:currentColor}")
    assert pdf.printable_css(css) == (".katex svg{display:block;height:inherit}.a{color:red;}.b{width:100%}"
                                      ".c{border-color:currentColor}")


def test_the_katex_stylesheet_parses_without_a_warning(caplog):
    """Before: 17 'Ignored `fill:currentColor` ... unknown property' lines per worker process."""
    pdf._stylesheets.cache_clear()
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        pdf._stylesheets(KatexRenderer().stylesheet())
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []
