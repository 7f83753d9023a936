"""Settings of the Pyramid service, read from environment variables.

With no environment at all the service runs on SQLite in a file with Celery tasks run in-process;
``DATABASE_URL`` switches to PostgreSQL and ``REDIS_URL`` to a Redis broker, cache and result store.
"""

import datetime as dt
import hashlib
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .env import env_bool, env_date, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# development by default, so the README's run command needs nothing; production sets DJANGO_DEBUG=false
DEBUG = env_bool(
    "DJANGO_DEBUG",
    default=True,
    help=(
        "development values by default; set it, with DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS, in production "
        "(all three)"
    ),
    example="false",
    set_in_example=True,
)
# the development default starts "django-insecure-", so `manage.py check --deploy` refuses it (W009):
# in production the key, like every secret, comes from the environment
SECRET_KEY = env_str(
    "DJANGO_SECRET_KEY",
    "django-insecure-development-key-set-DJANGO_SECRET_KEY-in-production",
    help=(
        "the secret key; set in production (a development value otherwise, which `manage.py check --deploy` refuses)"
    ),
    shown="a development value",
    secret=True,
)
ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS",
    ["localhost", "127.0.0.1", "[::1]", "testserver"],
    help="the host names this service answers to; set in production",
    example="localhost,127.0.0.1",
    set_in_example=True,
)

# Production behind HTTPS (DJANGO_HTTPS=true; `manage.py check --deploy` is clean then): redirect plain
# HTTP, cookies only over TLS, HSTS. Off by default so the service also runs on plain http://localhost.
HTTPS = env_bool(
    "DJANGO_HTTPS",
    default=False,
    help='true behind HTTPS: redirect plain HTTP, cookies only over TLS, HSTS (see "Security")',
)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
HSTS_SECONDS = env_int(
    "DJANGO_HSTS_SECONDS", 31_536_000, help='HSTS max-age while `DJANGO_HTTPS` is on (one year; see "Security")'
)
SECURE_HSTS_SECONDS = HSTS_SECONDS if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = HTTPS
# Behind a TLS-terminating proxy: it says the request came over HTTPS, and the client's address is the one
# the nearest of DJANGO_PROXY_COUNT trusted proxies put in X-Forwarded-For. Otherwise both headers are
# ignored and the address is the socket's, so nobody dodges a throttle by sending a header.
BEHIND_PROXY = env_bool(
    "DJANGO_BEHIND_PROXY", help='true behind a proxy that sets X-Forwarded-Proto / -For (see "Security")'
)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
PROXY_COUNT = env_int(
    "DJANGO_PROXY_COUNT",
    1 if BEHIND_PROXY else 0,
    low=0,
    high=10,
    help="trusted proxies in front (`X-Forwarded-For` is read only through them)",
    shown="`1` behind a proxy, else `0`",
    example="1",
)
SECURE_REDIRECT_EXEMPT = [r"^health/", r"^metrics$"]  # the load balancer's and Prometheus' plain-HTTP probes

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "pyramid_site.accounts",
    "pyramid_site.operations",
    "pyramid_site.idempotency",
    "games",
    "leaderboards",
    "pyramid_site.web",
]

MIDDLEWARE = [
    "pyramid_site.requests.RequestIdMiddleware",  # first: every answer and log line carries the request's id
    "pyramid_site.metrics.MetricsMiddleware",
    "pyramid_site.requests.UnreadableRequestMiddleware",  # a NUL in the path or query: 400 before any view
    "pyramid_site.api.version.ApiVersionMiddleware",  # X-API-Version on every answer
    "pyramid_site.api.rate_limits.RateLimitHeadersMiddleware",  # RateLimit-Policy, RateLimit where throttled
    # the health probes, answered before anything reads the request's host (any DJANGO_ALLOWED_HOSTS, no redirect)
    "pyramid_site.health.HealthProbeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # the web page's scripts and styles, also under gunicorn
    "django.contrib.sessions.middleware.SessionMiddleware",
    # after the session, before anything that answers in words: the request's language (docs/api.md, "Languages"),
    # and Content-Language on every answer
    "django.middleware.locale.LocaleMiddleware",
    "pyramid_site.requests.NotFoundInEveryModeMiddleware",  # a JSON 404 with DEBUG on too
    "django.middleware.common.CommonMiddleware",
    "pyramid_site.api.caching.PolledReadsMiddleware",  # ETag and 304 on the reads clients poll, Cache-Control
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # a client that names no language is answered in its account's (after authentication: a token is read here)
    "pyramid_site.accounts.language.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "games.middleware.DailyDealsReadyMiddleware",  # no beat (no Redis): the daily deals prepare themselves
    "games.middleware.ExpiredGamesClosedMiddleware",  # and the ranked games past their window close themselves
    "leaderboards.tournaments.middleware.AnnouncementsSweptMiddleware",  # and the tournaments are announced
]

ROOT_URLCONF = "pyramid_site.urls"
WSGI_APPLICATION = "pyramid_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
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

