"""Load on the served app: gunicorn with 2 workers and production settings on loopback, a database of its own
with the bundled corpus, the offline generator.

Prints JSON: requests/s and p50/p95/p99 latency for answers made now (cache misses) and answers served from the
cache (hits) at concurrency 1, 4 and 16; a mix of hits, misses and chat page loads at concurrency 1, 8 and 32;
the same mix while one of the two Celery workers is killed and restarted (and whether every low-confidence
report queued meanwhile was written); the error count of each phase; what the anonymous throttle does under
load (429s, never 5xx); the bytes the chat page's first load transfers; and the memory (RSS) of every server
process before and after. Bounded: a fixed number of requests per phase. Run with `make load`.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
DATABASE = "veterans_ai_load"
QUESTION_FILES = [REPO / "tests" / "golden" / "golden.jsonl", REPO / "tests" / "golden" / "holdout.jsonl"]
CONCURRENCY = (1, 4, 16)
MISSES_PER_LEVEL = {1: 40, 4: 80, 16: 120}
HITS_PER_LEVEL = {1: 200, 4: 400, 16: 800}
THROTTLE_REQUESTS = 200
MIX_CONCURRENCY = (1, 8, 32)
MIX_REQUESTS = {1: 150, 8: 400, 32: 600}
MIX_SHARES = (("hit", 0.6), ("miss", 0.25), ("page", 0.15))
WORKER_KILL_REQUESTS = 400
# A process may grow while its caches fill (the embedding model's vectors, compiled queries); growth past this
# over the whole run would be a leak worth chasing.
RSS_GROWTH_BOUND_MB = 80
ANON_RATE = "20/min"
# The cache (and so the throttles' counts) in Redis, as in production, so both workers share one count; tasks
# still run in the web process, there being no worker here. Without Redis each worker counts on its own.
LOAD_REDIS_URL = os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/9")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def questions() -> list[str]:
    found: list[str] = []
    for path in QUESTION_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                if item.get("kind", "answerable") == "answerable" and item["question"] not in found:
                    found.append(item["question"])
    return found


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=1800, check=True)
    return done.stdout


class Client:
    """One keep-alive connection per thread."""

    def __init__(self, base: str, key: str | None) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)

    def get(self, path: str) -> tuple[int, float]:
        started = time.perf_counter()
        try:
            self.conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
            response = self.conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            return 0, time.perf_counter() - started
        return response.status, time.perf_counter() - started

    def post(self, path: str, body: dict) -> tuple[int, float, dict]:
        started = time.perf_counter()
        try:
            self.conn.request("POST", path, body=json.dumps(body), headers=self.headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            return 0, time.perf_counter() - started, {}
        elapsed = time.perf_counter() - started
        try:
            parsed = json.loads(data)
        except ValueError:
            parsed = {}
        return response.status, elapsed, parsed


def run(base: str, key: str | None, bodies: list[dict], concurrency: int, cache_level: str | None = None,
        during=None) -> dict:
    """Send every body once, `concurrency` at a time; return throughput, latency percentiles (of the answers
    served at ``cache_level`` when given) and outcomes. A body ``{"page": True}`` loads the chat page instead;
    ``during(done_fraction)`` is called by the first thread after each request (to kill a worker part way)."""
    results: list[tuple[int, float, str]] = []
    lock = threading.Lock()
    queue = list(reversed(bodies))
    total = len(bodies)

    def worker(first: bool) -> None:
        client = Client(base, key)
        while True:
            with lock:
                if not queue:
                    return
                body = queue.pop()
            if body.get("page"):
                (status, elapsed), parsed = client.get("/"), {"cache": "page"}
            else:
                status, elapsed, parsed = client.post("/api/v1/answer/", body)
            with lock:
                results.append((status, elapsed, parsed.get("cache", "")))
                done = len(results) / total
            if first and during is not None:
                during(done)

    threads = [threading.Thread(target=worker, args=(n == 0,)) for n in range(concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    latencies = sorted(elapsed * 1000 for status, elapsed, cache in results
                       if status == 200 and (cache_level is None or cache_level == cache
                                             or (cache_level == "hit" and cache not in ("miss", "page"))))
    statuses: dict[str, int] = {}
    caches: dict[str, int] = {}
    for status, _, cache in results:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
        if cache:
            caches[cache] = caches.get(cache, 0) + 1

    def pct(p: float) -> float | None:
        if not latencies:
            return None
        return round(latencies[min(len(latencies) - 1, round(p / 100 * (len(latencies) - 1)))], 1)

    return {
        "concurrency": concurrency, "requests": len(results), "seconds": round(wall, 2),
        "requests_per_s": round(len(results) / wall, 1) if wall else None,
        "p50_ms": pct(50), "p95_ms": pct(95), "p99_ms": pct(99),
        "mean_ms": round(statistics.fmean(latencies), 1) if latencies else None,
        "statuses": statuses, "cache": caches,
        "errors": sum(n for s, n in statuses.items() if s == "0" or s.startswith("5")),
    }


def page_weight(base: str) -> dict:
    """Bytes the chat page's first load transfers (gzip accepted, as browsers do) and where they come from."""
    parts = urlsplit(base)

    def get(path: str) -> tuple[int, bytes, dict]:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = conn.getresponse()
        body = response.read()
        headers = {k.lower(): v for k, v in response.getheaders()}
        conn.close()
        return response.status, body, headers

    status, body, headers = get("/")
    html = gzip.decompress(body).decode() if headers.get("content-encoding") == "gzip" else body.decode()
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    sizes = {"/": len(body)}
    external = re.findall(r'(?:src|href)="(https?://[^"]+)"[^>]*>', html)
    for asset in assets:
        _, asset_body, _ = get(asset)
        sizes[asset] = len(asset_body)
    return {"status": status, "bytes_total": sum(sizes.values()), "by_url": sizes,
            "external_resources": [u for u in external if not u.startswith(base)
                                   and re.search(r"<(?:script|link|img)[^>]+" + re.escape(u), html)]}


