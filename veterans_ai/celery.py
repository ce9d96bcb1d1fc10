import os
import sys

from veterans_ai.threads import single_threaded_math

if "worker" in sys.argv[1:]:
    single_threaded_math()  # a worker process runs one task at a time: one BLAS thread each

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "veterans_ai.settings")

app = Celery("veterans_ai")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
