from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

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
    topic_gap = models.CharField(
        max_length=64, blank=True, db_index=True,
        help_text="The first topic of the question no retrieved chunk covers: what the gap list groups by",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    resolution_note = models.TextField(blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    resolved_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords(excluded_fields=["report"])

    class Meta:
        ordering = ["-created_at"]
        permissions = [("resolve_lowconfidencereport", "Can resolve low-confidence reports")]
        constraints = [
            models.CheckConstraint(condition=models.Q(status__in=["open", "resolved"]), name="low_confidence_status_valid"),
            models.CheckConstraint(condition=models.Q(status="open") | models.Q(resolved_at__isnull=False),
                                   name="low_confidence_resolved_has_time"),
        ]

    def __str__(self) -> str:
        return f"Low confidence ({self.best_score:.2f}): {self.answered_question}"


class LowConfidenceDigest(TimeStampedModel):
    """One day's low-confidence answers grouped by the topic no retrieved chunk covered: where the corpus is
    thin. Written by the daily digest job; running it again for the same day rewrites the same row."""

    day = models.DateField(unique=True)
    report_count = models.PositiveIntegerField(default=0)
    open_count = models.PositiveIntegerField(default=0, help_text="Reports of that day still open when it was written")
    groups = models.JSONField(default=list, help_text="Per topic gap: count, open, mean best score, example questions")

    class Meta:
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"Low-confidence digest of {self.day}: {self.report_count} answers"
