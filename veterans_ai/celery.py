import os
import sys

from veterans_ai.threads import single_threaded_math

if "worker" in sys.argv[1:]:
    single_threaded_math()  # a worker process runs one task at a time: one BLAS thread each

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "veterans_ai.settings")

app = Celery("veterans_ai")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


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
