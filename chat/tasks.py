from celery import shared_task
from django.db import OperationalError

from chat.services import conversations_purge


@shared_task(bind=True, autoretry_for=(OperationalError, ConnectionError), retry_backoff=True, max_retries=3,
             soft_time_limit=120, time_limit=180)
def conversations_purge_task(self) -> dict[str, int]:
    result = conversations_purge()
    return {"conversations": result.conversations, "sessions": result.sessions}
