from datetime import date, timedelta

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from verification.review import low_confidence_digest_create, low_confidence_report_create, stale_answers_recheck

RETRYING = {"bind": True, "autoretry_for": (OperationalError, ConnectionError), "retry_backoff": True,
            "retry_backoff_max": 300, "max_retries": 3}


@shared_task(**RETRYING, soft_time_limit=30, time_limit=60)
def low_confidence_report_task(self, answered_question_id: int) -> int:
    return low_confidence_report_create(answered_question_id=answered_question_id).id


@shared_task(**RETRYING, soft_time_limit=300, time_limit=360)
def low_confidence_digest_task(self, day: str | None = None) -> int:
    """The digest of ``day`` (ISO date), by default yesterday's (UTC): run after midnight, it sees a whole day."""
    when = date.fromisoformat(day) if day else (timezone.now() - timedelta(days=1)).date()
    return low_confidence_digest_create(day=when).report_count


@shared_task(**RETRYING, soft_time_limit=600, time_limit=660)
def stale_answers_recheck_task(self) -> int:
    return stale_answers_recheck()
