"""A course's default language (Course.language), where a language must be chosen without a reader's:
the invite pages for a logged-out visitor whose browser asks for no language the site has, the printed
forms' first choice, the exports (exams.exports) and the scores' labels sent to an LMS (lti.grades).

A reader who has chosen is always served in their choice: the language switch's cookie, then the
browser's Accept-Language, as Django's LocaleMiddleware reads them.
"""
from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header

from .models import Course, Language


def course_language(course: Course) -> str:
    """The course's default language as a language code the site has ("en" or "ko")."""
    return Language.KOREAN.value if course.language == Language.KOREAN else Language.ENGLISH.value


def names_a_language(request) -> bool:
    """Whether the request says which of the site's languages it wants: the language switch's cookie,
    or an Accept-Language naming one the site has (a "*", or only languages it has not, name none)."""
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
        return True
    for code, _quality in parse_accept_lang_header(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        if code == "*":
            continue
        try:
            get_supported_language_variant(code)
        except LookupError:
            continue
        return True
    return False


def speak_course_language(request, course: Course | None) -> None:
    """Serve the rest of the request in `course`'s default language when the visitor is logged out and
    names none of the site's languages (names_a_language); else leave the language LocaleMiddleware
    chose. The response's Content-Language follows (LocaleMiddleware sets it from the active one)."""
    if course is None or request.user.is_authenticated or names_a_language(request):
        return
    translation.activate(course_language(course))
    request.LANGUAGE_CODE = translation.get_language()