def redis_ready(url: str) -> bool:
    """Whether Redis answers at ``url``; its database is emptied for the run."""
    try:
        import redis

        client = redis.Redis.from_url(url, socket_timeout=2)
        client.flushdb()
        return True
    except Exception:  # any failure means: run without it, and say so
        return False


def main() -> int:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG")},
        "EMBEDDED_DATABASE_NAME": DATABASE, "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0",
        "API_RATE_ANON": ANON_RATE, "CONN_MAX_AGE": "60",
        **({"REDIS_URL": LOAD_REDIS_URL, "CELERY_TASK_ALWAYS_EAGER": "false"} if redis_ready(LOAD_REDIS_URL) else {}),
        # numpy's BLAS would start threads of its own in each worker and fight over the two cores.
        "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    }
    print(f"load: preparing database {DATABASE} (migrate, bundled corpus)", file=sys.stderr)
    manage(env, "migrate", "--no-input")
    # Every vector made before the first request (eagerly, here): the measure is of a settled knowledge base,
    # not of workers still embedding sentences.
    manage({**env, "CELERY_TASK_ALWAYS_EAGER": "true"}, "ingest", "--bundled")
    manage(env, "collectstatic", "--no-input", "--verbosity", "0")
    reset = ("from django.db import connection; connection.cursor().execute('TRUNCATE knowledge_answeredquestion, "
             "chat_conversation, chat_answerfeedback, chat_apiclient CASCADE')")
    manage(env, "shell", "-c", reset)
    key = manage(env, "shell", "-c", "from chat.services import api_client_create; "
                 "print(api_client_create(name='load test', rate='1000000/min')[1])").strip().splitlines()[-1]
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "veterans_ai.wsgi", "-c", "veterans_ai/gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}", "--workers", "2", "--log-level", "warning", "--access-logfile", "/dev/null"],
        cwd=REPO, env=env, stdout=sys.stderr)  # its log lines apart from the figures printed on stdout
    workers = [celery_worker(env, n) for n in (1, 2)] if "REDIS_URL" in env else []
    results: dict = {"server": "gunicorn, 2 workers, production settings, loopback", "cores": os.cpu_count(),
                     "cache": "redis" if "REDIS_URL" in env else "local memory (per worker)",
                     "celery": "2 workers on Redis" if workers else "eager, in the web processes",
                     "load_average_before": os.getloadavg()}
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.3)
        pool = questions()
        # Warm both workers (model load, first queries), then start from an empty answer store.
        run(base, key, [{"question": q} for q in pool[:8]], 2)
        manage(env, "shell", "-c", reset.replace(", chat_apiclient", ""))
        results["misses"], results["hits"] = [], []
        used = 0
        for level in CONCURRENCY:
            batch = pool[used:used + MISSES_PER_LEVEL[level]]
            used += len(batch)
            print(f"load: {len(batch)} new questions at concurrency {level}", file=sys.stderr)
            results["misses"].append(run(base, key, [{"question": q} for q in batch], level, cache_level="miss"))
        asked = pool[:used]
        for level in CONCURRENCY:
            bodies = [{"question": asked[i % len(asked)]} for i in range(HITS_PER_LEVEL[level])]
            print(f"load: {len(bodies)} repeated questions at concurrency {level}", file=sys.stderr)
            results["hits"].append(run(base, key, bodies, level, cache_level="hit"))
        results["rss_mb_before_mix"] = rss_mb(server, workers)
        results["mix"] = []
        fresh = pool[used:]
        for level in MIX_CONCURRENCY:
            bodies, fresh = mix_bodies(asked, fresh, MIX_REQUESTS[level], seed=level)
            print(f"load: a mix of {len(bodies)} hits, misses and page loads at concurrency {level}", file=sys.stderr)
            results["mix"].append({**run(base, key, bodies, level), "by_kind": kinds(bodies)})
        if workers:
            bodies, fresh = mix_bodies(asked, fresh, WORKER_KILL_REQUESTS, seed=99)
            print("load: the mix at concurrency 8 while a Celery worker is killed and restarted", file=sys.stderr)
            results["mix_worker_killed"] = worker_kill_phase(base, key, env, bodies, workers)
        results["rss_mb_after"] = rss_mb(server, workers)
        results["rss_growth_bound_mb"] = RSS_GROWTH_BOUND_MB
        results["rss_within_bound"] = all(
            results["rss_mb_after"].get(name, 0) - mb <= RSS_GROWTH_BOUND_MB
            for name, mb in results["rss_mb_before_mix"].items() if name in results["rss_mb_after"])
        print(f"load: {THROTTLE_REQUESTS} anonymous requests at concurrency 16 (rate {ANON_RATE})", file=sys.stderr)
        results["anonymous_throttle"] = run(base, None, [{"question": asked[0]}] * THROTTLE_REQUESTS, 16)
        results["chat_page_first_load"] = page_weight(base)
    finally:
        for process in [server, *workers]:
            process.terminate()
        for process in [server, *workers]:
            process.wait(timeout=30)
    print(json.dumps(results, indent=2))
    return 0


