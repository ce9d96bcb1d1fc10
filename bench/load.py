"""Load on the served app: gunicorn with 2 workers and production settings on loopback, a database of its own
with the bundled corpus, the offline generator.

Prints JSON: requests/s and p50/p95/p99 latency for answers made now (cache misses) and answers served from the
cache (hits) at concurrency 1, 4 and 16, the error count of each, what the anonymous throttle does under load
(429s, never 5xx), and the bytes the chat page's first load transfers. Bounded: a fixed number of requests per
phase. Run with `make load`.
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


def run(base: str, key: str | None, bodies: list[dict], concurrency: int, cache_level: str | None = None) -> dict:
    """Send every body once, `concurrency` at a time; return throughput, latency percentiles (of the answers
    served at ``cache_level`` when given) and outcomes."""
    results: list[tuple[int, float, str]] = []
    lock = threading.Lock()
    queue = list(reversed(bodies))

    def worker() -> None:
        client = Client(base, key)
        while True:
            with lock:
                if not queue:
                    return
                body = queue.pop()
            status, elapsed, parsed = client.post("/api/v1/answer/", body)
            with lock:
                results.append((status, elapsed, parsed.get("cache", "")))

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    latencies = sorted(elapsed * 1000 for status, elapsed, cache in results
                       if status == 200 and (cache_level is None or (cache == "miss") == (cache_level == "miss")))
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
        **({"REDIS_URL": LOAD_REDIS_URL, "CELERY_TASK_ALWAYS_EAGER": "true"} if redis_ready(LOAD_REDIS_URL) else {}),
        # numpy's BLAS would start threads of its own in each worker and fight over the two cores.
        "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    }
    print(f"load: preparing database {DATABASE} (migrate, bundled corpus)", file=sys.stderr)
    manage(env, "migrate", "--no-input")
    manage(env, "ingest", "--bundled")
    manage(env, "collectstatic", "--no-input", "--verbosity", "0")
    reset = ("from django.db import connection; connection.cursor().execute('TRUNCATE knowledge_answeredquestion, "
             "chat_conversation, chat_answerfeedback, chat_apiclient CASCADE')")
    manage(env, "shell", "-c", reset)
    key = manage(env, "shell", "-c", "from chat.services import api_client_create; "
                 "print(api_client_create(name='load test', rate='1000000/min')[1])").strip().splitlines()[-1]
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "veterans_ai.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2",
         "--timeout", "60", "--log-level", "warning"], cwd=REPO, env=env)
    results: dict = {"server": "gunicorn, 2 workers, production settings, loopback", "cores": os.cpu_count(),
                     "cache": "redis" if "REDIS_URL" in env else "local memory (per worker)",
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
        print(f"load: {THROTTLE_REQUESTS} anonymous requests at concurrency 16 (rate {ANON_RATE})", file=sys.stderr)
        results["anonymous_throttle"] = run(base, None, [{"question": asked[0]}] * THROTTLE_REQUESTS, 16)
        results["chat_page_first_load"] = page_weight(base)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
