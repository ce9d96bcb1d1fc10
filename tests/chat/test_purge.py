"""The conversations-purge job deletes conversations idle past their retention and expired sessions."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from chat.models import Conversation, ConversationTurn
from chat.tasks import conversations_purge_task

pytestmark = pytest.mark.django_db


def conversation(key: str, idle: timedelta) -> Conversation:
    row = Conversation.objects.create(key=key, last_active_at=timezone.now() - idle)
    ConversationTurn.objects.create(conversation=row, question="what is the rating for tinnitus")
    return row


def test_old_conversations_and_expired_sessions_go_recent_ones_stay(settings):
    settings.CONVERSATION_RETENTION_HOURS = 24
    conversation("old", timedelta(hours=25))
    kept = conversation("recent", timedelta(hours=2))
    expired, live = SessionStore(), SessionStore()
    expired.set_expiry(-10)
    expired.create()
    live.create()

    assert conversations_purge_task.delay().get() == {"conversations": 1, "sessions": 1}
    assert conversations_purge_task.delay().get() == {"conversations": 0, "sessions": 0}

    assert list(Conversation.objects.values_list("key", flat=True)) == ["recent"]
    assert list(ConversationTurn.objects.values_list("conversation_id", flat=True)) == [kept.id]
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]
