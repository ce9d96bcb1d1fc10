"""The production topology of docker-compose.yml, run on this machine: `make prod-local` and `make prod-stop`.

gunicorn (WEB_CONCURRENCY workers, the app serving its own static files), two Celery workers, Celery beat,
Redis and PostgreSQL with pgvector (the embedded server, or DATABASE_URL), with production settings: DEBUG off,
the secret from the environment (SECRET_KEY, else one kept in var/prod-local/), serving on HOST:PORT
(127.0.0.1:8000 unless they say otherwise). TLS is a proxy's job in a real deployment; here the server speaks
plain HTTP on loopback, so the HTTPS redirect and secure-only cookies are off.

`stop` ends exactly what `start` started, as it recorded in var/prod-local/state.json: its processes, and
Redis or the embedded PostgreSQL only when they were not running before.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STATE_DIR = Path(os.environ.get("PROD_LOCAL_DIR") or REPO / "var" / "prod-local")
STATE_FILE = STATE_DIR / "state.json"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
STARTUP_SECONDS = 180
STOP_SECONDS = 25

# The long-running services, as docker-compose.yml runs them (tests/operations/test_topology.py holds the two
# to the same names, commands and replica counts). Redis and PostgreSQL are started separately, if missing.
SERVICES: dict[str, dict] = {
    "web": {"command": ["gunicorn", "veterans_ai.wsgi", "-c", "veterans_ai/gunicorn.conf.py"], "replicas": 1},
    "worker": {"command": ["celery", "-A", "veterans_ai", "worker", "--concurrency", "1"], "replicas": 2},
    "beat": {"command": ["celery", "-A", "veterans_ai", "beat", "-s", "var/celerybeat-schedule"], "replicas": 1},
}
# Before the services: what the compose web service runs first.
PREPARE = [
    ["manage.py", "migrate", "--no-input"],
    ["manage.py", "ingest", "--bundled", "--if-empty"],
    ["manage.py", "collectstatic", "--no-input", "--verbosity", "0"],
]

MSG_RUNNING = "prod-local is already running (pids {pids}); `make prod-stop` first."
MSG_NOT_RUNNING = "prod-local is not running (no {state})."
MSG_UNHEALTHY = "The app did not answer {url} within {seconds} s; see the logs in {logs}."


def secret_key() -> str:
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = STATE_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def service_env() -> dict[str, str]:
    host, port = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "8000")
    return {
        **os.environ,
        "DEBUG": "0", "SECRET_KEY": secret_key(), "HOST": host, "PORT": port,
        "ALLOWED_HOSTS": os.environ.get("ALLOWED_HOSTS", f"{host},localhost,127.0.0.1"),
        "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0",
        "REDIS_URL": os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL, "CELERY_TASK_ALWAYS_EAGER": "false",
        "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "60"), "PYTHONUNBUFFERED": "1",
    }


def alive(pid: int, started: float) -> bool:
    import psutil

    try:
        return abs(psutil.Process(pid).create_time() - started) < 1.0  # the same process, not a reused pid
    except psutil.Error:
        return False


def redis_pid(url: str) -> int | None:
    import redis

    try:
        return int(redis.Redis.from_url(url, socket_timeout=2).info("server")["process_id"])
    except redis.RedisError:
        return None


def redis_ensure(env: dict[str, str]) -> dict | None:
    """Start the local Redis if nothing answers; return it when this run started it."""
    if os.environ.get("REDIS_URL") or redis_pid(env["REDIS_URL"]) is not None:
        return None
    subprocess.run([str(REPO / "scripts" / "ensure_redis.sh")], check=True)
    pid = redis_pid(env["REDIS_URL"])
    return {"pid": pid, "started": process_started(pid)} if pid else None


def database_ensure(env: dict[str, str]) -> bool:
    """Start the embedded PostgreSQL if it is not running; return whether this run started it."""
    if env.get("DATABASE_URL"):
        return False
    sys.path.insert(0, str(REPO))
    from veterans_ai.embedded_pg import server_running

    if server_running():
        return False
    subprocess.run([sys.executable, "-m", "veterans_ai.embedded_pg", "start"], cwd=REPO, env=env, check=True)
    return True


def process_started(pid: int) -> float:
    import psutil

    return psutil.Process(pid).create_time()


def launch(name: str, command: list[str], env: dict[str, str]) -> dict:
    log = (STATE_DIR / f"{name}.log").open("ab")
    process = subprocess.Popen([sys.executable, "-m", *command], cwd=REPO, env=env, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    return {"name": name, "pid": process.pid, "started": process_started(process.pid),
            "command": " ".join(command), "log": str(STATE_DIR / f"{name}.log")}


def health_wait(env: dict[str, str]) -> str:
    url = f"http://{env['HOST']}:{env['PORT']}/api/v1/health"
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return url
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(MSG_UNHEALTHY.format(url=url, seconds=STARTUP_SECONDS, logs=STATE_DIR))


def state_read() -> dict | None:
    return json.loads(STATE_FILE.read_text()) if STATE_FILE.exists() else None


def start() -> int:
    STATE_DIR.mkdir(parents=True, exist_ok=True)
    previous = state_read()
    if previous and any(alive(p["pid"], p["started"]) for p in previous["processes"]):
        raise SystemExit(MSG_RUNNING.format(pids=", ".join(str(p["pid"]) for p in previous["processes"])))
    env = service_env()
    state = {"redis": redis_ensure(env), "database_started": database_ensure(env), "processes": []}
    STATE_FILE.write_text(json.dumps(state, indent=2))
    for step in PREPARE:
        subprocess.run([sys.executable, *step], cwd=REPO, env=env, check=True)
    for name, service in SERVICES.items():
        for n in range(1, service["replicas"] + 1):
            label = f"{name}-{n}" if service["replicas"] > 1 else name
            command = [*service["command"], "-n", f"{label}@%h"] if name == "worker" else service["command"]
            state["processes"].append(launch(label, command, env))
            STATE_FILE.write_text(json.dumps(state, indent=2))
    url = health_wait(env)
    print(f"prod-local: serving http://{env['HOST']}:{env['PORT']}/ (health {url})")
    for p in state["processes"]:
        print(f"  {p['name']:<9} pid {p['pid']:<7} {p['command']}  (log {p['log']})")
    print("Stop it with `make prod-stop`.")
    return 0


def terminate(entries: list[dict]) -> list[str]:
    """SIGTERM each live process group, then SIGKILL what is left after STOP_SECONDS; return who stopped."""
    live = [e for e in entries if alive(e["pid"], e["started"])]
    for entry in live:
        try:
            os.killpg(entry["pid"], signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + STOP_SECONDS
    while time.monotonic() < deadline and any(alive(e["pid"], e["started"]) for e in live):
        time.sleep(0.2)
    for entry in live:
        if alive(entry["pid"], entry["started"]):
            os.killpg(entry["pid"], signal.SIGKILL)
    return [f"{e['name']} (pid {e['pid']})" for e in live]


def stop() -> int:
    state = state_read()
    if state is None:
        print(MSG_NOT_RUNNING.format(state=STATE_FILE))
        return 0
    stopped = terminate(state["processes"])
    redis = state.get("redis")
    if redis and alive(redis["pid"], redis["started"]):
        os.kill(redis["pid"], signal.SIGTERM)
        stopped.append(f"redis (pid {redis['pid']})")
    if state.get("database_started"):
        subprocess.run([sys.executable, "-m", "veterans_ai.embedded_pg", "stop"], cwd=REPO, check=True)
        stopped.append("embedded PostgreSQL")
    STATE_FILE.unlink()
    print("prod-local stopped: " + (", ".join(stopped) if stopped else "nothing was running"))
    return 0


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else ""
    if command == "start":
        return start()
    if command == "stop":
        return stop()
    print(f"usage: {argv[0]} start|stop", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
