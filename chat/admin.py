from django.contrib import admin, messages

from chat.models import AnswerFeedback, ApiClient
from chat.services import api_client_key_assign

MSG_KEY_ISSUED = ("API key for {name}: {key} — copy it now and give it to the client; it is stored only as a hash "
                  "and cannot be shown again. The client sends it as: Authorization: Bearer <key>.")


@admin.register(ApiClient)
class ApiClientAdmin(admin.ModelAdmin):
    list_display = ["name", "prefix", "active", "rate", "last_used_at", "created_at"]
    list_filter = ["active"]
    search_fields = ["name", "contact", "prefix"]
    ordering = ["name"]
    fields = ["name", "contact", "rate", "active", "prefix", "last_used_at", "created_at"]
    readonly_fields = ["prefix", "last_used_at", "created_at"]

    def save_model(self, request, obj, form, change):
        key = None if change else api_client_key_assign(client=obj)
        super().save_model(request, obj, form, change)
        if key:
            self.message_user(request, MSG_KEY_ISSUED.format(name=obj.name, key=key), messages.WARNING)


@admin.register(AnswerFeedback)
class AnswerFeedbackAdmin(admin.ModelAdmin):
    list_display = ["answered_question", "helpful", "reason", "comment", "created_at"]
    list_filter = ["helpful", "reason", "created_at"]
    search_fields = ["comment", "answered_question__question"]
    ordering = ["-created_at"]
    readonly_fields = ["answered_question", "voter", "helpful", "reason", "comment", "created_at", "updated_at"]
    list_select_related = ["answered_question"]

    def has_add_permission(self, request):
        return False  # feedback comes from the people who asked
