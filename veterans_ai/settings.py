"""Settings, read from environment variables. Every variable is optional; unset means the embedded default."""

from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.management.utils import get_random_secret_key
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env("SECRET_KEY", default="")
if not SECRET_KEY:
    # A development key kept in var/ so sessions survive restarts; production sets SECRET_KEY.
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key_file.write_text(get_random_secret_key())
    SECRET_KEY = key_file.read_text().strip()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "django_htmx",
    "simple_history",
    "axes",
    "knowledge",
    "verification",
    "chat",
    "operations",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "veterans_ai.request_context.RequestIdMiddleware",
    "chat.middleware.DatabaseUnavailableMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last: it answers a locked-out login attempt
]

# Password guessing on the admin login: after AXES_FAILURE_LIMIT wrong passwords for one username from one
# address, that pair is locked out for AXES_COOLOFF_MINUTES (django-axes; attempts are kept in the database).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "admin/locked_out.html"

ROOT_URLCONF = "veterans_ai.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "veterans_ai.wsgi.application"

# DATABASE_URL unset: the embedded PostgreSQL 18 + pgvector in var/pgdata, started on the first connection.
if env("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "veterans_ai.embedded_db",
            "NAME": env("EMBEDDED_DATABASE_NAME", default="veterans_ai"),
            "USER": "postgres",
            "HOST": "",
            "PORT": "",
        }
    }
