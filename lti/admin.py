"""The admin's pages of LTI registrations (platforms), linked LMS users and resource links."""
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from .keys import new_key_pair
from .models import LtiUser, Platform, ResourceLink


@admin.register(Platform)
class PlatformAdmin(admin.ModelAdmin):
    list_display = ("name", "issuer", "client_id", "is_active")
    list_filter = ("is_active",)
    search_fields = ("name", "issuer", "client_id")
    filter_horizontal = ("courses",)
    readonly_fields = ("tool_public_key", "created_at")
    exclude = ("tool_private_key",)  # never shown; made on first save, replaced by the action below
    actions = ["new_tool_key"]

    @admin.action(description=_("Replace the tool's key pair (the LMS reads the new one from the JWKS URL)"))
    def new_tool_key(self, request, queryset):
        for platform in queryset:
            platform.tool_private_key, platform.tool_public_key = new_key_pair()
            platform.save(update_fields=["tool_private_key", "tool_public_key"])
        messages.success(request, _("New key pairs made."))


@admin.register(LtiUser)
class LtiUserAdmin(admin.ModelAdmin):
    list_display = ("sub", "platform", "user", "created_at")
    list_filter = ("platform",)
    search_fields = ("sub", "user__username", "user__email")
    raw_id_fields = ("user",)


@admin.register(ResourceLink)
class ResourceLinkAdmin(admin.ModelAdmin):
    list_display = ("title", "platform", "course", "exam", "problem_set", "last_synced_at")
    list_filter = ("platform",)
    readonly_fields = ("ags", "last_synced_at", "last_sync_report", "updated_at")
