import logging
import os
import sys

from veterans_ai.threads import single_threaded_math

if "worker" in sys.argv[1:]:
    single_threaded_math()  # a worker process runs one task at a time: one BLAS thread each

from celery import Celery, Task, signals

from veterans_ai.request_context import request_id_get, request_id_reset, request_id_set

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "veterans_ai.settings")

logger = logging.getLogger("veterans_ai.tasks")
REQUEST_ID_HEADER = "request_id"


class RecordedTask(Task):
    """A task whose final failure (retries spent, or none allowed) is kept for operators (operations.TaskFailure)."""

    def on_failure(self, exc, task_id, args, kwargs, einfo):
        from operations.services import task_failure_record

        try:
            task_failure_record(task_name=self.name, task_id=task_id or "", args=[*args, kwargs] if kwargs else args,
                                error=f"{type(exc).__name__}: {exc}", request_id=request_id_get(),
                                retries=self.request.retries or 0)
        except Exception:  # the database may be what failed; the log line below still says so
            logger.exception("could not record the failure of %s", self.name)
        logger.error("task %s failed for good: %s: %s", self.name, type(exc).__name__, exc,
                     extra={"task_id": task_id})


app = Celery("veterans_ai", task_cls=RecordedTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.setup_logging.connect
def _logging_from_settings(**kwargs):
    """Leave logging to Django's LOGGING: workers and beat write the same JSON lines as the web processes
    (LOG_LEVEL, not the worker's --loglevel, sets the level)."""


@signals.before_task_publish.connect
def _request_id_send(headers=None, **kwargs):
    if headers is not None and request_id_get():
        headers.setdefault(REQUEST_ID_HEADER, request_id_get())


_tokens: dict[str, object] = {}


@signals.task_prerun.connect
def _request_id_receive(task_id=None, task=None, **kwargs):
    request_id = getattr(task.request, REQUEST_ID_HEADER, None) or request_id_get()
    if request_id:
        _tokens[task_id] = request_id_set(request_id)
    logger.info("task %s started", task.name, extra={"task_id": task_id})


@signals.task_postrun.connect
def _request_id_release(task_id=None, task=None, state=None, **kwargs):
    logger.info("task %s ended: %s", task.name, state, extra={"task_id": task_id})
    token = _tokens.pop(task_id, None)
    if token is not None:
        request_id_reset(token)


@signals.task_success.connect
def _task_succeeded(sender=None, **kwargs):
    from veterans_ai.metrics import TASKS

    TASKS.labels(sender.name, "success").inc()


@signals.task_failure.connect
def _task_failed(sender=None, **kwargs):
    from veterans_ai.metrics import TASKS

    TASKS.labels(sender.name, "failure").inc()


@signals.task_retry.connect
def _task_retried(sender=None, **kwargs):
    from veterans_ai.metrics import TASKS

    TASKS.labels(sender.name, "retry").inc()
