from celery import shared_task

from verification.review import low_confidence_report_create


@shared_task(bind=True, autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=3,
             soft_time_limit=30, time_limit=60)
def low_confidence_report_task(self, answered_question_id: int) -> int:
    return low_confidence_report_create(answered_question_id=answered_question_id).id
