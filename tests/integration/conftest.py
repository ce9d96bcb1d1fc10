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

REPO = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def database_url() -> str:
    s = connection.settings_dict
    host = quote(s["HOST"] or "localhost", safe="")
    password = f":{quote(s['PASSWORD'])}" if s.get("PASSWORD") else ""
    return f"postgres://{s['USER']}{password}@{host}:{s['PORT'] or 5432}/{s['NAME']}"


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


@pytest.fixture
def celery_worker_process(transactional_db, redis_broker):
    from veterans_ai.celery import app

    connection.ensure_connection()
    env = {**os.environ, "REDIS_URL": REDIS_URL, "DATABASE_URL": database_url(),
           "CELERY_TASK_ALWAYS_EAGER": "false", "CONN_MAX_AGE": "0"}
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "veterans_ai", "worker", "--pool=solo", "--loglevel=WARNING",
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    previous = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=REDIS_URL, task_always_eager=False)
    app.pool.force_close_all()
    try:
        yield worker
    finally:
        app.conf.update(previous)
        app.pool.force_close_all()
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
        if output.strip():
            sys.stderr.write(f"celery worker output:\n{output}\n")


def wait_for(predicate, *, timeout: float = 90.0, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False
