"""Django settings. Every value that differs between deployments comes from the environment.

Production is the default: with ``DEBUG`` off, ``SECRET_KEY`` and ``ALLOWED_HOSTS``
must be set and missing ones stop start-up with a clear error. ``DATABASE_URL``
(PostgreSQL) and ``CELERY_BROKER_URL`` (Redis) are required in every mode: ``make run``
and ``make test`` start embedded servers and set them (``scripts/embedded.py``).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    CHAIN_KEYS_HELP,
    PUBLIC_CHAIN_KEY,
    env_bool,
    env_int,
    env_list,
    env_str,
    parse_chain_keys,
    parse_match_ids,
    require,
)
from config.web import static_headers

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("GOLF_VAR_DIR", str(BASE_DIR / "var")) or BASE_DIR / "var")

DEBUG = env_bool("DEBUG", default=False)

if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY") or "insecure-development-key-do-not-use-in-production"
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
else:
    SECRET_KEY = require("SECRET_KEY", env_str("SECRET_KEY"), "a long random string in production")
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
    if not ALLOWED_HOSTS:
        require("ALLOWED_HOSTS", None, "a comma-separated list of host names in production")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "matches",
    "api",
    "ops",
]

MIDDLEWARE = [
    # outermost: counts and times every request for the operators' dashboard (ops/stats.py)
    "ops.middleware.RequestStatsMiddleware",
    "api.middleware.ProblemMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "api.middleware.CommonMiddleware",  # (Django's, with no 500 for a POST to /admin)
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # config/templates: the admin's base_site.html (its messages as written)
        "DIRS": [BASE_DIR / "config" / "templates"],
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

# --- Database -----------------------------------------------------------------------------
_database_url = require(
    "DATABASE_URL",
    env_str("DATABASE_URL"),
    "a PostgreSQL URL such as postgres://user:password@host:5432/golf "
    "(`make run` starts an embedded server and sets it)",
)
if not _database_url.startswith(("postgres://", "postgresql://")):
    raise ImproperlyConfigured("DATABASE_URL must be a postgres:// URL: PostgreSQL is the store")
# Each process keeps a pool of connections (psycopg's): under ASGI every request's
# synchronous part runs on a thread of its own, so per-thread persistent connections
# would pile up; a pool bounds a process's connections at DB_POOL_MAX.
# DB_POOL_MAX=0 turns the pool off (persistent per-thread connections, for WSGI servers).
_pool_max = env_int("DB_POOL_MAX", 12)
DATABASES = {
    "default": dj_database_url.parse(
        _database_url, conn_max_age=0 if _pool_max else 60, conn_health_checks=not _pool_max
    )
}
# The password may also come on its own (any characters: in the URL, "/", "+" or "#" would
# have to be percent-encoded; docker-compose.yml passes POSTGRES_PASSWORD so).
if _database_password := env_str("DATABASE_PASSWORD"):
    DATABASES["default"]["PASSWORD"] = _database_password
DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = env_int("DB_CONNECT_TIMEOUT", 5)
if _pool_max:
    # a pool that answers at once while the database is down (config/postgresql)
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": min(env_int("DB_POOL_MIN", 1), _pool_max),
        "max_size": _pool_max,
        "timeout": env_int("DB_POOL_TIMEOUT", 10),
        # while the database is down: how long a request waits, and how long the pool backs
        # off between attempts to connect (up to about half of it) before it starts over
        "outage_timeout": 1.0,
        "reconnect_timeout": 20.0,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
# every password check goes through the guard against password guessing (accounts/guard.py)
AUTHENTICATION_BACKENDS = ["accounts.backends.GuardedModelBackend"]
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
STATIC_ROOT = VAR_DIR / "static"
# The web client (web/, docs/client.md): its page at /, its modules and styles as static
# files under /static/web/.
WEB_CLIENT_DIR = BASE_DIR / "web"
STATICFILES_DIRS = [("web", WEB_CLIENT_DIR)]
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_ADD_HEADERS_FUNCTION = static_headers  # the page's own headers on its static copy

# Requests: the API takes small JSON bodies; anything larger is refused early.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 64 * 1024)

# --- Security (effective when DEBUG is off) ------------------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=not DEBUG)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
CSRF_FAILURE_VIEW = "api.problems.csrf_failure"
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", default=False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Strict-Transport-Security on every response over TLS: behind a TLS proxy, a year by
# default (browsers then never try plain HTTP); its subdomains are not bound by it.
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if BEHIND_TLS_PROXY else 0)
# Plain HTTP is redirected to HTTPS by the proxy, where health checks may still use HTTP;
# set this to have the service redirect too.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]  # the probes ask over plain HTTP
# How many proxies of ours stand in front of the service: the client's address is read
# from X-Forwarded-For that many hops from the right. 0: the header is ignored (a client
# could write anything in it) and the address is the connection's.
NUM_PROXIES = env_int("NUM_PROXIES", 0)

# --- REST framework and OpenAPI ------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.TokenAuthentication",
        "api.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.FormatNegotiation",
    "EXCEPTION_HANDLER": "api.problems.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.AnonRateThrottle",
        "api.throttling.UserRateThrottle",
        "api.throttling.ScopedRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("THROTTLE_ANON", "60/min"),
        "user": env_str("THROTTLE_USER", "1200/min"),
        "auth": env_str("THROTTLE_AUTH", "20/min"),
        # requests refused for want of a valid token, per address (past it: held off)
        "refused": env_str("THROTTLE_REFUSED", "60/min"),
        # new accounts from one address a day: every bound per account (matches, COM
        # turns, waits) is one per account, so one address's accounts are bounded too
        "registrations": env_str("THROTTLE_REGISTRATIONS", "30/day"),
        "actions": env_str("THROTTLE_ACTIONS", "240/min"),
        "creates": env_str("THROTTLE_CREATES", "30/min"),  # new matches (their logs stay)
        # the match list: its cost grows with the account's own matches (each kept for good)
        "lists": env_str("THROTTLE_LISTS", "120/min"),
        "hints": env_str("THROTTLE_HINTS", "60/min"),
        "history": env_str("THROTTLE_HISTORY", "600/min"),  # states at a version
        "exports": env_str("THROTTLE_EXPORTS", "30/min"),  # the whole log: audit, export
        # and the events those reads read (a long log costs as many short ones)
        "exported_events": env_str("THROTTLE_EXPORTED_EVENTS", "60000/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "NUM_PROXIES": NUM_PROXIES,
}

# Throttle counters and other shared caches: Redis in production (CACHE_URL), memory
# otherwise. The states replayed far back in long logs (matches.store's checkpoints: whole
# states, hidden cards included, so server-side only) go to a cache of their own, so that
# they never evict a throttle or a login-failure counter: STATE_CACHE_URL (default the
# same Redis as CACHE_URL, under its own prefix), else a bounded memory cache per process.
_cache_url = env_str("CACHE_URL")
_state_cache_url = env_str("STATE_CACHE_URL") or _cache_url
_REDIS = "django.core.cache.backends.redis.RedisCache"
_MEMORY = "django.core.cache.backends.locmem.LocMemCache"
CACHES = {
    "default": {"BACKEND": _REDIS, "LOCATION": _cache_url} if _cache_url else {"BACKEND": _MEMORY},
    "states": {"BACKEND": _REDIS, "LOCATION": _state_cache_url, "KEY_PREFIX": "states"}
    if _state_cache_url
    else {
        "BACKEND": _MEMORY,
        "LOCATION": "states",
        "OPTIONS": {"MAX_ENTRIES": env_int("STATE_CACHE_ENTRIES", 2000)},
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Card games API",
    "DESCRIPTION": (
        "Event-sourced backend for asynchronous, turn-based card games (GET /api/games "
        "lists them). Every response shows the caller only what the rules let them see."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # api/urls.py: a match's id in either case, a UUID all the same
    "PATH_CONVERTER_OVERRIDES": {"match_id": {"type": "string", "format": "uuid"}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.openapi.close_request_bodies",
        "api.openapi.declare_every_problem",
        "api.openapi.declare_headers",
        "api.openapi.name_the_enums",
        "api.openapi.split_seat_requests",
        "api.openapi.add_game_schemas",
        "api.openapi.type_the_requests",
    ],
}

# --- Celery ---------------------------------------------------------------------------------
CELERY_BROKER_URL = require(
    "CELERY_BROKER_URL",
    env_str("CELERY_BROKER_URL"),
    "a Redis URL such as redis://host:6379/0 (`make run` starts an embedded server and sets it)",
)
if not CELERY_BROKER_URL.startswith(("redis://", "rediss://", "redis+socket://")):
    raise ImproperlyConfigured("CELERY_BROKER_URL must be a redis:// URL: Redis is the one broker")
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# Two queues, each with workers of its own: COM turns a person waits for, timers and the
# sweeper go to ``interactive``; COM turns of matches with no human seat (COMs playing
# each other) to ``background``, so that such matches never delay anyone's reply.
INTERACTIVE_QUEUE = "interactive"
BACKGROUND_QUEUE = "background"
CELERY_TASK_DEFAULT_QUEUE = INTERACTIVE_QUEUE
# Publishing is not retried inside a request: the outbox (matches.models.FollowUp) keeps
# the work and the sweeper publishes it again, FOLLOWUP_RETRY_SECONDS after it was due.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5}
FOLLOWUP_RETRY_SECONDS = env_int("FOLLOWUP_RETRY_SECONDS", 10)
# A timer due later than this stays in the outbox and the sweeper publishes it this long
# before it is due: the broker never holds a task counting down for hours (Redis hands a
# task waiting longer than its visibility timeout, an hour, out again and again).
FOLLOWUP_PUBLISH_AHEAD_SECONDS = env_int("FOLLOWUP_PUBLISH_AHEAD_SECONDS", 60)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- Logging ------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# --- The event log's hash chain (docs/events.md) ---------------------------------------------
# Keys of the keyed hash chain, "id:hex,id:hex" (32 bytes or more each), the first one for
# new matches; older ids stay listed so that their matches still verify. Separate from
# SECRET_KEY, and worth keeping away from the database's operators.
EVENT_CHAIN_KEYS = parse_chain_keys(
    env_str("EVENT_CHAIN_KEYS")
    or (
        f"dev:{PUBLIC_CHAIN_KEY.hex()}"
        if DEBUG
        else require("EVENT_CHAIN_KEYS", None, CHAIN_KEYS_HELP)
    )
)
EVENT_CHAIN_KEY_ID = next(iter(EVENT_CHAIN_KEYS))
# The matches created before keyed chains, whose chains have no key (their chain_key_id is
# empty): any other match found without a key has had its key removed, and is a fault.
# Listed here, outside the database, so that whoever can rewrite the database cannot add one.
EVENT_CHAIN_UNKEYED_MATCHES = parse_match_ids(
    "EVENT_CHAIN_UNKEYED_MATCHES", env_list("EVENT_CHAIN_UNKEYED_MATCHES", [])
)

# --- Waiting readers (api/push.py) ----------------------------------------------------------
PUSH_MAX_PER_ACCOUNT = env_int("PUSH_MAX_PER_ACCOUNT", 10)  # waits, streams, exports; all processes
PUSH_MAX_PER_PROCESS = env_int("PUSH_MAX_PER_PROCESS", 5000)
PUSH_STREAM_MAX_SECONDS = env_int("PUSH_STREAM_MAX_SECONDS", 300)
PUSH_HEARTBEAT_SECONDS = env_int("PUSH_HEARTBEAT_SECONDS", 15)
if not 1 <= PUSH_HEARTBEAT_SECONDS <= 15:
    # (the web client takes a stream that sent nothing for 30 s, two keep-alives, as lost)
    raise ImproperlyConfigured(
        f"PUSH_HEARTBEAT_SECONDS must be 1 to 15, got {PUSH_HEARTBEAT_SECONDS}"
    )
PUSH_RETRY_AFTER_SECONDS = env_int("PUSH_RETRY_AFTER_SECONDS", 5)
PUSH_LISTENER_IDLE_SECONDS = env_int("PUSH_LISTENER_IDLE_SECONDS", 60)
# threads for Django's synchronous views, and for the waiting readers' database reads
WEB_THREADS = env_int("WEB_THREADS", 8)
PUSH_THREADS = env_int("PUSH_THREADS", 4)

# --- Game service ---------------------------------------------------------------------------
COM_MOVE_DELAY_MS = env_int("COM_MOVE_DELAY_MS", 0)
# A COM's move is taken no sooner than the slowest of its game and level's recent
# decisions took, up to this (0: as soon as decided): how long it takes then tells nothing
# of its hand (matches.services.DecisionTimes, docs/security.md).
COM_EVEN_TIMING_MS = env_int("COM_EVEN_TIMING_MS", 1000)
# The COM turns that answer one account's moves (or, first in a match and between COMs,
# its creator's) may take in a minute on each queue (0: no bound); past them, the
# account's next COM turns there wait for a later minute: the
# workers' time one account's matches take is bounded, whatever the rate of its actions,
# and no one else's COMs wait for them (docs/security.md).
COM_TURNS_PER_MINUTE = env_int("COM_TURNS_PER_MINUTE", 240)
# ... and the seconds their decisions may take a minute on each queue (0: no bound), of
# which an account that has been quiet may spend COM_BURST_MS at once. A `hard` COM's
# decision takes a worker up to a few hundred milliseconds, an `easy` one microseconds, so
# the count alone let a few accounts' hard COMs fill the workers; past this, the account's
# next COM turns there are spread out by their time (matches/pacing.py).
COM_SECONDS_PER_MINUTE = env_int("COM_SECONDS_PER_MINUTE", 6)
COM_BURST_MS = env_int("COM_BURST_MS", 1500)
# What one account may start (docs/security.md): unfinished matches it created, those of
# them with COM seats, and turns per hole.
MAX_UNFINISHED_MATCHES = env_int("MAX_UNFINISHED_MATCHES", 20)
MAX_UNFINISHED_COM_MATCHES = env_int("MAX_UNFINISHED_COM_MATCHES", 5)
MAX_TURNS_PER_HOLE = env_int("MAX_TURNS_PER_HOLE", 1000)
# The events one match may hold before it takes no more players' actions. Only a loop of
# play and undo comes near it: the longest match the rules allow otherwise (18 holes of
# Golf at MAX_TURNS_PER_HOLE) is about 40,000 events.
MAX_EVENTS_PER_MATCH = env_int("MAX_EVENTS_PER_MATCH", 100_000)
# the sweeper re-enqueues COM turns of active matches left waiting longer than this
COM_STALL_SECONDS = env_int("COM_STALL_SECONDS", 30)
# A lobby nobody has joined (or left as it was) for this long is aborted: lobbies are
# listed to everyone, and would otherwise pile up for good (docs/security.md).
LOBBY_EXPIRY_HOURS = env_int("LOBBY_EXPIRY_HOURS", 7 * 24)
# A match under way that nobody has moved in for this long is aborted: every player's place
# among its unfinished matches (MAX_UNFINISHED_MATCHES) would otherwise be held for good
# by whoever stopped playing a match without a turn timer.
MATCH_IDLE_DAYS = env_int("MATCH_IDLE_DAYS", 30)
SWEEP_INTERVAL_SECONDS = float(env_int("SWEEP_INTERVAL_SECONDS", 5))
IDLE_EXPIRY_INTERVAL_SECONDS = 600.0
# A periodic task waits its turn behind a busy queue (one dropped there, as soon as the
# next was due, left a queue more than an interval behind with no sweep at all); the copies
# queued meanwhile find one run lately and return at once (matches.tasks.first_run_lately).
# They expire after an hour of waiting, so a queue stuck for good holds no more than that.
CELERY_BEAT_SCHEDULE = {
    "sweep-stalled-matches": {
        "task": "matches.tasks.sweep_stalled",
        "schedule": SWEEP_INTERVAL_SECONDS,
        "options": {"expires": 3600.0},
    },
    "expire-idle-matches": {
        "task": "matches.tasks.expire_idle_matches",
        "schedule": IDLE_EXPIRY_INTERVAL_SECONDS,
        # (no one waits on it: it keeps off the queue of the turns people wait for)
        "options": {"expires": 3600.0, "queue": BACKGROUND_QUEUE},
    },
}
