from django.contrib import admin

from operations.models import TaskFailure


@admin.register(TaskFailure)
class TaskFailureAdmin(admin.ModelAdmin):
    list_display = ["created_at", "task_name", "short_error", "retries", "request_id"]
    list_filter = ["task_name"]
    search_fields = ["task_name", "task_id", "request_id", "error"]
    ordering = ["-created_at"]
    readonly_fields = ["task_name", "task_id", "args", "error", "request_id", "retries", "created_at", "updated_at"]

    @admin.display(description="error")
    def short_error(self, obj: TaskFailure) -> str:
        return obj.error[:120]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
