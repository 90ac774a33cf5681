"""Authoring pages of a course (mounted at /courses/<code>/problems/): TAs and instructors only.

One module per page or group of pages: packages (the list, new, copy, upload, download), editor (the
files editor, statement preview, history), yaml_form (problem.yaml as a form), validation (validate,
runs, publish), previews (question families and a problem as a student sees it), dashboard and rejudge.
Every view starts with common.staff_course (Http404 for anyone but the course's TAs and instructors).
"""