# every variable is read whether or not it is used, so each is declared once (pyramid_site/env.py REGISTRY)
DATABASE_URL = env_str(
    "DATABASE_URL",
    help="e.g. `postgres://user:pass@host:5432/pyramid` (psycopg 3)",
    shown="none: SQLite in `db.sqlite3`",
    example="postgres://pyramid:PASSWORD@db:5432/pyramid",
)
DATABASE_CONN_MAX_AGE = env_int("DATABASE_CONN_MAX_AGE", 60, help="seconds a database connection is kept")
SQLITE_PATH = env_str(
    "SQLITE_PATH",
    str(BASE_DIR / "db.sqlite3"),
    help="the SQLite file without `DATABASE_URL`",
    shown="`db.sqlite3` in the checkout",
    example="db.sqlite3",
)
DATABASE_PREPARED_STATEMENTS = env_bool(
    "DATABASE_PREPARED_STATEMENTS",
    default=True,
    help=(
        "PostgreSQL keeps the two statements of a move prepared per connection; `false` for a pooler that "
        "cannot keep prepared statements"
    ),
)
DATABASE_TEST_NAME = env_str(
    "DATABASE_TEST_NAME",
    help="a test database of one's own, where several checkouts share one PostgreSQL server",
    shown="Django's",
)
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=DATABASE_CONN_MAX_AGE)
    if DATABASE_URL
    else {"ENGINE": "django.db.backends.sqlite3", "NAME": SQLITE_PATH}
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # only pyramid_site.db.prepared_cursor binds on the server, so only its statements are prepared
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 0 if DATABASE_PREPARED_STATEMENTS else None
if DATABASE_TEST_NAME:
    DATABASES["default"]["TEST"] = {"NAME": DATABASE_TEST_NAME}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str(
    "REDIS_URL",
    help="Celery broker and result store, and the cache (throttles)",
    shown="none: tasks run in-process, local memory cache",
    example="redis://redis:6379/0",
)
# the player-figures index carries columns for PostgreSQL's index-only reads; SQLite (the README's run command)
# keeps its key alone, which is all it needs, and says so at every start
SILENCED_SYSTEM_CHECKS = ["models.W040"]

