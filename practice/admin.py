"""Admin of practice questions: students' variants and their attempts, read by instructors."""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import QuestionAttempt, QuestionVariant


@admin.display(description=_("result"), ordering="correct")
def attempt_result(attempt: QuestionAttempt) -> str:
    """'Correct' or 'Wrong' as words, not a bare icon, so screen readers and print say it."""
    return _("Correct") if attempt.correct else _("Wrong")


class QuestionAttemptInline(admin.TabularInline):
    model = QuestionAttempt
    fields = ("response", attempt_result, "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(QuestionVariant)
class QuestionVariantAdmin(admin.ModelAdmin):
    list_select_related = ("user",)
    list_display = ("id", "user", "family", "generator_version", "difficulty", "slot", "created_at")
    list_filter = ("family", "difficulty")
    search_fields = ("user__username", "family", "slot")
    readonly_fields = ("created_at",)
    raw_id_fields = ("user",)
    inlines = [QuestionAttemptInline]


@admin.register(QuestionAttempt)
class QuestionAttemptAdmin(admin.ModelAdmin):
    list_select_related = ("variant__user",)
    list_display = ("id", "student", "family", attempt_result, "created_at")
    list_filter = ("correct", "variant__family")
    search_fields = ("variant__user__username", "variant__family")
    raw_id_fields = ("variant",)
    readonly_fields = ("created_at",)

    @admin.display(description=_("student"), ordering="variant__user__username")
    def student(self, attempt):
        return attempt.variant.user.get_username()

    @admin.display(description=_("question family"), ordering="variant__family")
    def family(self, attempt):
        return attempt.variant.family