def celery_worker(env: dict[str, str], n: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "veterans_ai", "worker", "--concurrency", "1",
                             "-n", f"load-{n}@%h", "--without-gossip", "--without-mingle"],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def mix_bodies(asked: list[str], fresh: list[str], count: int, *, seed: int) -> tuple[list[dict], list[str]]:
    """``count`` requests in MIX_SHARES: repeated questions (hits), new ones (misses; reused once the pool runs
    out, then served from the cache) and chat page loads, shuffled."""
    import random

    rng = random.Random(seed)
    bodies: list[dict] = []
    for kind, share in MIX_SHARES:
        n = round(count * share)
        if kind == "hit":
            bodies += [{"question": rng.choice(asked)} for _ in range(n)]
        elif kind == "miss":
            taken, fresh = fresh[:n], fresh[n:]
            bodies += [{"question": q} for q in taken] + [{"question": rng.choice(asked)} for _ in range(n - len(taken))]
        else:
            bodies += [{"page": True} for _ in range(n)]
    rng.shuffle(bodies)
    return bodies, fresh


def kinds(bodies: list[dict]) -> dict[str, int]:
    pages = sum(1 for b in bodies if b.get("page"))
    return {"page_loads": pages, "questions": len(bodies) - pages}


def rss_mb(server: subprocess.Popen, workers: list[subprocess.Popen]) -> dict[str, float]:
    """Resident memory of the gunicorn master and workers and of each Celery worker with its pool process."""
    import psutil

    found: dict[str, float] = {}

    def add(name: str, pid: int) -> None:
        try:
            found[name] = round(psutil.Process(pid).memory_info().rss / 2**20, 1)
        except psutil.Error:
            pass

    add("gunicorn master", server.pid)
    for n, child in enumerate(sorted(psutil.Process(server.pid).children(), key=lambda c: c.pid), start=1):
        add(f"gunicorn worker {n}", child.pid)
    for n, worker in enumerate(workers, start=1):
        add(f"celery {n} main", worker.pid)
        for m, child in enumerate(psutil.Process(worker.pid).children(), start=1):
            add(f"celery {n} pool {m}", child.pid)
    return found


def worker_kill_phase(base: str, key: str | None, env: dict[str, str], bodies: list[dict],
                      workers: list[subprocess.Popen]) -> dict:
    """The mix at concurrency 8; a third of the way in, the first Celery worker is killed (SIGKILL, its pool
    too) and a new one started. Then: were all low-confidence reports queued during the phase written?"""
    import psutil

    killed = {"done": False}

    def kill_at_a_third(done: float) -> None:
        if done >= 1 / 3 and not killed["done"]:
            killed["done"] = True
            victim = psutil.Process(workers[0].pid)
            for process in [*victim.children(recursive=True), victim]:
                process.kill()
            workers[0].wait(timeout=30)
            workers[0] = celery_worker(env, 3)

    figures = run(base, key, bodies, 8, during=kill_at_a_third)
    expected = int(manage(env, "shell", "-c", COUNT_WARNED).strip().splitlines()[-1])
    deadline = time.monotonic() + 120
    written = 0
    while time.monotonic() < deadline:
        written = int(manage(env, "shell", "-c", COUNT_REPORTS).strip().splitlines()[-1])
        if written >= expected:
            break
        time.sleep(2)
    return {**figures, "worker_killed": killed["done"], "answers_with_a_warning": expected,
            "reports_written": written, "reports_lost": max(0, expected - written)}


# Every stored answer that carries the low-confidence warning queued a report (verification.pipeline): the
# phase loses none when each of them has its report once the queue is drained.
COUNT_WARNED = ("from knowledge.models import AnsweredQuestion as A; "
                "print(A.objects.filter(refused=False).exclude(warning='').count())")
COUNT_REPORTS = ("from knowledge.models import AnsweredQuestion as A; "
                 "print(A.objects.filter(refused=False, low_confidence_report__isnull=False).exclude(warning='').count())")


if __name__ == "__main__":
    sys.exit(main())