PYRAMID_CACHE_REDIS_CONNECTIONS = env_int(
    "PYRAMID_CACHE_REDIS_CONNECTIONS",
    20,
    low=1,
    help="Redis connections a process keeps for the cache at most: a request waits for one (up to 2 s) rather "
    "than opening another, so a crowd of live streams opening at once does not open a connection each",
)
CACHES = {
    # a Redis outage is a cache miss, not an error: see pyramid_site/cache.py
    "default": {
        "BACKEND": "pyramid_site.cache.ForgivingRedisCache",
        "LOCATION": REDIS_URL,
        "OPTIONS": {
            "socket_connect_timeout": 0.5,
            "socket_timeout": 0.5,
            "pool_class": "redis.BlockingConnectionPool",
            "max_connections": PYRAMID_CACHE_REDIS_CONNECTIONS,
            "timeout": 2,  # waiting for a free connection; then a cache miss, as with Redis out of reach
        },
    }
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# the players' languages: English, Swedish and German (docs/api.md, "Languages"); English when nothing else matches
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("sv", "Svenska"), ("de", "Deutsch")]
# the apps' catalogues are found in each app's locale/; this one holds the shared plumbing's (pyramid_site/api)
LOCALE_PATHS = [BASE_DIR / "pyramid_site" / "locale"]
# the language chosen on the page, remembered by this browser for the page itself (the API reads Accept-Language)
LANGUAGE_COOKIE_NAME = "pyramid_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# where collectstatic writes (the image collects at build time)
STATIC_ROOT = env_str(
    "STATIC_ROOT",
    str(BASE_DIR / "staticfiles"),
    help=(
        "where `collectstatic` writes the web page's files, each named by its content (operations.md, \"The web "
        "page's files\")"
    ),
    shown="`staticfiles/` in the checkout",
    example="/app/staticfiles",
)
# straight from the apps' static folders, so no collectstatic step is needed to serve the page
WHITENOISE_USE_FINDERS = True
# collectstatic names every file by its content (app.3f9c0e1a2b4d.js, the modules' imports rewritten to match),
# cached for good by browsers; without a collectstatic run (DJANGO_DEBUG on, or nothing collected) the page's
# files keep their plain names (docs/operations.md, "The web page's files")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "pyramid_site.web.storage.HashedStaticStorage"},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # token first, so a request without credentials is answered 401 with WWW-Authenticate
        "pyramid_site.api.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "pyramid_site.api.exceptions.exception_handler",
    # JSON answers only: no browsable API (its HTML pages and their log-in form), and no `?format=` that could
    # ask for another shape; a client that accepts nothing but HTML gets 406 `not_acceptable`, in JSON
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "URL_FORMAT_OVERRIDE": None,
    # JSON bodies only, bounded before they are parsed (pyramid_site/api/parsers.py)
    "DEFAULT_PARSER_CLASSES": ["pyramid_site.api.parsers.BoundedJSONParser"],
    "NUM_PROXIES": PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        "signup": env_str("PYRAMID_THROTTLE_SIGNUP", "20/hour", help="accounts signed up, per client address"),
        "guest": env_str("PYRAMID_THROTTLE_GUEST", "20/hour", help="guest accounts made, per client address"),
        "login": env_str(
            "PYRAMID_THROTTLE_LOGIN",
            "30/min",
            help=(
                "log-ins (the API's, the session's and the admin's), per client address, also per account's "
                "canonical name"
            ),
        ),
        "hint": env_str("PYRAMID_THROTTLE_HINT", "300/hour", help="hints, per account"),
        # "can this still be won?" after every practice move, for players who turn it on; per account
        "verdict": env_str(
            "PYRAMID_THROTTLE_VERDICT", "1500/hour", help='per account: "can this practice position still be won?"'
        ),
        "solve": env_str("PYRAMID_THROTTLE_SOLVE", "60/hour", help="practice deals solved on request, per account"),
        # games started and moves played, per account and per client address: rates no person reaches
        # (pyramid_site/api/play_throttles.py)
        "game_start": env_str(
            "PYRAMID_THROTTLE_GAME_START", "60/min", help='games started, per account (see "Security")'
        ),
        "game_start_address": env_str(
            "PYRAMID_THROTTLE_GAME_START_ADDRESS", "300/min", help='games started, per client address (see "Security")'
        ),
        "move": env_str("PYRAMID_THROTTLE_MOVE", "240/min", help="moves played, per account"),
        "move_address": env_str("PYRAMID_THROTTLE_MOVE_ADDRESS", "1200/min", help="moves played, per client address"),
        # reads by visitors with no account (boards, player pages, public clubs and tournaments), per client
        # address (pyramid_site/api/visitors.py); signed-in reads are not counted
        "visitor_read": env_str(
            "PYRAMID_THROTTLE_VISITOR_READ",
            "600/min",
            help=(
                "reads by visitors with no account (boards, player pages, public clubs and tournaments), per "
                "client address"
            ),
        ),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Pyramid API",
    "DESCRIPTION": "Pyramid Solitaire: daily deals, practice deals and server-validated games.\n\n"
    "Bodies are JSON (`Content-Type: application/json`; anything else is 415). Authenticate with "
    "`Authorization: Bearer KEY` (or `Token KEY`), KEY being the token that sign-up and log-in "
    "answer (or `POST /api/accounts/guest/` for a guest account, no sign-up needed). Every error "
    "is an `Error`: a stable `code` to branch on and a `message` for people. "
    "Messages and explanations are in English, Swedish or German: the request's `Accept-Language` "
    "picks (`sv`, `de`, `en`; anything else is English), or without it the account's `language` "
    "(`PATCH /api/accounts/me/`); every answer says which in `Content-Language`. Codes, notation "
    "and every other field never change with the language. "
    "Lists come in pages (`limit`, `offset`; follow `next`). Every answer carries `X-API-Version` "
    "and `X-Request-ID`; changes that may break a client are listed in docs/api-changelog.md.",
    # the API's version, also the X-API-Version header (pyramid_site/api/version.py); the major part moves
    # with every change that may break a client (docs/api-changelog.md)
    "VERSION": "3.3.0",
    # the description of the API (this schema) is open to anybody who builds a client from it; the service
    # itself is not licensed by it
    "LICENSE": {"name": "CC BY 4.0 (this API description)", "identifier": "CC-BY-4.0"},
    "SERVERS": [{"url": "/", "description": "this server"}],
    "TAGS": [
        {"name": "index", "description": "Where a client starts."},
        {"name": "health", "description": "Whether the service and its parts answer (load balancers, probes)."},
        {
            "name": "accounts",
            "description": "Play at once as a guest, sign up (a guest's sign-up keeps its games), "
            "log in for a token (or a session, for the web page), revoke it, who "
            "am I.",
        },
        {
            "name": "daily",
            "description": "The daily deals: one per featured preset per UTC day, committed to "
            "before the day and revealed after it.",
        },
        {
            "name": "games",
            "description": "Games played move by move, every move checked by the engine on the "
            "server: ranked games of daily and tournament deals, practice games of "
            "any deal.",
        },
        {"name": "deals", "description": "Practice deals by number and rule set, and their solver verdicts."},
        {"name": "boards", "description": "Daily, weekly and all-time boards."},
        {"name": "players", "description": "Players' pages: results, statistics, streaks, clubs."},
        {"name": "clubs", "description": "Clubs, their members and roles, invite codes, and their tournaments."},
        {
            "name": "tournaments",
            "description": "Clubs' tournaments: matches and arenas over a window, and their standings.",
        },
        {"name": "fair-play", "description": "Staff only: voids of games and players, and the daily re-check's flags."},
        {"name": "operations", "description": "Staff only: the record of failed Celery tasks."},
    ],
    # game ids fit a 64-bit column (games/api/urls.py): a longer number is a 404, never an overflow
    "PATH_CONVERTER_OVERRIDES": {"game_id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
    "ENUM_NAME_OVERRIDES": {
        "ErrorCodeEnum": "pyramid_site.errors.CODE_NAMES",
        "PresetEnum": "pyramid_site.api.output.PRESET_CHOICES",
        "DailyPresetEnum": "pyramid_site.api.output.DAILY_PRESET_CHOICES",
        "GameStatusEnum": "games.api.serializers.GAME_STATUSES",
        "GameModeEnum": "games.api.serializers.GAME_MODES",
        "DealStatusEnum": "games.api.serializers.DEAL_STATUSES",
        "VerdictEnum": "games.api.serializers.VERDICTS",
        "ClubRoleEnum": "leaderboards.clubs.api.output.CLUB_ROLES",
        "TournamentFormatEnum": "leaderboards.tournaments.api.output.TOURNAMENT_FORMATS",
        "TournamentScoringEnum": "leaderboards.tournaments.api.output.TOURNAMENT_SCORINGS",
        "TournamentSourceEnum": "leaderboards.tournaments.api.output.TOURNAMENT_SOURCES",
        "TournamentStatusEnum": "leaderboards.tournaments.api.output.TOURNAMENT_STATUSES",
        "BoardSourceEnum": "leaderboards.boards.api.output.BOARD_SOURCES",
        "TaskFailureKindEnum": "pyramid_site.operations.api.TASK_FAILURE_KINDS",
        "DayOutcomeEnum": "leaderboards.boards.api.output.DAY_OUTCOMES",
        "ClubChangeKindEnum": "leaderboards.clubs.api.output.CLUB_CHANGE_KINDS",
    },
    # OpenAPI 3.1: a null beside a component is `oneOf: [{$ref}, {type: null}]`, which every validator reads
    # alike (3.0's `nullable` beside `allOf` is read both ways)
    "OAS_VERSION": "3.1.0",
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,  # the values are the names: no list of them in each description
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "pyramid_site.api.schema.add_links",
        # the Idempotency-Key header on the operations that take it
        "pyramid_site.api.idempotency.declare_idempotency_keys",
        "pyramid_site.api.schema.shape_operations",
        # RateLimit-Policy and RateLimit on the throttled operations' answers
        "pyramid_site.api.rate_limits.declare_rate_limit_headers",
        # Deprecation and Link on the offset pages of the cursor-paged lists
        "pyramid_site.api.pagination.declare_offset_deprecation",
    ],
}

