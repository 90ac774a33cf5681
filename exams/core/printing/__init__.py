"""Printed exams: drawn items -> HTML -> PDF bytes, in English or Korean (plain functions, no Django).

    forms = lettered_forms(spec, secret, 4)                      # forms A-D, or student_forms(...)
    pdf = print_forms(header, forms, "ko", Part.QUESTIONS)       # the sheets
    key = print_forms(header, forms, "ko", Part.KEY)             # answers and worked solutions

Math is typeset on the server with KaTeX (katex.py says why), Korean is set in Noto Sans CJK KR,
code in DejaVu Sans Mono, and each page carries its form id and page number (sheet.py).
"""
from .forms import Student, form_letters, lettered_forms, student_forms
from .katex import KatexRenderer, MathRenderError
from .pdf import forms_html, print_forms, write_pdf
from .sheet import ExamHeader, Part, PrintForm

__all__ = ["ExamHeader", "KatexRenderer", "MathRenderError", "Part", "PrintForm", "Student", "form_letters",
           "forms_html", "lettered_forms", "print_forms", "student_forms", "write_pdf"]
