"""Admin of problems (versions are immutable: shown read-only). Topics are shown, filtered and
chosen under their names in the reader's language (problems.core.topics.TOPIC_NAMES), never their keys."""
from django import forms
from django.contrib import admin, messages
from django.db.models import Case, IntegerField, Value, When
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .core.topics import Topic
from .models import Problem, ProblemVersion
from .templatetags.warpdrill import topic_label


# The topic column sorts as the topic filter lists the topics (Topic's order: occupancy, indexing, ...),
# not by key; a row whose key is no longer a Topic sorts last.
TOPIC_ORDER = Case(*(When(topic=topic.value, then=Value(i)) for i, topic in enumerate(Topic)),
                   default=Value(len(Topic)), output_field=IntegerField())


class TopicListFilter(admin.SimpleListFilter):
    """Filter by topic, offered under the topics' names (the model's choices are the keys)."""

    title = _("topic")
    # The parameter Django's own choices filter used, so that bookmarked filtered lists keep working.
    parameter_name = "topic__exact"
    #: The lookup from the listed model to the problem's topic.
    field = "topic"

    def lookups(self, request, model_admin):
        return [(topic.value, topic_label(topic.value)) for topic in Topic]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(**{self.field: self.value()})
        return queryset


class VersionTopicListFilter(TopicListFilter):
    """The version list's filter by its problem's topic."""

    parameter_name = "problem__topic__exact"
    field = "problem__topic"


class ProblemVersionInline(admin.TabularInline):
    model = ProblemVersion
    fields = ("number", "content_hash", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


class ProblemAdminForm(forms.ModelForm):
    class Meta:
        model = Problem
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("is_published") and not cleaned.get("current_version"):
            raise forms.ValidationError(_("A problem without a package version cannot be published: students would get a 404."))
        return cleaned


@admin.register(Problem)
class ProblemAdmin(admin.ModelAdmin):
    """Problems come from packages (`manage.py import_problems`), so the admin never adds one: a
    problem added here had no package, showed success, and gave students a 404."""

    form = ProblemAdminForm
    list_display = ("slug", "title_en", "topic_shown", "difficulty", "current_version", "published", "updated_at")
    list_filter = (TopicListFilter, "difficulty", "is_published", "kind")
    search_fields = ("slug", "title_en", "title_ko")
    readonly_fields = ("created_at", "updated_at")
    inlines = [ProblemVersionInline]
    actions = ["publish", "unpublish"]

    def has_add_permission(self, request):
        return False

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "title": _("Problems (added as packages: manage.py import_problems)")}
        return super().changelist_view(request, extra_context)

    @admin.display(description=_("topic"), ordering=TOPIC_ORDER)
    def topic_shown(self, problem):
        """The topic's name in the reader's language ("Thread indexing", "Thread indexing (인덱스 계산)")."""
        return topic_label(problem.topic)

    def formfield_for_choice_field(self, db_field, request, **kwargs):
        # The change form's topic menu names the topics too (built per request, so in its language).
        if db_field.name == "topic":
            kwargs["choices"] = [(topic.value, topic_label(topic.value)) for topic in Topic]
        return super().formfield_for_choice_field(db_field, request, **kwargs)

    @admin.display(description=_("published"), ordering="is_published")
    def published(self, problem):
        """Words, not a bare icon, so screen readers and print say it."""
        return _("Published") if problem.is_published else _("Hidden")

    @admin.action(description=_("Publish the selected problems"), permissions=["change"])
    def publish(self, request, queryset):
        ready = queryset.exclude(current_version=None)
        n = ready.update(is_published=True)
        skipped = queryset.count() - ready.count()
        self.message_user(request, ngettext("%(n)d problem published.", "%(n)d problems published.", n) % {"n": n})
        if skipped:
            self.message_user(request, ngettext(
                "%(n)d problem has no package version and stays hidden.",
                "%(n)d problems have no package version and stay hidden.", skipped) % {"n": skipped}, messages.WARNING)

    @admin.action(description=_("Hide the selected problems"), permissions=["change"])
    def unpublish(self, request, queryset):
        n = queryset.update(is_published=False)
        self.message_user(request, ngettext("%(n)d problem hidden.", "%(n)d problems hidden.", n) % {"n": n})

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
    list_filter = (VersionTopicListFilter,)
    search_fields = ("problem__slug",)
    readonly_fields = ("problem", "number", "content_hash", "files", "created_at")

    def lookup_allowed(self, lookup, value, request):
        # Django allows a relational lookup only under a filter's own name ("problem__topic"); the
        # topic filter keeps the "__exact" name Django's choices filter gave bookmarked URLs.
        return lookup == VersionTopicListFilter.parameter_name or super().lookup_allowed(lookup, value, request)

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