# --- Celery ---------------------------------------------------------------------------------------
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
# without a broker the tasks run in-process, so the service needs nothing else to start
CELERY_TASK_ALWAYS_EAGER = env_bool(
    "CELERY_TASK_ALWAYS_EAGER",
    default=not REDIS_URL,
    help="run tasks in-process",
    shown="on without `REDIS_URL`",
    example="false",
)
CELERY_TASK_EAGER_PROPAGATES = True
# In-process tasks queued by a request run on one thread of their own once it has been answered (a tournament's 30
# deals took seconds inside the request that created it); a test that wants them inside the call keeps this off.
PYRAMID_TASKS_IN_THREAD = env_bool(
    "PYRAMID_TASKS_IN_THREAD",
    default=not REDIS_URL,
    help="in-process tasks run on a thread of their own, after the request that queued them is answered",
    shown="on without `REDIS_URL`",
    example="false",
)
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "pyramid", help="the queue's name")
# Solver work by its own queues, so that a tournament's preparation or a practice solve never waits in front of
# the day's daily deal: run a worker on each (`-Q`). By default all share the one queue, so one worker does all.
PYRAMID_SOLVER_QUEUE = env_str(
    "CELERY_SOLVER_QUEUE",
    CELERY_TASK_DEFAULT_QUEUE,
    help="solver work on a queue of its own: run a worker on it (`-Q solver`)",
    shown="`CELERY_QUEUE`",
    example="solver",
)
PYRAMID_DAILY_QUEUE = env_str(
    "CELERY_DAILY_QUEUE",
    CELERY_TASK_DEFAULT_QUEUE,
    help="the daily deals' preparation on a queue of its own: run a worker on it",
    shown="`CELERY_QUEUE`",
    example="daily",
)
PYRAMID_CELERY_QUEUES = sorted({CELERY_TASK_DEFAULT_QUEUE, PYRAMID_SOLVER_QUEUE, PYRAMID_DAILY_QUEUE})
CELERY_TASK_ACKS_LATE = True  # a worker killed half way leaves the task to another one
# a pool process killed half way (out of memory, say) puts its task back too: every task is safe to run twice
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# nobody reads a task's return value (the tasks write what they do to the database): none is stored in Redis
CELERY_TASK_IGNORE_RESULT = True
# a task past its soft limit gets SoftTimeLimitExceeded (and its transaction rolls back); past the hard
# limit its process is killed
CELERY_TASK_SOFT_TIME_LIMIT = env_int(
    "CELERY_TASK_SOFT_TIME_LIMIT_SECONDS",
    600,
    low=1,
    help="a task past the soft limit is stopped (its transaction rolls back)",
)
CELERY_TASK_TIME_LIMIT = env_int(
    "CELERY_TASK_TIME_LIMIT_SECONDS",
    CELERY_TASK_SOFT_TIME_LIMIT + 60,
    low=1,
    help="a task past the hard limit has its process killed",
    shown="soft + 60",
    example="660",
)
if CELERY_TASK_TIME_LIMIT <= CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured("CELERY_TASK_TIME_LIMIT_SECONDS must be above CELERY_TASK_SOFT_TIME_LIMIT_SECONDS")
# A task taken by a worker that died (killed past its stop grace period, its machine lost) is handed out again
# after the visibility timeout: derived from the hard limit, so that a task still running is never started a
# second time, and a lost one waits no longer than it must (docs/operations.md, "Stopping without losing work");
# the fault drills set it below the limit on purpose
# (workers look for such tasks every interval x throttle seconds)
CELERY_VISIBILITY_TIMEOUT_SECONDS = env_float(
    "CELERY_VISIBILITY_TIMEOUT_SECONDS",
    CELERY_TASK_TIME_LIMIT + 60.0,
    help="when a task taken by a worker that died is handed out again: after this many seconds",
    shown="the hard limit + 60",
    example="720",
)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT_SECONDS,
    "unacked_restore_interval": env_int(
        "CELERY_UNACKED_RESTORE_INTERVAL_SECONDS",
        10,
        help=(
            "when a task taken by a worker that died is handed out again: workers look for such tasks every "
            "interval x throttle seconds"
        ),
    ),
    "unacked_restore_throttle": env_int(
        "CELERY_UNACKED_RESTORE_THROTTLE",
        10,
        help="when a task taken by a worker that died is handed out again: the throttle of that interval",
    ),
}
# beat touches this file at every tick (its container's health check reads its age), and sends its interval
# jobs once at start rather than one interval later (pyramid_site/celery.py)
CELERY_BEAT_SCHEDULER = "pyramid_site.celery:HeartbeatScheduler"
PYRAMID_BEAT_HEARTBEAT_FILE = env_str(
    "PYRAMID_BEAT_HEARTBEAT_FILE",
    "/tmp/pyramid-beat-heartbeat",
    help="the file Celery beat touches at every tick (at least every 30 s): its liveness, for a health check",
)
CELERY_BEAT_MAX_LOOP_INTERVAL = 30
CELERY_TIMEZONE = "UTC"
# How often ranked games whose window is over are closed: the beat job's period, and without a beat the web
# process's (PYRAMID_AUTO_CLOSE_GAMES)
PYRAMID_CLOSE_GAMES_EVERY_SECONDS = env_float(
    "PYRAMID_CLOSE_GAMES_EVERY_SECONDS",
    60.0,
    low=1.0,
    help="the beat job's period closing expired games (also the web process's, without a beat)",
)
# Tournaments announced on their channel and to their club's members (docs/api.md, "Live updates"): ``soon`` once
# the start is this close, ``started`` and ``ended`` at their moments; a Celery task is queued for each moment (an
# ``eta`` within two sweeps), and the sweep, a beat job, sends whatever a task missed
PYRAMID_TOURNAMENT_SOON_MINUTES = env_int(
    "PYRAMID_TOURNAMENT_SOON_MINUTES",
    15,
    low=1,
    high=24 * 60,
    help="minutes before a tournament's start when its `soon` goes out (to its channel and to its club's members)",
)
PYRAMID_TOURNAMENT_SWEEP_SECONDS = env_float(
    "PYRAMID_TOURNAMENT_SWEEP_SECONDS",
    60.0,
    low=1.0,
    help="the period of the sweep that sends the tournaments' announcements a queued task missed (a beat job; "
    "the web process's own timer without a beat)",
)
# With no beat (no Redis: the README's run command) the web process runs the sweep itself on a timer of its own
# (started by its first request), and holds each announcement's task until its moment
PYRAMID_TOURNAMENT_SWEEP_IN_PROCESS = env_bool(
    "PYRAMID_TOURNAMENT_SWEEP_IN_PROCESS",
    default=not REDIS_URL,
    help="without a beat, the web process sweeps the tournaments' announcements itself",
    shown="on without `REDIS_URL`",
    example="false",
)
CELERY_BEAT_SCHEDULE = {
    "prepare-daily-deals": {
        "task": "games.tasks.prepare_daily_deals",
        "schedule": env_float(
            "PYRAMID_DAILY_PREPARE_EVERY_SECONDS",
            600.0,
            low=1.0,
            help="the beat job's period keeping daily deals ready",
        ),
    },
    "rebuild-board-cache": {
        "task": "leaderboards.tasks.rebuild_board_cache",
        "schedule": env_float(
            "PYRAMID_BOARD_CACHE_REBUILD_EVERY_SECONDS",
            3600.0,
            low=1.0,
            help="the beat job's period rebuilding the daily boards' Redis copies",
        ),
    },
    # ranked games still playing when their day or tournament ended are closed as they stand
    "close-expired-games": {
        "task": "games.tasks.close_expired_games",
        "schedule": PYRAMID_CLOSE_GAMES_EVERY_SECONDS,
    },
    # races whose end came with an entrant who never played, ended for everyone (their games' ends end the others)
    "end-races": {
        "task": "leaderboards.tournaments.tasks.end_races",
        "schedule": PYRAMID_CLOSE_GAMES_EVERY_SECONDS,
    },
    # yesterday's ranked games replayed and checked; a second run the same day changes nothing
    "recheck-ranked-day": {
        "task": "leaderboards.fair_play.tasks.recheck_ranked_day",
        "schedule": env_float(
            "PYRAMID_RECHECK_EVERY_SECONDS", 86400.0, low=1.0, help="the beat job's period of the daily re-check"
        ),
    },
    # practice deals proved winnable, by difficulty, kept ready for players who ask for one
    "fill-practice-pools": {
        "task": "games.tasks.fill_practice_pools",
        "schedule": env_float(
            "PYRAMID_PRACTICE_FILL_EVERY_SECONDS",
            900.0,
            low=1.0,
            help="the beat job's period filling the practice pools",
        ),
        "options": {"queue": PYRAMID_SOLVER_QUEUE},
    },
    # idempotency keys past PYRAMID_IDEMPOTENCY_KEEP_HOURS deleted
    "purge-idempotency-keys": {
        "task": "pyramid_site.idempotency.tasks.purge_idempotency_keys",
        "schedule": env_float(
            "PYRAMID_IDEMPOTENCY_PURGE_EVERY_SECONDS",
            3600.0,
            low=1.0,
            help="the beat job's period deleting idempotency keys past their time",
        ),
    },
    # the tournaments' announcements (soon, started, ended) a queued task missed, sent; safe to run twice
    "announce-tournaments": {
        "task": "leaderboards.tournaments.tasks.announce_tournaments",
        "schedule": PYRAMID_TOURNAMENT_SWEEP_SECONDS,
    },
    # failed tasks' records older than PYRAMID_TASK_FAILURE_KEEP_DAYS deleted
    "prune-task-failures": {
        "task": "pyramid_site.operations.tasks.prune_task_failures",
        "schedule": env_float(
            "PYRAMID_TASK_FAILURE_PRUNE_EVERY_SECONDS",
            86400.0,
            low=1.0,
            help="the beat job's period pruning old task failures",
        ),
    },
}
# Safe retries (pyramid_site/api/idempotency.py; docs/api.md, "Retries")
PYRAMID_IDEMPOTENCY_KEEP_HOURS = env_int(
    "PYRAMID_IDEMPOTENCY_KEEP_HOURS",
    24,
    low=1,
    high=24 * 30,
    help="hours an `Idempotency-Key` and its first answer are kept: a retry within them is answered the same",
)
PYRAMID_IDEMPOTENCY_WAIT_SECONDS = env_float(
    "PYRAMID_IDEMPOTENCY_WAIT_SECONDS",
    10.0,
    low=0.0,
    help=(
        "how long a retry waits for the request with its `Idempotency-Key` still being answered before 409 "
        "`idempotency_key_in_flight`"
    ),
)
# Days a failed task's record is kept (admin, /api/operations/task-failures/, /metrics); older ones are pruned
PYRAMID_TASK_FAILURE_KEEP_DAYS = env_int(
    "PYRAMID_TASK_FAILURE_KEEP_DAYS",
    30,
    low=1,
    high=3650,
    help='days a failed Celery task\'s record is kept (docs/operations.md, "Task failures")',
)

