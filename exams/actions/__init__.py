"""The one write path of exams, one module per concept: scheduling (templates, scheduled exams,
accommodations, windows and deadlines), attempts (start, autosave, submit, close, kernel items, staff
extensions and resets) and grading (scores, kernel verdicts arriving, regrades, rejudges).

Views, tasks, the admin and management commands call these. Each change locks the attempt row
(`select_for_update`), saves with `update_fields`, and logs an AttemptEvent for the timeline
(events.log_event). The server's clock decides: every function that can be late takes an injectable `now`.
"""
