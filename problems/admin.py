"""Admin of problems (versions are immutable: shown read-only)."""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Problem, ProblemVersion


class ProblemVersionInline(admin.TabularInline):
    model = ProblemVersion
    fields = ("number", "content_hash", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Problem)
class ProblemAdmin(admin.ModelAdmin):
    list_display = ("slug", "title_en", "topic", "difficulty", "current_version", "is_published", "updated_at")
    list_filter = ("topic", "difficulty", "is_published", "kind")
    search_fields = ("slug", "title_en", "title_ko")
    list_editable = ("is_published",)
    readonly_fields = ("created_at", "updated_at")
    inlines = [ProblemVersionInline]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        # The current version must be one of this problem's versions.
        if db_field.name == "current_version":
            problem_id = request.resolver_match.kwargs.get("object_id") if request.resolver_match else None
            kwargs["queryset"] = ProblemVersion.objects.filter(problem_id=problem_id)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(ProblemVersion)
class ProblemVersionAdmin(admin.ModelAdmin):
    """Versions are snapshots that submissions point at: never edited in place."""

    list_display = ("problem", "number", "short_hash", "file_count", "created_at")
    list_filter = ("problem__topic",)
    search_fields = ("problem__slug",)
    readonly_fields = ("problem", "number", "content_hash", "files", "created_at")

    @admin.display(description=_("hash"))
    def short_hash(self, obj):
        return obj.content_hash[:12]

    @admin.display(description=_("files"))
    def file_count(self, obj):
        return len(obj.files or {})

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