# --- The game service -------------------------------------------------------------------------------
# The secret that daily deal numbers are derived from: nobody without it can compute a future deal.
# In development it falls back to the secret key; a production start without it is refused.
PYRAMID_DAILY_SECRET = env_str(
    "PYRAMID_DAILY_SECRET",
    help="the secret daily deal numbers are derived from",
    shown="the secret key while `DJANGO_DEBUG` is on; required otherwise (the start is refused without it)",
    secret=True,
) or (SECRET_KEY if DEBUG else "")
if not PYRAMID_DAILY_SECRET:
    raise ImproperlyConfigured(
        "set PYRAMID_DAILY_SECRET: with DJANGO_DEBUG=false the daily deals need a secret of "
        "their own (the secret key is not used for them)"
    )
# The secret of tournaments' deals (their own, so one leaked secret does not give the other away)
PYRAMID_TOURNAMENT_SECRET = (
    env_str(
        "PYRAMID_TOURNAMENT_SECRET",
        help="the secret tournaments' deal numbers are derived from",
        shown="`PYRAMID_DAILY_SECRET`",
    )
    or PYRAMID_DAILY_SECRET
)
PYRAMID_DAILY_PRESETS = env_list(
    "PYRAMID_DAILY_PRESETS", ["classic"], help="featured presets, comma separated: one daily deal each"
)
PYRAMID_DAILY_DAYS_AHEAD = env_int(
    "PYRAMID_DAILY_DAYS_AHEAD", 7, low=1, high=366, help="days kept ready, today included"
)
PYRAMID_DAILY_MAX_ATTEMPTS = env_int(
    "PYRAMID_DAILY_MAX_ATTEMPTS",
    40,
    low=1,
    high=10_000,
    help="candidates of one proven deal sequence (a day's deal, a tournament's deal) tried before giving up (logged)",
)
# Day number 1 of the share line ("Pyramid #N")
PYRAMID_FIRST_DAILY_DATE = env_date("PYRAMID_FIRST_DAILY_DATE", dt.date(2025, 1, 1), help="day #1 of the share line")
# With no beat to prepare them (no Redis), the first request of a day settles today's and tomorrow's daily
# deals in the web process, each candidate solved within this budget
PYRAMID_DAILY_AUTO_PREPARE = env_bool(
    "PYRAMID_DAILY_AUTO_PREPARE",
    default=not REDIS_URL,
    help=(
        "without a beat, the first request of each UTC day settles today's and tomorrow's daily deals in the "
        "web process"
    ),
    shown="on without `REDIS_URL`",
    example="false",
)
PYRAMID_DAILY_AUTO_BUDGET_SECONDS = env_float(
    "PYRAMID_DAILY_AUTO_BUDGET_SECONDS",
    5.0,
    low=0.1,
    help="solver time per candidate when the web process settles the daily deals itself",
)
# With no beat to close them (no Redis), the web process closes the ranked games whose window is over itself, on
# a request, at most once every PYRAMID_CLOSE_GAMES_EVERY_SECONDS
PYRAMID_AUTO_CLOSE_GAMES = env_bool(
    "PYRAMID_AUTO_CLOSE_GAMES",
    default=not REDIS_URL,
    help=(
        "without a beat, a request closes the ranked games whose window is over (at most once every "
        "`PYRAMID_CLOSE_GAMES_EVERY_SECONDS` per process)"
    ),
    shown="on without `REDIS_URL`",
    example="false",
)
PYRAMID_SOLVE_BUDGET_SECONDS = env_float(
    "PYRAMID_SOLVE_BUDGET_SECONDS", 60.0, low=0.1, help="solver time per deal in the Celery task"
)
PYRAMID_HINT_BUDGET_SECONDS = env_float("PYRAMID_HINT_BUDGET_SECONDS", 3.0, low=0.1, help="solver time per hint")
if PYRAMID_SOLVE_BUDGET_SECONDS >= CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured(
        "PYRAMID_SOLVE_BUDGET_SECONDS must stay under CELERY_TASK_SOFT_TIME_LIMIT_SECONDS, "
        "or every long solve is stopped before its verdict"
    )
