from django.contrib import admin

from .models import PlaygroundRun


@admin.register(PlaygroundRun)
class PlaygroundRunAdmin(admin.ModelAdmin):
    """Playground runs, read-only: they are the users' own experiments."""

    list_display = ("key", "kernel", "user", "state", "shared", "created_at")
    list_filter = ("state", "shared")
    search_fields = ("key", "kernel", "user__username")
    readonly_fields = [f.name for f in PlaygroundRun._meta.fields]

    def has_add_permission(self, request):
        return False
