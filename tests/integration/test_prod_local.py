"""`make prod-local` end to end: the production topology on this machine answers on the page and the API, a
worker embeds a newly ingested chunk, beat fires a scheduled job, and `make prod-stop` ends what it started."""

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import psutil
import pytest

from tests.knowledge.conftest import vbkb_record

from .conftest import REPO, wait_for

pytestmark = pytest.mark.integration

DATABASE = "veterans_ai_prodlocal_test"
REDIS_URL = "redis://127.0.0.1:6379/12"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prod_env(state_dir: Path, port: int) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEBUG", "SECRET_KEY")},
            "PORT": str(port), "EMBEDDED_DATABASE_NAME": DATABASE, "REDIS_URL": REDIS_URL,
            "PROD_LOCAL_DIR": str(state_dir), "CONVERSATIONS_PURGE_EVERY_SECONDS": "2", "LOG_LEVEL": "INFO",
            "API_RATE_ANON": "1000/min", "CHAT_RATE": "1000/min"}


def shell(env: dict[str, str], code: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def page_ask(base: str, question: str) -> str:
    """Ask as a browser without JavaScript does: load the page (CSRF cookie), post the form."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{base}/", timeout=30).read()
    token = next(c.value for c in jar if c.name == "csrftoken")
    body = urllib.parse.urlencode({"question": question, "csrfmiddlewaretoken": token}).encode()
    request = urllib.request.Request(f"{base}/ask/", data=body, headers={"Referer": f"{base}/"})
    with opener.open(request, timeout=60) as response:
        return response.read().decode()


def api_ask(base: str, question: str) -> dict:
    request = urllib.request.Request(f"{base}/api/v1/answer", data=json.dumps({"question": question}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


@pytest.fixture
def prod_local(tmp_path, redis_broker):
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    port = free_port()
    env = prod_env(tmp_path / "prod-local", port)
    started = subprocess.run(["make", "prod-local"], cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    state_file = tmp_path / "prod-local" / "state.json"
    try:
        assert started.returncode == 0, started.stdout[-3000:] + started.stderr[-3000:]
        yield f"http://127.0.0.1:{port}", env, json.loads(state_file.read_text())
    finally:
        if state_file.exists():
            subprocess.run(["make", "prod-stop"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_prod_local_serves_works_schedules_and_stops(prod_local, tmp_path):
    base, env, state = prod_local
    names = sorted(p["name"] for p in state["processes"])
    assert names == ["beat", "web", "worker-1", "worker-2"]
    web = next(p for p in state["processes"] if p["name"] == "web")
    assert len(psutil.Process(web["pid"]).children()) == 2  # gunicorn's two workers
    shell(env, "from django.db import connection; connection.cursor().execute("
               "'TRUNCATE knowledge_answeredquestion, chat_conversation CASCADE')")

    answer = api_ask(base, "How is tinnitus rated?")
    assert not answer["refused"] and "10%" in answer["answer"] and answer["model"]
    page = page_ask(base, "What form do I use for an intent to file?")
    assert "21-0966" in page

    # A run before this one on the same database left the chunk in: it goes, so the ingest adds it again.
    shell(env, "from knowledge.models import Chunk; Chunk.objects.filter(entry_id='smoke-new-chunk').delete()")
    corpus = tmp_path / "new.json"
    corpus.write_text(json.dumps([vbkb_record(
        "smoke-new-chunk", "A smoke-test chunk: the Board of Veterans' Appeals hears appeals filed with VA Form "
        "10182. A Board hearing can be held by video. The Board decides in the order appeals arrive.",
        topic="appeals", title="Board appeal (smoke test)", url="https://www.va.gov/decision-reviews/board-appeal/")]))
    ingested = subprocess.run([sys.executable, "manage.py", "ingest", str(corpus)], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=300)
    assert ingested.returncode == 0 and "1 added" in ingested.stdout, ingested.stderr
    count_sentences = ("from knowledge.models import ChunkSentence; "
                       "print(ChunkSentence.objects.filter(chunk__entry_id='smoke-new-chunk').count())")
    assert wait_for(lambda: shell(env, count_sentences).endswith("3"), timeout=120, interval=1.0)
    worker_logs = "".join(Path(p["log"]).read_text() for p in state["processes"] if p["name"].startswith("worker"))
    assert re.search(r"chunk_sentences_embed_task ended: SUCCESS", worker_logs)

    shell(env, "from datetime import timedelta; from django.utils import timezone; "
               "from chat.models import Conversation; "
               "Conversation.objects.create(key='smoke-old', last_active_at=timezone.now() - timedelta(days=9))")
    gone = "from chat.models import Conversation; print(Conversation.objects.filter(key='smoke-old').exists())"
    assert wait_for(lambda: shell(env, gone).endswith("False"), timeout=60, interval=1.0)

    stopped = subprocess.run(["make", "prod-stop"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert stopped.returncode == 0, stopped.stderr
    assert "web" in stopped.stdout and "beat" in stopped.stdout
    time.sleep(0.5)
    assert not any(psutil.pid_exists(p["pid"]) and psutil.Process(p["pid"]).status() != psutil.STATUS_ZOMBIE
                   for p in state["processes"])
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=2)
    assert "redis" not in stopped.stdout and "PostgreSQL" not in stopped.stdout  # running before: left alone