# Solver seconds (CPU) that one account, and one client address (all its accounts and guests together), may
# spend over a sliding window on hints, verdicts, best lines, practice draws, solves and analyses; 0 turns one
# off (pyramid_site/solver_budget.py)
PYRAMID_SOLVER_SECONDS_PER_ACCOUNT = env_float(
    "PYRAMID_SOLVER_SECONDS_PER_ACCOUNT",
    60.0,
    help=(
        "the solver budget: CPU seconds of solver work an account may spend over the sliding window; `0` turns "
        'it off (see "Security")'
    ),
)
PYRAMID_SOLVER_SECONDS_PER_ADDRESS = env_float(
    "PYRAMID_SOLVER_SECONDS_PER_ADDRESS",
    180.0,
    help=(
        "the solver budget: CPU seconds of solver work a client address (all its accounts and guests together) "
        'may spend over the sliding window; `0` turns it off (see "Security")'
    ),
)
PYRAMID_SOLVER_WINDOW_SECONDS = env_float(
    "PYRAMID_SOLVER_WINDOW_SECONDS", 600.0, low=1.0, help="the solver budget's sliding window, in seconds"
)
# Searches one account, and one client address, may have running at once inside requests (hints, verdicts, best
# lines, practice draws): a budget being spent never holds every web worker; 0 turns one off
PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT = env_int(
    "PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT",
    1,
    low=0,
    high=100,
    help=(
        "searches an account may have running at once inside requests (hints, verdicts, best lines, practice "
        "draws); `0` turns it off"
    ),
)
PYRAMID_SOLVER_AT_ONCE_PER_ADDRESS = env_int(
    "PYRAMID_SOLVER_AT_ONCE_PER_ADDRESS",
    2,
    low=0,
    high=1000,
    help="searches a client address may have running at once inside requests; `0` turns it off",
)
# Practice deals proved winnable, by difficulty: the beat job keeps this many of each featured preset and
# difficulty, solving random deals for a while each run; a player asking when none is ready waits this long
# while the web process looks for one
PYRAMID_PRACTICE_POOL_SIZE = env_int(
    "PYRAMID_PRACTICE_POOL_SIZE",
    50,
    low=1,
    help="proved practice deals kept ready per featured preset and difficulty (a beat job on the solver's queue)",
)
PYRAMID_PRACTICE_FILL_SECONDS = env_float(
    "PYRAMID_PRACTICE_FILL_SECONDS", 30.0, low=0.1, help="the solver time the beat job spends per pool"
)
PYRAMID_PRACTICE_DRAW_SECONDS = env_float(
    "PYRAMID_PRACTICE_DRAW_SECONDS",
    3.0,
    low=0.05,
    help="how long a request looks for a practice deal when none is ready",
)
# Post-game analysis: solver time for each position of a finished game, and for the whole game (the
# positions left when it runs out are answered "unknown"); both stay under the task's soft time limit
PYRAMID_ANALYSIS_POSITION_SECONDS = env_float(
    "PYRAMID_ANALYSIS_POSITION_SECONDS",
    5.0,
    low=0.01,
    help="the solver's budget for a game's analysis, per position (\"Post-game analysis\")",
)
PYRAMID_ANALYSIS_GAME_SECONDS = env_float(
    "PYRAMID_ANALYSIS_GAME_SECONDS",
    120.0,
    low=0.1,
    help="the solver's budget for a game's analysis, per game (\"Post-game analysis\")",
)
if PYRAMID_ANALYSIS_GAME_SECONDS >= CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured("PYRAMID_ANALYSIS_GAME_SECONDS must stay under CELERY_TASK_SOFT_TIME_LIMIT_SECONDS")
PYRAMID_TOKEN_CACHE_SECONDS = env_float(
    "PYRAMID_TOKEN_CACHE_SECONDS",
    30.0,
    help="how long a web process remembers an API token (a deleted token stops working within this)",
)
# The suspicious-play rule of the daily re-check (leaderboards/fair_play/recheck.py, docs/fair-play.md "Fair play")
PYRAMID_FLAG_MIN_MOVES = env_int(
    "PYRAMID_FLAG_MIN_MOVES",
    10,
    low=1,
    help='the suspicious-play rule ("Fair play"): a won game of at least this many moves is looked at',
)
PYRAMID_FLAG_EVEN_CV = env_float(
    "PYRAMID_FLAG_EVEN_CV",
    0.25,
    help=(
        'the suspicious-play rule ("Fair play"): flagged when its moves\' intervals vary less than this '
        "(standard deviation over mean)"
    ),
)
PYRAMID_RECHECK_CHUNK_GAMES = env_int(
    "PYRAMID_RECHECK_CHUNK_GAMES",
    5000,
    low=1,
    help="games a chunk of the daily re-check (one Celery job each, shared by every worker)",
)
# The accuracy rule of fair play (leaderboards/fair_play/accuracy.py; measured in docs/benchmarks.md)
PYRAMID_FLAG_ACCURACY_GAMES = env_int(
    "PYRAMID_FLAG_ACCURACY_GAMES",
    10,
    low=1,
    high=1000,
    help='the accuracy rule ("Fair play"): n, the last games of one board it looks at',
)
PYRAMID_FLAG_ACCURACY_MIN_SEEN = env_int(
    "PYRAMID_FLAG_ACCURACY_MIN_SEEN",
    4,
    low=1,
    help='the accuracy rule ("Fair play"): at least this many still winnable once the stock was seen',
)
PYRAMID_FLAG_ACCURACY_MIN_MOVES = env_int(
    "PYRAMID_FLAG_ACCURACY_MIN_MOVES",
    100,
    low=1,
    help='the accuracy rule ("Fair play"): and this many moves from a winnable position before it',
)
# ... fires when at least this many of the last PYRAMID_FLAG_ACCURACY_GAMES games of one board followed the solver
PYRAMID_FLAG_ACCURACY_PERFECT = env_int(
    "PYRAMID_FLAG_ACCURACY_PERFECT",
    9,
    low=1,
    high=1000,
    help=(
        'the accuracy rule ("Fair play"): k, fires when this many of the last n games of one board followed the solver'
    ),
)
if PYRAMID_FLAG_ACCURACY_PERFECT > PYRAMID_FLAG_ACCURACY_GAMES:
    raise ImproperlyConfigured("PYRAMID_FLAG_ACCURACY_PERFECT must not exceed PYRAMID_FLAG_ACCURACY_GAMES")
