"""Reads of the chat app."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from chat.models import AnswerFeedback, ApiClient, ConversationTurn
from chat.services import api_key_hash
from knowledge.models import AnsweredQuestion
from verification.review import cached_answer_content


def api_client_by_key(*, key: str) -> ApiClient | None:
    """Return the active client whose key this is, or None (read on every API call: a revoked key fails at once).

    A plain statement: the ORM's query building cost more than PostgreSQL's answer, on every API call (measured:
    1.0 ms against 0.2)."""
    sql, fields = _client_by_key_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [api_key_hash(key)])
        row = cursor.fetchone()
    return ApiClient.from_db(connection.alias, fields, row) if row else None


@functools.cache
def _client_by_key_sql() -> tuple[str, list[str]]:
    fields = [field.attname for field in ApiClient._meta.concrete_fields]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in ApiClient._meta.concrete_fields)
    return (f"SELECT {columns} FROM {quote(ApiClient._meta.db_table)} "
            f"WHERE {quote('key_hash')} = %s AND {quote('active')}"), fields


def conversation_turns_get(*, conversation_key: str) -> list[ConversationTurn]:
    """The turns of a live conversation, oldest first, each with its stored answer (none once it expired)."""
    idle_since = timezone.now() - timedelta(minutes=settings.CONVERSATION_IDLE_MINUTES)
    return list(
        ConversationTurn.objects.filter(conversation__key=conversation_key,
                                        conversation__last_active_at__gte=idle_since)
        .select_related("answered_question")
        .defer("answered_question__question_embedding", "answered_question__answer_embedding")
        .order_by("created_at", "id")
    )


@dataclass(frozen=True)
class StoredAnswer:
    id: int
    question: str | None
    answer: str
    citations: list[dict]
    confidence: float
    refused: bool
    refusal_reason: str | None
    warning: str | None
    suggestions: list[str]
    model: str
    topics: list[str]
    entities: list[dict[str, str]]
    verification: dict
    verified: bool
    flagged: bool
    created_at: datetime


def stored_answer_get(*, answer_id: int, conversation_key: str | None) -> StoredAnswer | None:
    """Return a stored answer; its question only to the conversation that asked it (as that person asked it)."""
    row = AnsweredQuestion.objects.defer("question_embedding", "answer_embedding", "trace").filter(id=answer_id).first()
    if row is None:
        return None
    asked = None
    if conversation_key:
        asked = (ConversationTurn.objects.filter(conversation__key=conversation_key, answered_question_id=answer_id)
                 .order_by("-created_at").values_list("question", flat=True).first())
    served = cached_answer_content(row=row, under_review=row.flagged)  # a flagged answer's text is never shown
    return StoredAnswer(
        id=row.id, question=asked, answer=served.answer, citations=served.citations,
        confidence=round(row.confidence, 3), refused=served.refused, refusal_reason=served.refusal_reason,
        warning=served.warning, suggestions=served.suggestions, model=row.model,
        topics=list(row.topics.order_by("-questiontopic__score").values_list("slug", flat=True)),
        entities=[{"type": t, "value": v} for t, v in row.entities.values_list("type", "value")],
        verification=row.verification, verified=row.verified, flagged=row.flagged, created_at=row.created_at,
    )


def scope_describe(*, topic: str | None = None, source: str | None = None) -> str | None:
    """A label for the topic or source a page is restricted to; None when it is not in the knowledge base."""
    from knowledge.models import Source, Topic

    if topic:
        return Topic.objects.filter(slug=topic).values_list("name", flat=True).first()
    if source:
        row = Source.objects.filter(url=source).values_list("title", "url").first()
        return (row[0] or row[1]) if row else None
    return None


def feedback_get(*, voter: str, answer_ids: list[int]) -> dict[int, AnswerFeedback]:
    """The conversation's votes on these answers."""
    return {f.answered_question_id: f for f in AnswerFeedback.objects.filter(voter=voter, answered_question_id__in=answer_ids)}
