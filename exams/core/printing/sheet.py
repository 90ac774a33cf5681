"""A printed form as one HTML document: the question sheet, or its answer key with worked solutions.

Every page carries the form id and its page number in CSS @page margin boxes (a loose sheet can be
matched to its key); a per-student form carries the student's name and ID on every page too.
Kernel items print their statement (the student's variant) and a box to write the kernel in; the key
prints the reference solution. Text is escaped; margin-box strings are escaped for CSS, so a name
such as `</style>` or `"` stays text. Plain Python, no Django.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from html import escape
from typing import Callable

from practice.core.inline import inline_html

from ..draw import question_view
from .labels import label, points_text
from .markup import MathSlots, blocks_html, markdown_html

Text = dict[str, str]


class Part(enum.StrEnum):
    """Which half of a form is printed."""

    QUESTIONS = "questions"  # the sheet a student writes on: no answers, no solutions
    KEY = "key"  # answers and worked solutions: staff only until results are released


@dataclass(frozen=True)
class ExamHeader:
    """What every form of one exam shares."""

    title: Text  # language -> exam title ("en" always present)
    course: str = ""  # printed under the title, e.g. "CS 431 · Fall 2026"
    instructions: Text = field(default_factory=dict)  # language -> a paragraph above the first question


@dataclass(frozen=True)
class PrintForm:
    """One form: a form letter's drawn variant, or one student's."""

    form_id: str  # "A", "B", ... or the student's id: printed on every page and on its key
    items: list[dict]  # drawn items, as exams.core.draw stores them (kind, number, points, question | kernel)
    student_name: str = ""  # a per-student form: the student's name ("" when the site has none)
    student_number: str = ""  # the student's ID as the course knows it (printed with the name)

    @property
    def is_student(self) -> bool:
        return bool(self.student_name or self.student_number)

    def who(self) -> str:
        """A per-student form's student, each part once: 'Kim Minsu (alice_t)', or the ID alone when
        there is no name or it is the ID itself."""
        name, number = self.student_name.strip(), self.student_number.strip()
        if name and number and name != number:
            return f"{name} ({number})"
        return number or name


# item -> {"title": Text, "statement": Text (Markdown, variant bound), "solution": str}: the shell reads the
# package version a kernel item names (and binds its variant); the core never touches the database.
KernelText = Callable[[dict], dict]


def _css_string(text: str) -> str:
    """`text` as a CSS string literal that cannot end the string, the rule or the <style> element."""
    out = []
    for ch in text:
        if ch in '"\\' or ch == "<" or ch == ">" or ord(ch) < 0x20 or ch == "\x7f":
            out.append(f"\\{ord(ch):x} ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _t(text: Text, lang: str) -> str:
    return text.get(lang) or text.get("en") or ""


def page_css(header: ExamHeader, form: PrintForm, lang: str, part: Part) -> str:
    """The @page rules of this form: title top left, form id (and student) top right, page n of m bottom.

    A page that begins inside an item (one taller than what is left of a page) names it top right
    before the form id: "Question 4 (continued) · Form B" (the named string qcont, whose value on a
    page is the one it had where the page begins: `string(qcont, start)`, set by each item's heading
    and cleared where the item ends; see _item_html).
    """
    # A lettered form is named by its letter; a student's by the student (name and ID once each: the
    # form id of a student's form is their ID, which "Form alice_t · alice_t · alice_t" printed thrice).
    if form.is_student:
        ident = label("key_of_student", lang, who=form.who()) if part is Part.KEY else form.who()
    else:
        ident = label("key_of_form" if part is Part.KEY else "form", lang, form=form.form_id)
    page = label("page", lang, page="\x00", pages="\x01")
    before, rest = page.split("\x00")
    middle, after = rest.split("\x01")
    counter = f"{_css_string(before)} counter(page) {_css_string(middle)} counter(pages) {_css_string(after)}"
    return f"""@page {{
  @top-left {{ content: {_css_string(_t(header.title, lang))}; }}
  @top-right {{ content: string(qcont, start) {_css_string(ident)}; }}
  @bottom-left {{ content: {_css_string(ident)}; }}
  @bottom-right {{ content: {counter}; }}
}}"""


def _fields_html(view: dict, lang: str) -> str:
    out = []
    for f in view["fields"]:
        if f["kind"] == "choice":
            choices = "".join(
                f'<li><span class="choice-key">({escape(c["key"])})</span> {_choice_html(c["label"], c.get("code"))}</li>'
                for c in f["choices"])
            out.append(f'<div class="field"><div class="field-label">{escape(f["label"])} '
                       f'<span class="hint">{escape(label("choose_one", lang))}</span></div>'
                       f'<ul class="choices">{choices}</ul></div>')
        else:
            unit = f' <span class="unit">{escape(f["unit"])}</span>' if f.get("unit") else ""
            out.append(f'<div class="field"><span class="field-label">{escape(f["label"])}</span> '
                       f'<span class="blank"></span>{unit}</div>')
    return "\n".join(out)


def _choice_html(text: str, is_code: bool) -> str:
    """A choice's label: code in a code box (Choice.code says the label is code), else the family's
    inline Markdown, as on screen."""
    return f'<pre class="code">{escape(text)}</pre>' if is_code else inline_html(text)


def _key_fields_html(view: dict, lang: str) -> str:
    rows = []
    for f in view["fields"]:
        value = str(view["answer"].get(f["name"], ""))
        if f["kind"] == "choice":  # the right choice's label
            code = any(c.get("code") for c in f["choices"])
            value_html = _choice_html(value, code)
        else:
            value_html = escape(value)
        rows.append(f'<tr><th>{escape(f["label"])}</th><td class="answer-value">{value_html}'
                    f'{(" " + escape(f["unit"])) if f.get("unit") else ""}</td></tr>')
    return f'<table class="key"><caption>{escape(label("answer", lang))}</caption>{"".join(rows)}</table>'


def _item_html(item: dict, lang: str, part: Part, slots: MathSlots, kernel_text: KernelText | None) -> str:
    # The points span names the page header's "Question 4 (continued) · " for pages that begin inside
    # this item, and the empty div closing the item clears it (BASE_CSS: string-set qcont; page_css).
    continued = label("question_continued", lang, n=item["number"]) + " · "
    head = (f'<h2><span class="qnum">{escape(label("question", lang, n=item["number"]))}</span>'
            f'<span class="pts" data-continued="{escape(continued)}">'
            f'{escape(points_text(item.get("points", 0), lang))}</span></h2>')
    if item["kind"] == "question":
        view = question_view(item["question"], lang, with_key=part is Part.KEY)
        body = [f'<h3>{escape(view["title"])}</h3>', blocks_html(view["prompt"])]
        if part is Part.KEY:
            body += [_key_fields_html(view, lang), f'<h4>{escape(label("worked_solution", lang))}</h4>',
                     blocks_html(view["solution"])]
        else:
            body.append(_fields_html(view, lang))
    else:
        text = kernel_text(item) if kernel_text else {}
        title = _t(text.get("title") or {"en": item["kernel"]["slug"]}, lang)
        body = [f'<h3>{escape(title)}</h3>']
        if part is Part.KEY:
            body += [f'<p class="hint">{escape(label("kernel_graded", lang))}</p>',
                     f'<pre class="code solution">{escape(text.get("solution", ""))}</pre>']
        else:
            body += [f'<div class="statement">{markdown_html(_t(text.get("statement") or {}, lang), slots)}</div>',
                     f'<div class="answer-area"><p class="hint">{escape(label("kernel_task", lang))}</p>'
                     '<div class="kernel-box"></div></div>']
    return (f'<section class="item item-{escape(item["kind"])}">{head}{"".join(body)}'
            '<div class="item-end"></div></section>')


def form_html(header: ExamHeader, form: PrintForm, lang: str, part: Part, slots: MathSlots,
              kernel_text: KernelText | None = None) -> str:
    """One form (or its key) as an HTML document, its math still in `slots` (fill before printing).

    `lang` is "en" or "ko"; generated content falls back to English where it has no Korean.
    """
    lang = "ko" if lang == "ko" else "en"
    total = sum(float(i.get("points", 0)) for i in form.items)
    if part is Part.KEY:
        top = (f'<p class="confidential">{escape(label("confidential", lang))}</p>'
               f'<h1>{escape(_t(header.title, lang))} — {escape(label("key_title", lang))}</h1>')
    else:
        top = f'<h1>{escape(_t(header.title, lang))}</h1>'
    meta = [escape(header.course)] if header.course else []
    meta.append(escape(label("total", lang, points=points_text(total, lang))))
    top += f'<p class="meta">{" · ".join(meta)}</p>'
    if part is Part.QUESTIONS:
        name = escape(form.student_name) if form.student_name else ""
        number = escape(form.student_number) if form.student_number else ""
        top += (f'<table class="who"><tr><th>{escape(label("name", lang))}</th><td>{name}</td>'
                f'<th>{escape(label("student_id", lang))}</th><td>{number}</td></tr></table>')
        if _t(header.instructions, lang):
            top += f'<p class="instructions">{escape(_t(header.instructions, lang))}</p>'
    items = "\n".join(_item_html(i, lang, part, slots, kernel_text) for i in form.items)
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<title>{escape(_t(header.title, lang))}</title><style>{page_css(header, form, lang, part)}</style>'
            f'</head><body class="part-{part}">{top}{items}</body></html>')


BASE_CSS = """
@page {
  size: A4; margin: 20mm 16mm 18mm 16mm;
  @top-left { font-size: 8.5pt; color: #444; vertical-align: bottom; padding-bottom: 3mm; }
  @top-right { font-size: 9pt; font-weight: bold; vertical-align: bottom; padding-bottom: 3mm; }
  @bottom-left { font-size: 9pt; font-weight: bold; vertical-align: top; padding-top: 3mm; }
  @bottom-right { font-size: 9pt; vertical-align: top; padding-top: 3mm; }
}
html { font-family: "Noto Sans CJK KR", "Noto Sans", "DejaVu Sans", sans-serif; font-size: 10.5pt; line-height: 1.45; }
body { margin: 0; }
h1 { font-size: 16pt; margin: 0 0 1mm 0; }
h2 { font-size: 11.5pt; margin: 0 0 1mm 0; border-bottom: 0.6pt solid #333; display: flex; justify-content: space-between; }
h2 .pts { font-weight: normal; font-size: 10pt; float: right; }
h3 { font-size: 10.5pt; margin: 1mm 0; }
h4 { font-size: 10pt; margin: 3mm 0 1mm 0; }
.meta { color: #333; margin: 0 0 3mm 0; }
.confidential { font-weight: bold; color: #a00; margin: 0 0 2mm 0; }
table.who { width: 100%; border-collapse: collapse; margin-bottom: 5mm; }
table.who th { text-align: left; white-space: nowrap; padding-right: 3mm; font-weight: normal; width: 1%; }
table.who td { border-bottom: 0.6pt solid #000; height: 8mm; width: 49%; }
.instructions { font-style: italic; }
/* Page breaks. An item that fits on a page is never split: its prompt stays with its answer fields or
   box, a key's answers and solution with the question's heading. One taller than a page breaks, but
   never between a heading or hint and what follows it, nor between the "write the kernel below" line
   and the box; every page that begins inside an item says "Question N (continued)" at its top. */
section.item { margin: 0 0 7mm 0; break-inside: avoid; }
h2, h3, h4, .hint, table.key caption { break-after: avoid; }
.answer-area, table.key, .field { break-inside: avoid; }
p, li { orphans: 3; widows: 3; }
h2 .pts { string-set: qcont attr(data-continued); }
.item-end { string-set: qcont ""; }
pre, code { font-family: "DejaVu Sans Mono", "Noto Sans Mono CJK KR", monospace; }
code { font-size: 9pt; }
pre.code { font-size: 8.5pt; line-height: 1.3; background: #f4f4f4; border: 0.5pt solid #ccc; padding: 2mm;
           white-space: pre-wrap; margin: 2mm 0; break-inside: avoid; }
pre code { font-size: inherit; }
.formula { font-family: "KaTeX_Main", "DejaVu Serif", "Noto Serif CJK KR", serif; font-size: 11pt;
           text-align: center; margin: 2mm 0; }
.math-display { text-align: center; margin: 2mm 0; }
.katex { font-size: 1.1em; }
.field { margin: 2.5mm 0; }
.field-label { font-weight: bold; }
.blank { display: inline-block; width: 45mm; border-bottom: 0.6pt solid #000; height: 6mm; vertical-align: bottom; }
.hint { font-weight: normal; color: #444; font-size: 9pt; }
ul.choices { list-style: none; padding-left: 3mm; margin: 1mm 0; }
ul.choices li { margin: 1mm 0; }
.choice-key { font-weight: bold; margin-right: 2mm; }
.kernel-box { border: 0.6pt solid #000; height: 150mm; margin-top: 2mm; }
table.key { border-collapse: collapse; margin: 2mm 0; }
table.key caption { text-align: left; font-weight: bold; }
table.key th { text-align: left; font-weight: normal; padding: 1mm 4mm 1mm 0; }
table.key td { font-weight: bold; }
.statement pre { font-size: 8.5pt; line-height: 1.3; background: #f4f4f4; border: 0.5pt solid #ccc; padding: 2mm;
                 white-space: pre-wrap; break-inside: avoid; }
.statement > h1:first-child { display: none; }  /* the package title is printed above it */
.statement table { border-collapse: collapse; margin: 2mm 0; }
.statement th, .statement td { border: 0.5pt solid #999; padding: 1mm 2mm; }
.statement h1 { font-size: 11pt; } .statement h2 { font-size: 10.5pt; border: none; display: block; }
code.tex-error { color: #a00; }
"""