# The scouting rule (leaderboards/fair_play/scouting.py): a game that walked the stock or stopped with at least
# this share of its cards left (of the 28 or 52 its goal counts), linked by address or device to a better game of
# the same deal by another account
PYRAMID_FLAG_SCOUT_SHARE = env_float(
    "PYRAMID_FLAG_SCOUT_SHARE",
    0.75,
    help='the scouting rule ("Fair play"): a scout left at least this share of its cards',
)
if not 0 < PYRAMID_FLAG_SCOUT_SHARE <= 1:
    raise ImproperlyConfigured("PYRAMID_FLAG_SCOUT_SHARE must be over 0 and at most 1")
# The speed rule (leaderboards/fair_play/speed.py): a win faster than this many milliseconds a move on average
# (0 turns it off)
PYRAMID_FLAG_FASTEST_MOVE_MS = env_int(
    "PYRAMID_FLAG_FASTEST_MOVE_MS",
    300,
    low=0,
    high=60000,
    help='the speed rule ("Fair play"): a win under this many milliseconds a move is flagged (0 turns it off)',
)
# The salt of the client-address hashes kept with ranked games (pyramid_site/client.py): derived from the
# secret key unless set; changing it unlinks the games hashed before
PYRAMID_CLIENT_HASH_SALT = (
    env_str(
        "PYRAMID_CLIENT_HASH_SALT",
        help="the salt of the client-address hashes kept with ranked games",
        shown="derived from `DJANGO_SECRET_KEY`",
    )
    or hashlib.sha256(f"pyramid-client-address|{SECRET_KEY}".encode()).hexdigest()
)
PYRAMID_BOARD_REDIS_URL = env_str(
    "PYRAMID_BOARD_REDIS_URL",
    REDIS_URL,
    help="where the daily boards' Redis copies live; set and empty turns them off",
    shown="`REDIS_URL`",
)

