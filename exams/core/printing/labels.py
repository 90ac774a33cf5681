"""The words printed on a form and its key, in English and Korean (합니다체; CUDA terms in English).

Generated content (prompts, solutions) carries its own languages; these are the sheet's labels.
The core imports no Django, so its catalogue is this table, like the question families' texts.
"""
from __future__ import annotations

LABELS: dict[str, dict[str, str]] = {
    "form": {"en": "Form {form}", "ko": "문제지 {form}"},
    "key_of_form": {"en": "Answer key · Form {form}", "ko": "정답 · 문제지 {form}"},
    "page": {"en": "Page {page} of {pages}", "ko": "{page} / {pages}쪽"},
    "name": {"en": "Name", "ko": "이름"},
    "student_id": {"en": "Student ID", "ko": "학번"},
    "question": {"en": "Question {n}", "ko": "문제 {n}"},
    "points": {"en": "{points} points", "ko": "{points}점"},
    "point": {"en": "1 point", "ko": "1점"},
    "answer": {"en": "Answer", "ko": "답"},
    "choose_one": {"en": "Circle one.", "ko": "하나에 동그라미 하십시오."},
    "kernel_task": {"en": "Write the kernel in the space below.", "ko": "아래 빈칸에 kernel을 작성하십시오."},
    "kernel_graded": {"en": "Graded by the judge on its tests (the reference solution is shown).",
                      "ko": "채점기가 테스트로 채점합니다 (참고 풀이를 보입니다)."},
    "worked_solution": {"en": "Worked solution", "ko": "풀이"},
    "key_title": {"en": "Answer key and worked solutions", "ko": "정답과 풀이"},
    "confidential": {"en": "Staff only: do not hand out.", "ko": "교직원 전용: 학생에게 배포하지 마십시오."},
    "total": {"en": "Total: {points}", "ko": "총점: {points}"},
    "variant": {"en": "Your variant", "ko": "변형"},
}


def label(key: str, lang: str, **params) -> str:
    """The label `key` in `lang` ("en" when the language has none) with its {params} filled in."""
    texts = LABELS[key]
    return texts.get(lang, texts["en"]).format(**params)


def points_text(points: float, lang: str) -> str:
    """'5 points' / '5점'; 2.5 stays 2.5, 5.0 prints 5."""
    shown = int(points) if float(points).is_integer() else points
    if shown == 1 and lang != "ko":
        return label("point", lang)
    return label("points", lang, points=shown)
