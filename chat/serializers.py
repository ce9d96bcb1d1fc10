"""Request and response bodies of the public API; the OpenAPI schema is generated from these."""

from __future__ import annotations

from rest_framework import serializers

from chat.models import AnswerFeedback
from verification.layers.refusal import REFUSAL_REASONS
from verification.serializers import CitationSerializer, EntitySerializer, VerificationSerializer
from verification.services import ERR_NOT_TEXT

SESSION_ID_MAX = 64
ERR_SESSION = "\"session_id\" must be a string of at most 64 characters."
ERR_TOPIC = "\"topic\" must be a topic slug such as \"education\"."
ERR_SOURCE = "\"source\" must be the URL of an official page, at most 500 characters."
ERR_HELPFUL = "\"helpful\" must be true or false."
ERR_REASON = "\"reason\" must be one of: wrong, outdated, unclear, missing."
ERR_COMMENT = "\"comment\" must be text of at most 1,000 characters."
ERR_NOT_OBJECT = "The request body must be a JSON object."
ERR_UNKNOWN = "Unknown fields: {fields}. Allowed: {allowed}."


class StrictCharField(serializers.CharField):
    """A string and only a string: DRF's CharField would turn 42 into "42"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictSerializer(serializers.Serializer):
    """A JSON object with only the declared fields; errors carry one code and message per field."""

    # (field, DRF error code) → (API error code, message); a field not listed falls back to its own entry.
    error_codes: dict[str, tuple[str, str]] = {}

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": [ERR_NOT_OBJECT]}, code="invalid_body")
        if unknown := sorted(set(data) - set(self.fields)):
            raise serializers.ValidationError(
                {"non_field_errors": [ERR_UNKNOWN.format(fields=", ".join(unknown), allowed=", ".join(self.fields))]},
                code="unknown_fields",
            )
        return super().to_internal_value(data)


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable, machine-readable: empty_question, throttled, not_found, …")
    message = serializers.CharField(help_text="Plain words for a person.")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


class AnswerRequestSerializer(StrictSerializer):
    question = StrictCharField(trim_whitespace=False, allow_blank=True,
                               help_text="1–2,000 characters after trimming. Personal details are removed "
                                         "before anything is stored.")
    session_id = StrictCharField(required=False, allow_null=True, max_length=SESSION_ID_MAX,
                                 help_text="Any id the client chooses (a random UUID is best): questions with the "
                                           "same session_id form a conversation, so follow-ups (\"and at 70 "
                                           "percent?\") are understood. A conversation idle 30 minutes starts over.")
    topic = StrictCharField(required=False, allow_null=True, max_length=64,
                            help_text="A topic slug (e.g. education): retrieval and the cache are restricted to it.")
    source = StrictCharField(required=False, allow_null=True, max_length=500,
                             help_text="An official page URL in the knowledge base: answers only from it.")

    error_codes = {
        "question": ("invalid_type", ERR_NOT_TEXT),
        "question:required": ("missing_question", "The \"question\" field is required."),
        "session_id": ("invalid_session_id", ERR_SESSION),
        "topic": ("invalid_topic", ERR_TOPIC),
        "source": ("invalid_source", ERR_SOURCE),
    }


class FeedbackRequestSerializer(StrictSerializer):
    helpful = serializers.BooleanField(help_text="Was the answer helpful?")
    reason = serializers.ChoiceField(choices=AnswerFeedback.Reason.choices, required=False, allow_blank=True,
                                     help_text="Why not, when not helpful.")
    comment = StrictCharField(required=False, allow_blank=True, max_length=1000,
                              help_text="Free text, when not helpful; personal details are removed.")
    session_id = StrictCharField(required=False, allow_null=True, max_length=SESSION_ID_MAX,
                                 help_text="The conversation that votes: one vote per answer per conversation "
                                           "(voting again replaces the vote).")

    error_codes = {
        "helpful": ("invalid_helpful", ERR_HELPFUL),
        "reason": ("invalid_reason", ERR_REASON),
        "comment": ("invalid_comment", ERR_COMMENT),
        "session_id": ("invalid_session_id", ERR_SESSION),
    }


class FeedbackSerializer(serializers.ModelSerializer):
    answer_id = serializers.IntegerField(source="answered_question_id")

    class Meta:
        model = AnswerFeedback
        fields = ["id", "answer_id", "helpful", "reason", "comment", "created_at", "updated_at"]


class StoredAnswerSerializer(serializers.Serializer):
    """A stored answer, as anyone holding its id may read it."""

    id = serializers.IntegerField()
    question = serializers.CharField(
        allow_null=True,
        help_text="The question as you asked it — only with the session_id that asked it; otherwise null (a "
                  "stored question is another person's words).")
    answer = serializers.CharField()
    citations = CitationSerializer(many=True)
    confidence = serializers.FloatField(min_value=0.0, max_value=1.0)
    refused = serializers.BooleanField()
    refusal_reason = serializers.ChoiceField(choices=REFUSAL_REASONS, allow_null=True)
    warning = serializers.CharField(allow_null=True)
    suggestions = serializers.ListField(child=serializers.CharField())
    model = serializers.CharField()
    topics = serializers.ListField(child=serializers.CharField())
    entities = EntitySerializer(many=True)
    verification = VerificationSerializer()
    verified = serializers.BooleanField()
    flagged = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class HealthCheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    detail = serializers.CharField()
    ms = serializers.FloatField()
    degraded = serializers.BooleanField(help_text="Serving with a stand-in for this part.")


class HealthChecksSerializer(serializers.Serializer):
    database = HealthCheckSerializer()
    cache = HealthCheckSerializer()
    broker = HealthCheckSerializer()
    embedding_model = HealthCheckSerializer()


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded", "unavailable"], help_text=(
        "ok: every part serves; degraded: answers are served with a stand-in for a part (see degraded); "
        "unavailable: a part answers need is failing (see failing)."))
    failing = serializers.ListField(child=serializers.CharField(), help_text="The parts that fail, if any.")
    degraded = serializers.ListField(child=serializers.CharField(), help_text=(
        "The parts replaced by a stand-in (Redis: a process-local cache; the broker: tasks run inline)."))
    checks = HealthChecksSerializer()
