"""A real Redis broker and a real Celery worker process, sharing the test database."""

import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection

from tests.processes import process_stop

REPO = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def database_env() -> dict[str, str]:
    """Return the environment that points a worker process at this test run's database."""
    s = connection.settings_dict
    if s["ENGINE"] == "veterans_ai.embedded_db":
        return {"EMBEDDED_DATABASE_NAME": s["NAME"]}
    password = f":{quote(s['PASSWORD'])}" if s.get("PASSWORD") else ""
    return {"DATABASE_URL": f"postgres://{s['USER']}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"}


@pytest.fixture
def redis_broker():
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError as exc:  # `make test` starts Redis; a bare pytest run may not have it
        pytest.fail(f"Redis is not answering at {REDIS_URL}: {exc}. Run `make test`, which starts it.")
    client.flushdb()
    yield client
    client.flushdb()


def worker_env() -> dict[str, str]:
    """The environment of a process that sends tasks to, or works for, the Redis broker on the test database."""
    return {**os.environ, "REDIS_URL": REDIS_URL, **database_env(), "CELERY_TASK_ALWAYS_EAGER": "false",
            "CONN_MAX_AGE": "0"}


@pytest.fixture
def celery_worker_process(transactional_db, redis_broker):
    connection.ensure_connection()
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "veterans_ai", "worker", "--pool=solo", "--loglevel=WARNING",
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=REPO, env=worker_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        yield worker
    finally:
        process_stop(worker, label="celery worker")


def manage(*args: str) -> subprocess.CompletedProcess:
    """Run a management command in its own process, sending its tasks through Redis."""
    return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env=worker_env(), capture_output=True,
                          text=True, timeout=300)


def wait_for(predicate, *, timeout: float = 90.0, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False