# HNSW search breadth (pgvector's default is 40; 100 keeps recall@7 ≥ 0.95 at 100,000 chunks, see `make bench`);
# iterative scans keep filtered searches (by topic or type) from coming back short.
# plan_cache_mode applies to prepared statements only, which are the few hot ones veterans_ai.prepared sends
# (Django's own cursors never prepare): their one generic plan is reused instead of planning each time.
DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
    f"-c hnsw.ef_search={env.int('HNSW_EF_SEARCH', default=100)} -c hnsw.iterative_scan=strict_order"
    " -c plan_cache_mode=force_generic_plan"
)
# 0: a server-binding cursor prepares each statement the first time it runs; Django's client-binding cursors
# never do. None prepares nothing, for a transaction-mode pooler that cannot keep prepared statements
# (PgBouncer before 1.21).
DATABASES["default"]["OPTIONS"]["prepare_threshold"] = (
    0 if env.bool("DATABASE_PREPARED_STATEMENTS", default=True) else None
)
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    # Short socket timeouts: an unreachable Redis costs a request half a second once, then the process-local
    # cache stands in for a few seconds (veterans_ai/cache.py).
    CACHES = {"default": {"BACKEND": "veterans_ai.cache.RedisWithLocalFallbackCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=str(VAR_DIR / "staticfiles"))
# Static files are served by the app itself (whitenoise), compressed and under content-hashed names that
# browsers may cache for a year; `collectstatic` builds them (make run and make test do).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Security: on whenever DEBUG is off; a TLS-terminating proxy sets X-Forwarded-Proto.
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # Scrapers and load-balancer probes on the private network speak plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^metrics$", r"^api/v1/health/?$"]
    # Cookies only over HTTPS; SECURE_COOKIES=0 only for a production-settings server on plain loopback HTTP
    # (the browser tests and `make load`).
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 30)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
    if not SECURE_HSTS_PRELOAD:
        # Preloading is a one-way commitment for the whole domain: its owner opts in with SECURE_HSTS_PRELOAD.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# Content-Security-Policy (Django's own middleware): scripts, styles, images and requests from this origin
# only — no inline script or style anywhere, no CDN, the page cannot be framed.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}
# CORS: closed by default; a partner's origin is opened by listing it.
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_METHODS = ["GET", "POST", "OPTIONS"]
CORS_ALLOW_HEADERS = ["accept", "authorization", "content-type", "x-request-id"]

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["chat.parsers.StrictJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": ["chat.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],  # a key raises the rate, not access
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "chat.api.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["chat.throttling.AnonymousRateThrottle", "chat.throttling.ClientRateThrottle"],
    # Requests per client: anonymous callers by IP address, API clients by key (each key may set its own).
    # Counted in the default cache: Redis in production, so every web process shares the counts.
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("API_RATE_ANON", default="20/min"),
        "client": env("API_RATE_CLIENT", default="600/min"),
    },
    # The address throttles count by: REMOTE_ADDR unless NUM_PROXIES trusted proxies add X-Forwarded-For
    # (a client could otherwise name any address it likes).
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Veterans Benefits AI answer API",
    "DESCRIPTION": (
        "Answers questions about VA benefits from a curated knowledge base, with citations to the official "
        "pages, or refuses rather than invents. Every error is `{\"error\": {\"code\", \"message\"}}`."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "RefusalReasonEnum": "verification.layers.refusal.REFUSAL_REASONS",
    },
}

# Celery: eager without REDIS_URL, a Redis broker with it.
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_SOFT_TIME_LIMIT = 300
CELERY_TASK_TIME_LIMIT = 360
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ACKS_LATE = True
# A broker that cannot be reached fails a publish within about a second (the caller then runs the task
# inline, see veterans_ai.tasks_queue), instead of kombu's default retries holding the request.
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# A task whose worker died (killed, out of memory) runs again: the pool's loss rejects it back to the queue;
# a whole worker that vanished has its unacknowledged tasks redelivered after CELERY_VISIBILITY_TIMEOUT
# seconds (longer than the longest task's hard limit, so a slow task is not run twice).
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 2,
                                   "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=900)}
CELERY_BEAT_SCHEDULE_FILENAME = str(BASE_DIR / "var" / "celerybeat-schedule")
# Scheduled jobs (Celery beat). Each is idempotent, time-limited and retried with backoff; a job whose retries
# run out is kept in operations.TaskFailure. Intervals in seconds, from the environment.
CELERY_BEAT_SCHEDULE = {
    "low-confidence-digest": {
        "task": "verification.tasks.low_confidence_digest_task",
        "schedule": crontab(hour=env.int("DIGEST_HOUR_UTC", default=6), minute=0),
    },
    "stale-answers-recheck": {
        "task": "verification.tasks.stale_answers_recheck_task",
        "schedule": env.float("STALE_RECHECK_EVERY_SECONDS", default=15 * 60),
    },
    "conversations-purge": {
        "task": "chat.tasks.conversations_purge_task",
        "schedule": env.float("CONVERSATIONS_PURGE_EVERY_SECONDS", default=60 * 60),
    },
    "chunks-reembed": {
        "task": "knowledge.tasks.chunks_reembed_task",
        "schedule": env.float("REEMBED_EVERY_SECONDS", default=60 * 60),
    },
}

# Embeddings. `local`: all-MiniLM-L6-v2 (384-d) run offline; `openai`: text-embedding-3-small (1536-d).
OPENAI_API_KEY = env("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env("OPENAI_BASE_URL", default="") or None
OPENAI_TIMEOUT_SECONDS = env.float("OPENAI_TIMEOUT_SECONDS", default=30.0)
OPENAI_MAX_RETRIES = env.int("OPENAI_MAX_RETRIES", default=3)
OPENAI_CONNECT_TIMEOUT_SECONDS = env.float("OPENAI_CONNECT_TIMEOUT_SECONDS", default=2.0)
# One answer's time budget (below gunicorn's 30 s worker timeout): every outside call fits inside it, keeping
# ANSWER_FALLBACK_RESERVE_SECONDS for the offline path (veterans_ai/resilience.py).
ANSWER_TIME_BUDGET_SECONDS = env.float("ANSWER_TIME_BUDGET_SECONDS", default=12.0)
ANSWER_FALLBACK_RESERVE_SECONDS = env.float("ANSWER_FALLBACK_RESERVE_SECONDS", default=2.0)
# The embedding service may take this share of what is left; the LLM takes the rest.
EMBEDDING_BUDGET_SHARE = env.float("EMBEDDING_BUDGET_SHARE", default=0.3)
# /metrics answers loopback; these addresses or networks too (a Prometheus server elsewhere), e.g. 10.0.0.0/8.
METRICS_ALLOWED_FROM = env.list("METRICS_ALLOWED_FROM", default=[])
# Circuit breakers on the embedding service and the LLM.
BREAKER_FAIL_MAX = env.int("BREAKER_FAIL_MAX", default=5)
BREAKER_RESET_SECONDS = env.float("BREAKER_RESET_SECONDS", default=30.0)
BREAKER_SUCCESS_THRESHOLD = env.int("BREAKER_SUCCESS_THRESHOLD", default=2)
# An unset API key turns the OpenAI providers off; the offline ones take their place.
EMBEDDING_PROVIDER = env("EMBEDDING_PROVIDER", default="local") if OPENAI_API_KEY else "local"
EMBEDDING_OPENAI_MODEL = env("EMBEDDING_OPENAI_MODEL", default="text-embedding-3-small")
EMBEDDING_BATCH_SIZE = env.int("EMBEDDING_BATCH_SIZE", default=64)
# With a remote embedding provider, also keep local-model vectors, so that when the service fails answers go
# on from the offline path (marked so) instead of failing.
EMBEDDING_OFFLINE_FALLBACK = env.bool("EMBEDDING_OFFLINE_FALLBACK", default=True)
LLM_PROVIDER = env("LLM_PROVIDER", default="extractive") if OPENAI_API_KEY else "extractive"
LLM_MODEL = env("LLM_MODEL", default="gpt-4.1-mini")
LLM_PREMIUM_MODEL = env("LLM_PREMIUM_MODEL", default="gpt-4.1")

# Retrieval. Hybrid weights were tuned on the golden set (see README, "Retrieval").
RETRIEVAL_TOP_K = env.int("RETRIEVAL_TOP_K", default=7)
RETRIEVAL_CANDIDATES = env.int("RETRIEVAL_CANDIDATES", default=40)
RETRIEVAL_DENSE_WEIGHT = env.float("RETRIEVAL_DENSE_WEIGHT", default=1.0)
RETRIEVAL_LEXICAL_WEIGHT = env.float("RETRIEVAL_LEXICAL_WEIGHT", default=0.15)
# Chunks linked to a diagnostic code, condition or VA form the question names: numbers the embedding cannot
# tell apart, and chunks meaning alone misses ("bipolar disorder" in a question about exam days). An equal
# vote with meaning; the golden set's figures are the same at 0, 0.3, 0.5 and 1.0.
RETRIEVAL_ENTITY_WEIGHT = env.float("RETRIEVAL_ENTITY_WEIGHT", default=1.0)

# Chunking for the local model's 256-token window (about 1,000 characters of English).
CHUNK_MAX_CHARS = env.int("CHUNK_MAX_CHARS", default=1000)

# Domains answers may link to, beyond those of the corpus' own sources.
URL_WHITELIST_EXTRA = env.list("URL_WHITELIST_EXTRA", default=["va.gov", "ecfr.gov"])

# One JSON object per line (timestamp, level, component, request_id, message), web and workers alike; a
# question is logged only after the scrubber (verification.preprocess). LOG_FORMAT=plain for reading by eye.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request": {"()": "veterans_ai.request_context.RequestIdFilter"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(component)s %(request_id)s %(name)s %(message)s",
            "rename_fields": {"asctime": "timestamp", "levelname": "level", "name": "logger"},
            "datefmt": "%Y-%m-%dT%H:%M:%S%z",
        },
        "plain": {"format": "%(asctime)s %(levelname)s %(component)s [%(request_id)s] %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": env("LOG_FORMAT", default="json"),
                             "filters": ["request"]}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
}

