from django.contrib import admin

from knowledge.models import Chunk, ChunkEmbedding, Entity, Source, Topic


@admin.register(Topic)
class TopicAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "updated_at"]
    list_filter = ["created_at"]
    search_fields = ["slug", "name", "keywords"]
    ordering = ["slug"]
    readonly_fields = ["created_at", "updated_at"]


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    list_display = ["url", "title", "domain", "whitelisted"]
    list_filter = ["whitelisted", "domain"]
    search_fields = ["url", "title"]
    ordering = ["url"]
    readonly_fields = ["domain", "created_at", "updated_at"]


@admin.register(Entity)
class EntityAdmin(admin.ModelAdmin):
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
class ChunkAdmin(admin.ModelAdmin):
    list_display = ["entry_id", "title", "topic", "type", "diagnostic_code", "updated_at"]
    list_filter = ["topic", "type"]
    search_fields = ["entry_id", "title", "content", "diagnostic_code"]
    ordering = ["entry_id"]
    readonly_fields = ["content_hash", "created_at", "updated_at"]
    raw_id_fields = ["source"]
    exclude = ["entities"]
    inlines = [ChunkEmbeddingInline]
    list_select_related = ["topic"]
