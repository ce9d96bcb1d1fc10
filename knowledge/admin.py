"""The knowledge base in the admin: reviewers edit topics, entities, sources and chunks, each edit saying why and
kept in the row's history; seeding and re-ingesting never overwrite what a person edited (knowledge.services)."""

from django import forms
from django.contrib import admin, messages
from simple_history.admin import SimpleHistoryAdmin

from knowledge.models import Chunk, ChunkEmbedding, Entity, Source, Topic
from knowledge.services import chunk_edit, chunks_delete

MSG_STALE = "{count} answer(s) citing it left the cache for the stale queue."
REASON_DELETED = "deleted in the admin"


class ReasonedForm(forms.ModelForm):
    change_reason = forms.CharField(label="Why this change", max_length=100,
                                    help_text="Kept in the history with your name.")


class ReasonedHistoryAdmin(SimpleHistoryAdmin):
    """An admin whose every save asks why, and keeps who, when and why in the row's history."""

    form = ReasonedForm

    def save_model(self, request, obj, form, change):
        obj._change_reason = form.cleaned_data.get("change_reason", "")
        super().save_model(request, obj, form, change)


@admin.register(Topic)
class TopicAdmin(ReasonedHistoryAdmin):
    list_display = ["slug", "name", "updated_at"]
    list_filter = ["created_at"]
    search_fields = ["slug", "name", "keywords"]
    ordering = ["slug"]
    readonly_fields = ["created_at", "updated_at"]


@admin.register(Source)
class SourceAdmin(ReasonedHistoryAdmin):
    list_display = ["url", "title", "domain", "whitelisted"]
    list_filter = ["whitelisted", "domain"]
    search_fields = ["url", "title"]
    ordering = ["url"]
    readonly_fields = ["domain", "created_at", "updated_at"]


@admin.register(Entity)
class EntityAdmin(ReasonedHistoryAdmin):
    list_display = ["value", "type", "name"]
    list_filter = ["type"]
    search_fields = ["value", "name", "aliases", "definition"]
    ordering = ["type", "value"]
    readonly_fields = ["created_at", "updated_at"]
    raw_id_fields = ["source"]


class ChunkEmbeddingInline(admin.TabularInline):
    model = ChunkEmbedding
    fields = ["model", "dimensions", "text_hash", "updated_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def get_queryset(self, request):
        return super().get_queryset(request).defer("embedding")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Chunk)
class ChunkAdmin(ReasonedHistoryAdmin):
    list_display = ["entry_id", "title", "topic", "type", "diagnostic_code", "updated_at"]
    list_filter = ["topic", "type"]
    search_fields = ["entry_id", "title", "content", "diagnostic_code"]
    ordering = ["entry_id"]
    readonly_fields = ["content_hash", "created_at", "updated_at"]
    raw_id_fields = ["source"]
    exclude = ["entities"]
    inlines = [ChunkEmbeddingInline]
    list_select_related = ["topic"]

    def save_model(self, request, obj, form, change):
        if not change:
            return super().save_model(request, obj, form, change)
        stale = chunk_edit(chunk=obj, user=request.user, reason=form.cleaned_data["change_reason"])
        if stale:
            self.message_user(request, MSG_STALE.format(count=stale), messages.WARNING)
        return None

    def delete_model(self, request, obj):
        self.delete_queryset(request, Chunk.objects.filter(id=obj.id))

    def delete_queryset(self, request, queryset):
        stale = chunks_delete(chunk_ids=list(queryset.values_list("id", flat=True)), user=request.user,
                              reason=REASON_DELETED)
        if stale:
            self.message_user(request, MSG_STALE.format(count=stale), messages.WARNING)