# Answer thresholds, per embedding provider: a local model's cosine scale is not OpenAI's.
# `openai` keeps the seed whitepaper's values. `local` (MiniLM) is calibrated on tests/golden/golden.jsonl
# with `manage.py evaluate --sweep` (see README, "Calibration"): answerable questions' top-1 cosine has
# p10 0.43 / p50 0.57 there, far off-topic ones fall below ~0.30–0.35.
ANSWER_THRESHOLDS = {
    "local": {
        "theta_min": env.float("THETA_MIN_LOCAL", default=0.33),
        "weak": 0.45,
        "warning": 0.40,
        "route_mean": 0.45,
        "semantic_cache": 0.92,
        "graph_cache": 0.85,
        "citation_flag": 0.7,
    },
    "openai": {
        "theta_min": env.float("THETA_MIN_OPENAI", default=0.45),
        "weak": 0.55,
        "warning": 0.50,
        "route_mean": 0.55,
        "semantic_cache": 0.92,
        "graph_cache": 0.85,
        "citation_flag": 0.7,
    },
}
# Reviewer weight in the answer cache (the whitepaper's): verified answers rank ×1.5. A flagged answer is not
# weighted down but blocks its question until a reviewer corrects it (knowledge.selectors.answer_cached_similar).
CACHE_WEIGHT_VERIFIED = 1.5
QUESTION_MAX_CHARS = 2000

# Conversations: the last CONVERSATION_TURNS question–answer pairs rewrite follow-ups; a conversation idle
# for CONVERSATION_IDLE_MINUTES starts over (issue: chat pages).
CONVERSATION_TURNS = 5
CONVERSATION_IDLE_MINUTES = 30
# A conversation idle this long is deleted with its turns (conversations-purge job): nothing a veteran typed
# is kept longer than it is useful to them.
CONVERSATION_RETENTION_HOURS = env.int("CONVERSATION_RETENTION_HOURS", default=24)
# A JSON body larger than this is refused with 413 before it is parsed (a 2,000-character question with
# every character escaped is about 12 KB).
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=64 * 1024)
# The chat page's questions count against the anonymous rate too, by address.
CHAT_RATE = env("CHAT_RATE", default="20/min")
