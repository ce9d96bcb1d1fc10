"""Writes of the chat app: asking within a conversation, feedback, API clients."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from chat.models import AnswerFeedback, ApiClient, Conversation, ConversationTurn
from knowledge.models import AnsweredQuestion
from verification.preprocess import pii_scrub
from verification.services import AnswerResult, answer_question

KEY_PREFIX_LENGTH = 8
COMMENT_MAX_CHARS = 1000


@dataclass(frozen=True)
class ChatAnswer:
    result: AnswerResult
    turn: ConversationTurn | None  # None outside a conversation


def conversation_touch(*, key: str) -> Conversation:
    """Return the conversation, started over when it was idle longer than CONVERSATION_IDLE_MINUTES."""
    now = timezone.now()
    conversation, created = Conversation.objects.get_or_create(key=key, defaults={"last_active_at": now})
    if not created and now - conversation.last_active_at > timedelta(minutes=settings.CONVERSATION_IDLE_MINUTES):
        conversation.turns.all().delete()
    return conversation


def conversation_history(*, conversation: Conversation) -> tuple[str, ...]:
    """The conversation's last questions as they were answered (a follow-up rewritten), oldest first."""
    turns = conversation.turns.order_by("-created_at", "-id").values_list("rewritten_question", "question")
    return tuple(rewritten or question for rewritten, question in reversed(turns[: settings.CONVERSATION_TURNS]))


def chat_ask(*, question: object, conversation_key: str | None, topic: str | None = None,
             source: str | None = None, request_id: str | None = None) -> ChatAnswer:
    """Answer a question in its conversation (follow-ups rewritten with the last turns) and remember it."""
    if conversation_key is None:
        return ChatAnswer(result=answer_question(question=question, request_id=request_id, topic=topic,
                                                 source=source), turn=None)
    conversation = conversation_touch(key=conversation_key)
    result = answer_question(question=question, request_id=request_id, topic=topic, source=source,
                             history=conversation_history(conversation=conversation))
    with transaction.atomic():
        turn = ConversationTurn.objects.create(
            conversation=conversation, answered_question_id=result.id, question=result.question,
            rewritten_question=result.rewritten_question or "", pii_removed=result.question != str(question).strip(),
        )
        keep = conversation.turns.order_by("-created_at", "-id").values_list("id", flat=True)[: settings.CONVERSATION_TURNS]
        conversation.turns.exclude(id__in=list(keep)).delete()
        Conversation.objects.filter(pk=conversation.pk).update(last_active_at=timezone.now())
    return ChatAnswer(result=result, turn=turn)


def conversation_clear(*, conversation_key: str) -> None:
    Conversation.objects.filter(key=conversation_key).delete()


@dataclass(frozen=True)
class PurgeResult:
    conversations: int
    sessions: int


def conversations_purge(*, now=None) -> PurgeResult:
    """Delete conversations idle longer than CONVERSATION_RETENTION_HOURS (their turns with them) and expired
    browser sessions. Running it again finds nothing more to delete."""
    from django.contrib.sessions.models import Session

    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.CONVERSATION_RETENTION_HOURS)
    with transaction.atomic():
        conversations = Conversation.objects.filter(last_active_at__lt=cutoff).delete()[1].get(
            Conversation._meta.label, 0)
        sessions = Session.objects.filter(expire_date__lt=now).delete()[0]
    return PurgeResult(conversations=conversations, sessions=sessions)


def feedback_record(*, answered_question_id: int, voter: str, helpful: bool, reason: str = "",
                    comment: str = "") -> AnswerFeedback:
    """Record a vote (a second vote from the same conversation replaces the first); "not helpful" puts the
    answer in the reviewers' needs-review queue."""
    comment = pii_scrub(text=comment.strip()[:COMMENT_MAX_CHARS]).text if not helpful else ""
    values = {"helpful": helpful, "reason": "" if helpful else reason, "comment": comment}
    with transaction.atomic():
        try:
            with transaction.atomic():
                feedback, _ = AnswerFeedback.objects.update_or_create(
                    answered_question_id=answered_question_id, voter=voter, defaults=values)
        except IntegrityError:  # the same voter at the same moment: the other request created the row
            feedback = AnswerFeedback.objects.get(answered_question_id=answered_question_id, voter=voter)
            for field, value in values.items():
                setattr(feedback, field, value)
            feedback.save(update_fields=[*values, "updated_at"])
        if not helpful:
            AnsweredQuestion.objects.filter(id=answered_question_id).update(needs_review=True, updated_at=timezone.now())
    return feedback


def api_key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def api_client_create(*, name: str, contact: str = "", rate: str = "") -> tuple[ApiClient, str]:
    """Create a client and return it with its key, which is shown this once and stored only as a hash."""
    client = ApiClient(name=name, contact=contact, rate=rate)
    key = api_client_key_assign(client=client)
    client.full_clean()
    client.save()
    return client, key


def api_client_key_assign(*, client: ApiClient) -> str:
    """Give an unsaved client (the admin's add form) its key; return the key, to be shown once."""
    key = secrets.token_urlsafe(32)
    client.prefix, client.key_hash = key[:KEY_PREFIX_LENGTH], api_key_hash(key)
    return key


def api_client_used(*, client: ApiClient) -> None:
    """Note when a client last called, at most once a minute (a write per request would cost more)."""
    now = timezone.now()
    if client.last_used_at is None or now - client.last_used_at > timedelta(minutes=1):
        ApiClient.objects.filter(pk=client.pk).update(last_used_at=now)
