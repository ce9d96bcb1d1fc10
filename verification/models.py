from django.db import models

from knowledge.models import AnsweredQuestion, TimeStampedModel


class LowConfidenceReport(TimeStampedModel):
    """What a reviewer needs to fix a weak answer: query analysis, chunk scores, gaps, verification issues."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        RESOLVED = "resolved", "Resolved"

    answered_question = models.OneToOneField(AnsweredQuestion, on_delete=models.CASCADE, related_name="low_confidence_report")
    best_score = models.FloatField()
    citation_score = models.FloatField(null=True, blank=True)
    report = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Low confidence ({self.best_score:.2f}): {self.answered_question}"
