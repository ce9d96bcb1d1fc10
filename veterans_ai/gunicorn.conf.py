"""gunicorn's settings for every deployment (docker-compose.yml and `make prod-local` start it with this file).

The worker timeout stays above the per-answer time budget (ANSWER_TIME_BUDGET_SECONDS, 12 s) so a hanging
outside service ends in the offline answer, never in a killed worker; log lines are the app's JSON lines."""

import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# A worker is replaced after this many requests (with jitter), bounding any slow growth of its memory.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "5000"))
max_requests_jitter = 500
accesslog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms request_id=%({x-request-id}o)s'

_json = {
    "()": "pythonjsonlogger.json.JsonFormatter",
    "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
    "rename_fields": {"asctime": "timestamp", "levelname": "level", "name": "logger"},
    "static_fields": {"component": "gunicorn"},
    "datefmt": "%Y-%m-%dT%H:%M:%S%z",
}
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": _json},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stdout"}},
    "loggers": {
        "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "gunicorn.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}


def post_worker_init(worker):
    """Warm the worker's per-chunk caches (verification.warmup) before it takes requests; a failure is logged
    and the worker serves anyway, warming as it answers."""
    try:
        from verification.warmup import answer_caches_warm

        answer_caches_warm()
    except Exception:  # a database not yet reachable must not stop the worker from starting
        worker.log.exception("answer caches not warmed")
