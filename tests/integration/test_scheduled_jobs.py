"""Scheduled jobs on a real Redis broker: beat fires a job that a worker runs, and a worker process killed in
the middle of a job runs it again to one result. The request id that queued a task is on its log lines."""

import json
import os
import signal
import subprocess
import sys
from datetime import timedelta

import psutil
import pytest
from django.db import connection
from django.utils import timezone

from chat.models import Conversation
from knowledge.models import Chunk, ChunkEmbedding, ChunkSentence, Source, Topic
from tests.processes import process_stop

from .conftest import REPO, manage, wait_for, worker_env

pytestmark = pytest.mark.integration

JOB_CHUNKS = 1500  # enough work that the job is still running when its process is killed


def start(args: list[str], log, **env) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "veterans_ai", *args], cwd=REPO,
                            env={**worker_env(), "LOG_LEVEL": "INFO", **env}, stdout=log, stderr=subprocess.STDOUT,
                            text=True)


@pytest.fixture
def worker_log(tmp_path):
    path = tmp_path / "worker.log"
    with path.open("w") as log:
        yield path, log


def json_lines(path) -> list[dict]:
    lines = []
    for raw in path.read_text().splitlines():
        try:
            lines.append(json.loads(raw))
        except ValueError:
            continue  # celery's own banner lines
    return lines


def test_beat_fires_the_purge_job_and_a_worker_runs_it(tmp_path, transactional_db, redis_broker, worker_log):
    connection.ensure_connection()
    Conversation.objects.create(key="old", last_active_at=timezone.now() - timedelta(days=3))
    Conversation.objects.create(key="recent", last_active_at=timezone.now())
    path, log = worker_log
    worker = start(["worker", "--pool=solo", "--without-gossip", "--without-mingle", "--without-heartbeat"], log)
    beat = start(["beat", "-s", str(tmp_path / "schedule"), "--max-interval", "1"], log,
                 CONVERSATIONS_PURGE_EVERY_SECONDS="1")
    try:
        purged = wait_for(lambda: not Conversation.objects.filter(key="old").exists(), timeout=60)
        assert purged, path.read_text()[-3000:]
    finally:
        process_stop(beat, label="celery beat")
        process_stop(worker, label="celery worker")
    assert list(Conversation.objects.values_list("key", flat=True)) == ["recent"]
    ended = [line for line in json_lines(path) if line["message"].startswith("task chat.tasks.conversations_purge_task ended")]
    assert ended and ended[0]["message"].endswith("SUCCESS")


def chunks_without_vectors(count: int) -> None:
    topic = Topic.objects.create(slug="job-test", name="Job test")
    source = Source.objects.create(url="https://www.va.gov/job-test/", domain="www.va.gov")
    Chunk.objects.bulk_create([
        Chunk(entry_id=f"job-{n}", source=source, topic=topic, title=f"Test chunk {n}", content_hash=str(n),
              content=f"Test chunk number {n} says the rating for condition {n} is written in its own table. "
                      f"A second sentence about form {n} and the deadline that applies to it.")
        for n in range(count)
    ])


def test_a_worker_killed_in_the_middle_of_a_job_runs_it_again_to_one_result(transactional_db, redis_broker,
                                                                               worker_log):
    connection.ensure_connection()
    chunks_without_vectors(JOB_CHUNKS)
    path, log = worker_log
    worker = start(["worker", "--pool=prefork", "--concurrency=1", "--without-gossip", "--without-mingle",
                    "--without-heartbeat"], log)
    try:
        sent = manage("shell", "-c", "from veterans_ai.request_context import request_id_set; "
                                     "request_id_set('req-sent-by-test'); "
                                     "from knowledge.tasks import chunks_reembed_task; chunks_reembed_task.delay()")
        assert sent.returncode == 0, sent.stderr
        started = wait_for(lambda: ChunkEmbedding.objects.exists(), timeout=120)
        assert started, path.read_text()[-3000:]
        children = psutil.Process(worker.pid).children()
        assert len(children) == 1
        os.kill(children[0].pid, signal.SIGKILL)  # as the kernel's out-of-memory killer would
        assert ChunkEmbedding.objects.count() < JOB_CHUNKS, "the job ended before its process was killed"

        done = wait_for(lambda: ChunkEmbedding.objects.count() == JOB_CHUNKS
                        and ChunkSentence.objects.values("chunk").distinct().count() == JOB_CHUNKS, timeout=300)
        assert done, path.read_text()[-3000:]
        assert wait_for(lambda: any(line["message"].endswith("ended: SUCCESS") for line in json_lines(path)),
                        timeout=30)
    finally:
        process_stop(worker, label="celery worker")

    assert ChunkEmbedding.objects.values("chunk").distinct().count() == ChunkEmbedding.objects.count() == JOB_CHUNKS
    runs = [line for line in json_lines(path)
            if line["logger"] == "veterans_ai.tasks" and "chunks_reembed_task" in line["message"]]
    starts = [line for line in runs if line["message"].endswith("started")]
    assert len(starts) == 2 and starts[0]["task_id"] == starts[1]["task_id"]  # the same task, run again
    assert {line["request_id"] for line in runs} == {"req-sent-by-test"}
    assert redis_broker.llen("celery") == 0
