"""Redis stops while the app serves (REDIS_URL set, tasks sent to the broker): answers are still served, the
cache and throttles go on locally, the low-confidence report is made inline rather than lost, and the health
endpoint says what is degraded."""

import shutil
import socket
import subprocess
import time

import pytest
import redis
from django.core.cache import caches

from chat import health
from knowledge.models import AnsweredQuestion
from tests.processes import process_stop
from verification.models import LowConfidenceReport
from veterans_ai.celery import app as celery_app

pytestmark = [pytest.mark.integration, pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]

QUESTION = "What is the VA rating for tinnitus?"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def own_redis():
    """A Redis server of this test's own, so stopping it touches nothing else."""
    if not shutil.which("redis-server"):
        pytest.fail("redis-server is not installed (`make test` installs it)")
    port = _free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    yield process, f"redis://127.0.0.1:{port}/0"
    process_stop(process, label="redis-server")


@pytest.fixture
def served_through_redis(own_redis, settings):
    """The app as deployed with REDIS_URL: the fallback cache on that Redis, tasks sent to it."""
    process, url = own_redis
    settings.CACHES = {"default": {"BACKEND": "veterans_ai.cache.RedisWithLocalFallbackCache", "LOCATION": url,
                                   "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
    settings.ANSWER_THRESHOLDS = {**settings.ANSWER_THRESHOLDS,
                                  "local": {**settings.ANSWER_THRESHOLDS["local"], "warning": 0.99}}
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    settings.CELERY_TASK_ALWAYS_EAGER = False
    celery_app.conf.update(broker_url=url, task_always_eager=False)
    _broker_connections_reset()
    try:
        yield process
    finally:
        celery_app.conf.update(**saved)
        _broker_connections_reset()
        caches["default"].close()
        health._last = None  # the next reader checks afresh


def _broker_connections_reset() -> None:
    """Let the next send connect to the configured broker: the app's pools are kept per broker URL (kombu's
    registry), so dropping the app's references is enough; closing them would break the other URL's pool."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def test_answers_reports_and_health_go_on_while_redis_is_down(served_through_redis, client,
                                                               django_capture_on_commit_callbacks):
    served_through_redis.terminate()
    served_through_redis.wait(timeout=10)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/v1/answer/", {"question": QUESTION}, content_type="application/json",
                               secure=True)
    assert response.status_code == 200, response.content
    body = response.json()
    assert not body["refused"] and body["warning"]
    # The report could not be queued: it was made here, not lost.
    assert LowConfidenceReport.objects.filter(answered_question_id=body["id"]).count() == 1
    again = client.post("/api/v1/answer/", {"question": QUESTION}, content_type="application/json", secure=True)
    assert again.status_code == 200 and again.json()["cache"] == "exact"
    assert AnsweredQuestion.objects.count() == 1

    health._last = None
    report = client.get("/api/v1/health/", secure=True)
    assert report.status_code == 200, report.content
    status = report.json()
    assert status["status"] == "degraded" and set(status["degraded"]) == {"cache", "broker"}
    assert status["failing"] == [] and "Redis unreachable" in status["checks"]["cache"]["detail"]
