from django.db import models

from knowledge.models import TimeStampedModel


class TaskFailure(TimeStampedModel):
    """A background task that failed for good (its retries ran out): what ran, with what, and why."""

    task_name = models.CharField(max_length=200, db_index=True)
    task_id = models.CharField(max_length=64, unique=True)
    args = models.JSONField(default=list, blank=True)
    error = models.TextField()
    request_id = models.CharField(max_length=64, blank=True, help_text="The request that queued it, if any")
    retries = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.task_name} failed: {self.error[:80]}"
