"""Admin of courses: members and invites inline; roster-created accounts read-only."""
from django.contrib import admin

from .models import Course, Invite, Membership, ProvisionedAccount


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ("user", "role", "joined_at")
    readonly_fields = ("joined_at",)
    raw_id_fields = ("user",)
    extra = 0


class InviteInline(admin.TabularInline):
    model = Invite
    fields = ("code", "role", "expires_at", "max_uses", "uses", "revoked_at", "created_at")
    readonly_fields = ("code", "uses", "created_at")
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False  # invites get their random code from courses.actions.create_invite (the course page)


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("code", "name", "term", "language", "target_cc", "created_at")
    list_filter = ("language", "target_cc", "term")
    search_fields = ("code", "name", "term")
    readonly_fields = ("created_by", "created_at")
    inlines = [MembershipInline, InviteInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("course", "user", "role", "joined_at")
    list_filter = ("role", "course")
    search_fields = ("course__code", "user__username", "user__email")
    raw_id_fields = ("user", "course")
    readonly_fields = ("joined_at",)


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ("code", "course", "role", "expires_at", "max_uses", "uses", "revoked_at")
    list_filter = ("role", "course")
    search_fields = ("code", "course__code")
    readonly_fields = ("code", "course", "uses", "created_by", "created_at")

    def has_add_permission(self, request):
        return False


@admin.register(ProvisionedAccount)
class ProvisionedAccountAdmin(admin.ModelAdmin):
    list_display = ("user", "course", "created_by", "created_at")
    search_fields = ("user__username", "course__code")
    readonly_fields = ("user", "course", "created_by", "created_at")

    def has_add_permission(self, request):
        return False
