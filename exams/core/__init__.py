"""The exams core: templates as data, drawing a student's variant, scoring and regrading.

Plain Python, no Django. The Django shell (exams/models.py, exams/actions/) stores what these
functions return; the printing shell (exams/printing*) renders drawn variants to paper.

    spec = parse_template(data, catalogue)                 # template.py
    drawn = draw_exam(spec, exam_secret, student_key, catalogue)   # draw.py -> DrawnExam (JSON-ready)
    score = score_exam(drawn.items, answers, kernel_outcomes)      # scoring.py
    diff = regrade(records, ...)                           # regrade.py
"""
