"""Conversations (the last questions, to rewrite follow-ups), feedback on answers, and API clients.

Nothing here holds personal data: questions and comments are stored after the scrubber has removed SSNs,
file numbers, phone numbers, emails and dates of birth, and a conversation is keyed by a random id.
"""

from django.db import models

from knowledge.models import AnsweredQuestion, TimeStampedModel


class Conversation(TimeStampedModel):
    """One chat or API conversation. It expires after CONVERSATION_IDLE_MINUTES without a question."""

    key = models.CharField(max_length=160, unique=True,
                           help_text="web:<random id>, or api:<client prefix or anon>:<session_id>")
    last_active_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-last_active_at"]

    def __str__(self) -> str:
        return self.key


class ConversationTurn(models.Model):
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="turns")
    answered_question = models.ForeignKey(AnsweredQuestion, null=True, on_delete=models.SET_NULL, related_name="+")
    question = models.TextField(help_text="As asked, personal data removed")
    rewritten_question = models.TextField(blank=True, help_text="The follow-up as answered, with its context")
    pii_removed = models.BooleanField(default=False, help_text="The scrubber removed personal details")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.question[:80]


class AnswerFeedback(TimeStampedModel):
    class Reason(models.TextChoices):
        WRONG = "wrong", "Wrong"
        OUTDATED = "outdated", "Outdated"
        UNCLEAR = "unclear", "Unclear"
        MISSING = "missing", "Missing something"

    answered_question = models.ForeignKey(AnsweredQuestion, on_delete=models.CASCADE, related_name="feedback")
    voter = models.CharField(max_length=160, help_text="The conversation (or API client) that voted")
    helpful = models.BooleanField()
    reason = models.CharField(max_length=16, choices=Reason.choices, blank=True)
    comment = models.TextField(blank=True, help_text="As written, personal data removed")

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "answer feedback"
        constraints = [
            # One vote per answer per conversation: voting again changes the vote.
            models.UniqueConstraint(fields=["answered_question", "voter"], name="feedback_one_vote_per_voter"),
            models.CheckConstraint(condition=models.Q(helpful=False) | models.Q(reason="", comment=""),
                                   name="feedback_reason_only_when_not_helpful"),
            models.CheckConstraint(condition=models.Q(reason__in=["", "wrong", "outdated", "unclear", "missing"]),
                                   name="feedback_reason_valid"),
        ]

    def __str__(self) -> str:
        return f"{'helpful' if self.helpful else 'not helpful'}: {self.answered_question_id}"


class ApiClient(TimeStampedModel):
    """A client application (a VSO's website, a call-centre tool) with its own key and rate.

    Only a SHA-256 hash of the key is stored: the key is shown once, when the client is created."""

    name = models.CharField(max_length=100)
    contact = models.CharField(max_length=200, blank=True, help_text="Who runs the client (an organisation)")
    prefix = models.CharField(max_length=12, unique=True, editable=False,
                              help_text="The key's first characters, to tell keys apart")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    active = models.BooleanField(default=True, help_text="Untick to revoke the key")
    rate = models.CharField(max_length=20, blank=True,
                            help_text="Requests allowed, e.g. 600/min; blank for the default client rate")
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = "API client"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rate="") | models.Q(rate__regex=r"^[0-9]+/(s|sec|m|min|h|hour|d|day)$"),
                name="api_client_rate_format",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
