"""Admin of practice questions: students' variants and their attempts, read by instructors."""
from django.contrib import admin

from .models import QuestionAttempt, QuestionVariant


class QuestionAttemptInline(admin.TabularInline):
    model = QuestionAttempt
    fields = ("response", "correct", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(QuestionVariant)
class QuestionVariantAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "family", "generator_version", "difficulty", "slot", "created_at")
    list_filter = ("family", "difficulty")
    search_fields = ("user__username", "family", "slot")
    readonly_fields = ("created_at",)
    raw_id_fields = ("user",)
    inlines = [QuestionAttemptInline]


@admin.register(QuestionAttempt)
class QuestionAttemptAdmin(admin.ModelAdmin):
    list_display = ("id", "variant", "correct", "created_at")
    list_filter = ("correct", "variant__family")
    search_fields = ("variant__user__username", "variant__family")
    raw_id_fields = ("variant",)
    readonly_fields = ("created_at",)