# Live updates (docs/api.md, "Live updates"): every web process follows the channels' Redis Streams; without Redis
# the one process's own bus serves its streams
PYRAMID_LIVE_REDIS_URL = env_str(
    "PYRAMID_LIVE_REDIS_URL",
    REDIS_URL,
    help="the Redis of the live updates' event streams; set and empty keeps them in the one web process",
    shown="`REDIS_URL`",
)
PYRAMID_LIVE_KEY_PREFIX = env_str(
    "PYRAMID_LIVE_KEY_PREFIX", "live:", help="the prefix of the live updates' keys in Redis"
)
PYRAMID_LIVE_STREAM_LENGTH = env_int(
    "PYRAMID_LIVE_STREAM_LENGTH",
    1000,
    low=10,
    high=1_000_000,
    help=(
        "events kept per channel for clients that resume (`Last-Event-ID`); older ones are trimmed (a client "
        "further behind gets `reset`)"
    ),
)
PYRAMID_LIVE_STREAM_TTL_SECONDS = env_int(
    "PYRAMID_LIVE_STREAM_TTL_SECONDS", 86400, low=60, help="a channel with no event for this long is dropped from Redis"
)
PYRAMID_LIVE_KEEPALIVE_SECONDS = env_float(
    "PYRAMID_LIVE_KEEPALIVE_SECONDS",
    15.0,
    low=0.05,
    help="a comment on every open stream after this many seconds without an event",
)
PYRAMID_LIVE_RETRY_MS = env_int(
    "PYRAMID_LIVE_RETRY_MS",
    2000,
    low=0,
    high=600_000,
    help="the `retry:` a stream sends: how long a client waits before it reconnects",
)
PYRAMID_LIVE_FOLLOWER_BACKLOG = env_int(
    "PYRAMID_LIVE_FOLLOWER_BACKLOG",
    1000,
    low=10,
    high=1_000_000,
    help=(
        "events a web process holds per channel for its streams still sending older ones; a stream further behind "
        "ends with `retry:` and its client resumes (`Last-Event-ID`)"
    ),
)
PYRAMID_LIVE_STREAMS_PER_ACCOUNT = env_int(
    "PYRAMID_LIVE_STREAMS_PER_ACCOUNT",
    10,
    low=1,
    high=100_000,
    help="live streams open at once per account (more: 429 `too_many_streams`)",
)
PYRAMID_LIVE_STREAMS_PER_ADDRESS = env_int(
    "PYRAMID_LIVE_STREAMS_PER_ADDRESS",
    50,
    low=1,
    high=1_000_000,
    help="live streams open at once per client address (more: 429 `too_many_streams`)",
)
PYRAMID_PUBLIC_READ_SECONDS = env_int(
    "PYRAMID_PUBLIC_READ_SECONDS",
    5,
    low=0,
    high=3600,
    help="how long shared caches may keep a visitor's read of a board or the daily list (`s-maxage`)",
)

# The bearer token Prometheus sends for /metrics (`Authorization: Bearer TOKEN`). Without it /metrics is open
# while DJANGO_DEBUG is on and refused (403) otherwise: its figures (error counts, queue depths) are operators'
PYRAMID_METRICS_TOKEN = env_str(
    "PYRAMID_METRICS_TOKEN",
    help="the bearer token `/metrics` answers (`Authorization: Bearer TOKEN`, Prometheus' `authorization` setting)",
    shown="none: `/metrics` open while `DJANGO_DEBUG` is on, refused (403) otherwise",
)

# --- gunicorn (pyramid_site/gunicorn_conf.py reads these) -------------------------------------------
GUNICORN_BIND = env_str(
    "GUNICORN_BIND",
    "127.0.0.1:8000",
    help="the address gunicorn listens on (the image: every interface of its container, published by compose)",
    example="0.0.0.0:8000",
)
GUNICORN_WORKERS = env_int(
    "GUNICORN_WORKERS",
    4,
    low=1,
    high=256,
    help="gunicorn's worker processes (about two per core; each holds its own database connection)",
)
GUNICORN_THREADS = env_int("GUNICORN_THREADS", 1, low=1, high=64, help="threads per gunicorn worker")
GUNICORN_TIMEOUT_SECONDS = env_int(
    "GUNICORN_TIMEOUT_SECONDS",
    30,
    low=1,
    help="a gunicorn worker silent this long is killed and replaced (above the longest request: a hint's search)",
)
GUNICORN_GRACEFUL_TIMEOUT_SECONDS = env_int(
    "GUNICORN_GRACEFUL_TIMEOUT_SECONDS",
    20,
    low=1,
    help="on a stop, the seconds gunicorn's workers get to finish their requests (under the stop grace period)",
)
GUNICORN_KEEPALIVE_SECONDS = env_int(
    "GUNICORN_KEEPALIVE_SECONDS",
    5,
    low=0,
    help="seconds an idle keep-alive connection is held (above the reverse proxy's own idle timeout is wasted)",
)
GUNICORN_MAX_REQUESTS = env_int(
    "GUNICORN_MAX_REQUESTS",
    2000,
    low=0,
    help="a gunicorn worker is replaced after this many requests (bounds a slow leak); `0` never",
)
GUNICORN_MAX_REQUESTS_JITTER = env_int(
    "GUNICORN_MAX_REQUESTS_JITTER",
    200,
    low=0,
    help="a random 0..N added to `GUNICORN_MAX_REQUESTS` per worker, so they are not all replaced at once",
)
# read by the Prometheus client library itself; declared here for its help and the reference
PROMETHEUS_MULTIPROC_DIR = env_str(
    "PROMETHEUS_MULTIPROC_DIR",
    help=(
        "the folder where every web process writes its counts, summed by `/metrics`; emptied as gunicorn starts "
        "(one of its own is made where unset)"
    ),
    shown="none (gunicorn: a fresh temporary folder)",
    example="/tmp/prometheus",
)

PYRAMID_API_MAX_BODY_BYTES = env_int(
    "PYRAMID_API_MAX_BODY_BYTES", 65_536, low=1024, help="the request body the API reads at most, in bytes"
)
PYRAMID_API_MAX_JSON_DEPTH = env_int(
    "PYRAMID_API_MAX_JSON_DEPTH", 32, low=2, high=1000, help="how deep a request body's JSON may nest"
)
# a refused CSRF check answers in the API's JSON shape
CSRF_FAILURE_VIEW = "pyramid_site.requests.csrf_failure"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "pyramid_site.requests.RequestIdFilter"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["request_id"], "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO", help="the root logger's level")},
}
