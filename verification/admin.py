"""The reviewer workflow: verify or flag answers (verified ones are served first from the cache, flagged ones
never), and work through low-confidence reports."""

from django.contrib import admin, messages

from knowledge.models import AnsweredQuestion
from verification.models import LowConfidenceReport
from verification.services import answer_flag, answer_verify


@admin.register(AnsweredQuestion)
class AnsweredQuestionAdmin(admin.ModelAdmin):
    list_display = ["question", "refused", "refusal_reason", "confidence", "needs_review", "verified", "flagged",
                    "hit_count", "model", "created_at"]
    list_filter = ["needs_review", "verified", "flagged", "refused", "refusal_reason", "weak_retrieval", "model"]
    search_fields = ["question", "answer", "review_note"]
    ordering = ["-created_at"]
    readonly_fields = [
        "question", "question_hash", "gate_key", "answer", "citations", "confidence", "retrieval_score", "retrieved",
        "weak_retrieval", "refused", "refusal_reason", "warning", "suggestions", "model", "routing_reason",
        "verification", "trace", "embedding_model", "needs_review", "verified", "verified_by", "verified_at", "flagged",
        "flagged_by", "flagged_at", "hit_count", "created_at", "updated_at",
    ]
    fields = ["review_note", *readonly_fields]
    actions = ["verify", "flag"]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("question_embedding", "answer_embedding")

    def has_add_permission(self, request):
        return False  # answers come from the pipeline, not from a form

    @admin.action(description="Verify the selected answers", permissions=["change"])
    def verify(self, request, queryset):
        count = sum(1 for row in queryset if answer_verify(answered_question=row, user=request.user))
        self.message_user(request, f"{count} answers verified.", messages.SUCCESS)

    @admin.action(description="Flag the selected answers (never served again)", permissions=["change"])
    def flag(self, request, queryset):
        count = sum(1 for row in queryset if answer_flag(answered_question=row, user=request.user))
        self.message_user(request, f"{count} answers flagged.", messages.WARNING)


@admin.register(LowConfidenceReport)
class LowConfidenceReportAdmin(admin.ModelAdmin):
    list_display = ["answered_question", "best_score", "citation_score", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["answered_question__question"]
    ordering = ["-created_at"]
    readonly_fields = ["answered_question", "best_score", "citation_score", "report", "created_at", "updated_at"]
    raw_id_fields = ["answered_question"]
