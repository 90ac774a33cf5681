"""WarpDrill settings, read from the environment with django-environ.

Over 400 lines: every setting in one file, Django's convention.

Every value has a development default so that `make dev` runs with no external service:
SQLite, an embedded filesystem Celery broker, and the CPU emulator backend.
Production sets DATABASE_URL, CELERY_BROKER_URL (or REDIS_URL), SECRET_KEY, ALLOWED_HOSTS, DEBUG=false.
"""
import os
import sys
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
# Under pytest, everything the test run writes (SQLite test DB, embedded broker, caches) goes
# to var/test/, so a running development site and worker never see test data or tasks.
# Each test run gets its own folder (inherited by the worker processes it starts through the
# environment), so concurrent test runs never share a database file or a queue.
# WARPDRILL_VAR_DIR moves the state elsewhere (a second site in the same checkout, a benchmark's
# throw-away site): its database, embedded broker and caches.
TESTING = "pytest" in sys.modules or "WARPDRILL_TESTING" in os.environ
if TESTING:
    VAR_DIR = BASE_DIR / "var" / "test" / os.environ.setdefault("WARPDRILL_TEST_RUN_ID", str(os.getpid()))
else:
    VAR_DIR = Path(os.environ.get("WARPDRILL_VAR_DIR") or BASE_DIR / "var").resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=True)
# An empty SECRET_KEY (platform/env.example's blank line copied to .env) is no key: development uses
# the public default below, production refuses to start.
SECRET_KEY = env("SECRET_KEY", default="").strip() or "dev-only-insecure-key-change-me-0123456789abcdefghijklmnop"
if not DEBUG and not os.environ.get("SECRET_KEY", "").strip():
    # The development key above is public, and `check --deploy` does not recognise it as weak:
    # without this, a production site that forgot SECRET_KEY would sign sessions with it (and
    # derived the hidden test seeds from it, before WARPDRILL_SEED_SECRET got a secret of its own).
    raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off.")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# A translated page in the site's layout (JSON to a script such as the exam autosave) instead of Django's bare 403.
CSRF_FAILURE_VIEW = "accounts.csrf.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "django_htmx",
    "accounts",
    "problems",
    "practice",
    "courses",
    "grader",
    "authoring",
    "homework",
    "exams",
    "lti",
    "playground",
    "ops",
    "django_prometheus",  # /metrics of the web tier: request latency histograms and database metrics
]

MIDDLEWARE = [
    # /healthz, /readyz, /metrics: answered before host validation, HTTPS redirects and sessions (ops/middleware.py).
    "ops.middleware.ProbeMiddleware",
    # django-prometheus: requests, responses and latency (per view and method) around everything below.
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "ops.middleware.RequestIdMiddleware",  # a request id on every log line of a request
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "accounts.timezones.ReaderTimeZoneMiddleware",  # times in the reader's (browser's) zone, else TIME_ZONE
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",  # request.htmx: partial responses for htmx requests
    # Exam mode: a student whose attempt is in progress is sent back to it from every other page (exams/middleware.py).
    "exams.middleware.ExamLockdownMiddleware",
    # A user-safe error a page's view raised: its own status and headers (a platform fault: 503, Retry-After).
    "grader.middleware.ErrorAnswerMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "config.urls"

# Content Security Policy, sent on every response by Django's middleware.
# https://docs.djangoproject.com/en/6.0/ref/csp/
# Scripts come only from our own static files: the templates have no inline scripts or event
# handlers (tests/access/test_headers.py checks). Styles allow 'unsafe-inline' because KaTeX
# places glyphs with style attributes and htmx and CodeMirror insert <style> elements.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "exams.context_processors.exam_lock",  # the menu during an exam that closes the site
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if not DEBUG:
    # Production: the database and its password come from the environment, never a default.
    if "DATABASE_URL" not in os.environ:
        raise ImproperlyConfigured("DATABASE_URL must be set in the environment when DEBUG is off.")
    # A server that trusts this host (peer or trust authentication on a socket, a benchmark's local
    # server) is an explicit choice: WARPDRILL_DB_PASSWORDLESS=true.
    if (DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and not DATABASES["default"].get("PASSWORD")
            and not env.bool("WARPDRILL_DB_PASSWORDLESS", default=False)):
        raise ImproperlyConfigured("DATABASE_URL must carry the database password when DEBUG is off "
                                   "(or set WARPDRILL_DB_PASSWORDLESS=true for peer/trust authentication).")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web and worker processes share the file. WAL lets readers run beside the writer, and
    # IMMEDIATE transactions take the write lock up front, so a transaction that reads then
    # writes waits its turn (timeout, seconds) instead of failing at once with "database is locked".
    # https://docs.djangoproject.com/en/6.0/ref/databases/#database-is-locked-errors
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
        }
    )
    # A file (not :memory:) so that a real Celery worker process can share the test database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test_db.sqlite3")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Persistent connections: a new PostgreSQL connection costs a backend process fork per request
# (measured: about a fifth of a small API request's time on a 2-core machine). Tests keep Django's 0.
# https://docs.djangoproject.com/en/6.0/ref/databases/#persistent-connections
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=0 if TESTING else 60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# PostgreSQL connection pooling in each process (psycopg's pool, Django 5.1+), instead of one
# persistent connection per thread: DB_POOL_MAX_SIZE connections at most per process, so that
# web processes x pool size + workers stays under PostgreSQL's max_connections (docs/scaling.md).
# https://docs.djangoproject.com/en/6.0/ref/databases/#connection-pool
if env.bool("DB_POOL", default=False) and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN_SIZE", default=1),
        "max_size": env.int("DB_POOL_MAX_SIZE", default=4),
        "timeout": env.float("DB_POOL_TIMEOUT_S", default=10.0),
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections; Django must not
# Database metrics on /metrics (django-prometheus's wrappers of Django's own backends: new connections,
# statements, errors, query duration per alias and vendor). Everything above compares the plain engine
# names; code elsewhere tests `ENGINE.endswith(...)` or `connection.vendor`, which are unchanged.
_PROMETHEUS_ENGINES = {"django.db.backends.postgresql": "django_prometheus.db.backends.postgresql",
                       "django.db.backends.sqlite3": "django_prometheus.db.backends.sqlite3"}
DATABASES["default"]["ENGINE"] = _PROMETHEUS_ENGINES.get(DATABASES["default"]["ENGINE"], DATABASES["default"]["ENGINE"])
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Caches, one per process (Django's local-memory backend): what they hold is keyed by immutable
# problem versions (id and content hash), so a process never serves stale entries and nothing
# needs to be shared or invalidated. "default": rendered statements (problems.markdown);
# "packages": parsed problem packages (problems.services.version_package), a few KiB each.
# https://docs.djangoproject.com/en/6.0/topics/cache/#local-memory-caching
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "warpdrill-default",
    },
    "packages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "warpdrill-packages",
        "TIMEOUT": None,  # never expires: the key changes with the content
        "OPTIONS": {"MAX_ENTRIES": 512},  # about 5 MiB of pickles at most; the bank has a dozen versions
    },
}

# "live": each submission's state token, which verdict polls are answered 304 from with no SQL
# (grader/live.py), and the counts every web process must agree on (sign-ups per address, exam password
# tries). Unlike the two above it is shared by every web process and every worker (the grader writes it): Redis when one is configured (LIVE_CACHE_URL, else REDIS_URL or a redis://
# broker; ops/cache.py: Django's backend without a new client object per operation), else files under
# var/ (one machine: `make dev`, and each test run with its workers).
_live_cache_url = env("LIVE_CACHE_URL", default="") or env("REDIS_URL", default="") or (
    env("CELERY_BROKER_URL", default="") if env("CELERY_BROKER_URL", default="").startswith("redis") else "")
if _live_cache_url and not TESTING:
    CACHES["live"] = {"BACKEND": "ops.cache.RedisCache", "LOCATION": _live_cache_url,
                      "KEY_PREFIX": f"wd-live-{DATABASES['default'].get('NAME', '')}"}
else:
    CACHES["live"] = {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                      "LOCATION": str(VAR_DIR / "cache" / "live"), "OPTIONS": {"MAX_ENTRIES": 100_000}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "problems:list"
LOGOUT_REDIRECT_URL = "problems:list"

# Brute-force limits on logging in (the form, the admin, /api/v1/token): django-axes.
# https://django-axes.readthedocs.io/en/latest/4_configuration.html
# Its backend comes first and refuses locked-out credentials before any password is checked.
AUTHENTICATION_BACKENDS = [
    "accounts.login_limits.LoginLimitBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failures are counted per username *and* address: a classroom behind one NAT address is not locked
# out by one student's typos, and nobody can lock a student out from elsewhere by guessing wrong.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
# A failure during the lockout does not restart the cool-off, so "try again in 15 minutes" holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True  # a successful login forgets the earlier failures
AXES_DISABLE_ACCESS_LOG = True  # only failures are stored, not a row per successful login
AXES_VERBOSE = False  # no "AXES: BEGIN" banner from every process at start-up
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"  # shared by every web process
# Behind this many reverse proxies (1 behind platform/nginx.conf) the client's address is read from
# the right of X-Forwarded-For; 0 (the default) uses REMOTE_ADDR, so a client cannot spoof it.
WARPDRILL_TRUSTED_PROXIES = env.int("WARPDRILL_TRUSTED_PROXIES", default=0)
AXES_CLIENT_IP_CALLABLE = "accounts.login_limits.client_ip"
# The views render lockouts themselves (the form with its message, the API as {"error": ...}),
# so axes's middleware, which would replace their responses with its own page, is not installed.
SILENCED_SYSTEM_CHECKS = ["axes.W002"]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ko", "한국어")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The zone pages use for a reader whose browser has not named its own (accounts/timezones.py);
# a deployment for one place sets it, e.g. WARPDRILL_TIME_ZONE=Asia/Seoul.
TIME_ZONE = env.str("WARPDRILL_TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True
# A datetime Django prints itself (a template without the `when` filter, the admin) in the one format.
FORMAT_MODULE_PATH = ["accounts.formats"]

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# In development WhiteNoise serves straight from STATICFILES_DIRS (no collectstatic needed).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
if DEBUG:
    STATIC_ROOT.mkdir(exist_ok=True)

REST_FRAMEWORK = {
    # Token first: an unauthenticated request gets 401 with WWW-Authenticate: Token (not 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.tokens.TrackedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Deeply nested JSON is a 400, not a RecursionError (a 500): grader/parsers.py.
    "DEFAULT_PARSER_CLASSES": ["grader.parsers.DepthLimitedJSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
}

# --- Celery ---------------------------------------------------------------------------
# https://docs.celeryq.dev/en/stable/userguide/configuration.html
_redis_url = env("REDIS_URL", default="")
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=_redis_url or "filesystem://localhost/")
if CELERY_BROKER_URL.startswith("filesystem://"):
    # Atomic message files (config/filesystem_broker.py says why).
    CELERY_BROKER_TRANSPORT = "config.filesystem_broker:Transport"
    _queue_dir = VAR_DIR / "broker"
    (_queue_dir / "processed").mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir),
        "data_folder_out": str(_queue_dir),
        "processed_folder": str(_queue_dir / "processed"),
        "control_folder": str(_queue_dir / "control"),
        "store_processed": False,
        # kombu polls a folder queue (1 s by default): the wait before a worker sees a submission.
        "polling_interval": env.float("CELERY_POLLING_INTERVAL", default=0.1),
    }
else:
    # https://docs.celeryq.dev/en/stable/getting-started/backends-and-brokers/redis.html#visibility-timeout
    # A message whose worker died unacknowledged is delivered again once the visibility timeout has
    # passed, found by a scan every unacked_restore_interval x unacked_restore_throttle seconds.
    # A live worker never holds a grading message longer than the task's hard time limit
    # (CELERY_TASK_TIME_LIMIT below; a retry waits at most 4 s, and with one prefetched message per
    # pool process a message starts at once), so the timeout is that limit plus a margin: any
    # shorter and a long but healthy grading would be delivered twice. The scan runs every 10 s
    # (kombu's default is every 100 s; one small Redis query). A whole worker that dies is recovered
    # from in at most ~370 s with the defaults (it was ~700 s). Fault tests make all of these short.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env.int(
            "CELERY_VISIBILITY_TIMEOUT",
            default=env.int("CELERY_TASK_TIME_LIMIT", default=300) + env.int("WARPDRILL_REDELIVERY_MARGIN_S", default=60)),
        "unacked_restore_interval": env.int("CELERY_UNACKED_RESTORE_INTERVAL", default=10),
        "unacked_restore_throttle": env.int("CELERY_UNACKED_RESTORE_THROTTLE", default=1),
    }
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
# Late acknowledgement: a task whose worker dies is delivered again (grading is idempotent).
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#task-acks-late
CELERY_TASK_ACKS_LATE = True
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#task-reject-on-worker-lost
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# One task at a time per process: grading is long and CPU-bound.
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#worker-prefetch-multiplier
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Hard and soft limits for one grading task, in seconds.
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#task-time-limit
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=300)
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#task-soft-time-limit
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=240)
CELERY_TASK_DEFAULT_QUEUE = "cpu"
CELERY_TASK_ROUTES = ("grader.routing.route_task",)
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_BEAT_SCHEDULE = {
    # Re-queue submissions stuck in QUEUED/RUNNING (a lost message, a dead worker). Every
    # WARPDRILL_SWEEP_EVERY_S seconds (fault tests make it short); one indexed query each time.
    "sweep-stuck-submissions": {"task": "grader.tasks.sweep_stuck_submissions",
                                "schedule": env.float("WARPDRILL_SWEEP_EVERY_S", default=30.0)},
    # Playground runs stuck the same way, on the same schedule.
    "sweep-stuck-playground-runs": {"task": "playground.tasks.sweep_stuck_playground_runs",
                                    "schedule": env.float("WARPDRILL_SWEEP_EVERY_S", default=30.0)},
    # Submissions whose grader died (a stale heartbeat) go back to their queue within seconds.
    "sweep-dead-graders": {"task": "grader.tasks.sweep_dead_graders",
                           "schedule": env.float("WARPDRILL_DEAD_GRADER_SWEEP_EVERY_S", default=5.0)},
    # Exam submissions whose grader died (a stale heartbeat) go back to the exam queue within seconds.
    "sweep-stale-exam-submissions": {"task": "grader.tasks.sweep_stale_exam_submissions",
                                     "schedule": env.float("WARPDRILL_EXAM_SWEEP_EVERY_S", default=5.0)},
    # Exam attempts past their deadline are closed and graded with what was saved (pages close them
    # on access too; this catches the ones nobody looks at).
    "close-expired-exam-attempts": {"task": "exams.tasks.close_expired_attempts",
                                    "schedule": env.float("WARPDRILL_EXAM_CLOSE_EVERY_S", default=30.0)},
    # Exams whose results were released since their LMS links last got scores: send them (LTI AGS).
    "lti-sync-released-exams": {"task": "lti.tasks.sync_released_exams",
                                "schedule": env.float("WARPDRILL_LTI_SYNC_EVERY_S", default=60.0)},
}

# --- Judge ----------------------------------------------------------------------------
# True when GPU workers consume the "gpu" queue; grading tasks are then routed there.
WARPDRILL_GPU_WORKERS = env.bool("WARPDRILL_GPU_WORKERS", default=False)
# A course's harness.py runs in the sandbox (grader/harness_box.py) with these limits per test case:
# seconds of wall clock for its generate() and reference(), and MiB of address space.
WARPDRILL_HARNESS_TIME_S = env.float("WARPDRILL_HARNESS_TIME_S", default=30.0)
WARPDRILL_HARNESS_MEMORY_MB = env.int("WARPDRILL_HARNESS_MEMORY_MB", default=4096)
# Compute capability used for resource reports and occupancy when no GPU is present.
WARPDRILL_TARGET_CC = env("WARPDRILL_TARGET_CC", default="9.0")
# Only for development machines without bubblewrap: run student code unsandboxed (logged loudly).
WARPDRILL_ALLOW_UNSAFE_SANDBOX = env.bool("WARPDRILL_ALLOW_UNSAFE_SANDBOX", default=False)
# Where built emulator runtimes and compile caches live (each backend in a folder of its own): the
# site's var/cache. A test run keeps the checkout's var/cache: its entries are named by content hashes,
# so sharing them is safe, and a fresh emulator runtime per run would cost minutes of compiling.
WARPDRILL_CACHE_DIR = Path(env("WARPDRILL_CACHE_DIR", default=str((BASE_DIR / "var" if TESTING else VAR_DIR) / "cache")))
# The judge, shaped like TASKS and CACHES: the backend that grades and the options handed to the
# backends' constructors (grader/core/backends/registry.py; each takes the options it names, so
# switching BACKEND alone is enough). The core reads no environment: every WARPDRILL_* variable of
# the judge is read here, once.
WARPDRILL_JUDGE = {
    # "emulator" (CPU, anywhere), "gpu" (PyCUDA on a GPU worker), "dummy" (tests), or a dotted path.
    "BACKEND": env("WARPDRILL_BACKEND", default="emulator"),
    "OPTIONS": {
        # The site's cache folder: the emulator keeps its runtimes and binaries in emulator/, the GPU
        # backend and ptxas's resource reports their cubins in gpu/.
        "cache_root": str(WARPDRILL_CACHE_DIR),
        # How boxes are made (grader/core/sandbox/box.py Sandbox): bubblewrap (elsewhere only in fault
        # tests), the unprivileged host uid a root worker starts it as, host folders to mask when they
        # lie under /usr (the site's state and caches, and WARPDRILL_SANDBOX_HIDE's os.pathsep list),
        # and unsafe mode.
        "sandbox": {
            "bwrap": env("WARPDRILL_BWRAP", default="/usr/bin/bwrap"),
            "uid": env.int("WARPDRILL_SANDBOX_UID", default=65534),
            "hide": [str(VAR_DIR), str(WARPDRILL_CACHE_DIR),
                     *(p for p in env("WARPDRILL_SANDBOX_HIDE", default="").split(os.pathsep) if p)],
            "allow_unsafe": WARPDRILL_ALLOW_UNSAFE_SANDBOX,
        },
        # The emulator's C++ compiler (under /usr: the sandbox sees only /usr; elsewhere in fault tests).
        "cxx": env("WARPDRILL_CXX", default="/usr/bin/g++"),
        # The emulator's check pass with every run, whatever the kernel (grader/core/emulator/checkplan.py
        # skips the race run and the initcheck where they can find nothing): for comparisons.
        "full_check_pass": env.bool("WARPDRILL_FULL_CHECK_PASS", default=False),
        # The emulator's coro mode for kernels whose only synchronisation is __syncthreads() in their
        # body (grader/core/emulator/coro.py); 0: fibers, as before it, for comparisons.
        "coro": env.bool("WARPDRILL_EMULATOR_CORO", default=True),
        # The judge's ptxas report started after the harness calls, not before the compile: for comparisons.
        "ptxas_report_late": env.bool("WARPDRILL_PTXAS_REPORT_LATE", default=False),
        # Who makes the emulator's ptxas report: "auto" (NVRTC in a warm compiler child, nvcc when it
        # refuses the source) or "nvcc" (for comparisons).
        "ptxas_compiler": env("WARPDRILL_PTXAS_COMPILER", default="auto"),
        # The GPU backend: sm_XX to compile for (empty: asked of the GPU), the sanitizer tools this worker
        # runs (a problem's check left out is not run: for comparisons), a fresh child per submission
        # ("submission") or a warm one per worker ("worker"),
        # NVRTC or nvcc ("auto", "nvrtc", "nvcc"), seconds a child may take to start, jobs a sanitizer
        # child serves before it is replaced, CPU seconds an nvcc compile may take (the wall clock stops it at
        # three times that plus 2 s; NVRTC's warm child answers within that many seconds), and which warm children
        # are a few per worker, shared by its pool processes ("off", "sanitizers", "all": gpu/shared.py),
        # how many of each, in which run folder (empty: one per worker in the temporary folder).
        "arch": env("WARPDRILL_GPU_ARCH", default="") or None,
        "checks": env("WARPDRILL_GPU_CHECKS", default="memcheck,racecheck,synccheck"),
        "fresh_child_per_submission": env("WARPDRILL_GPU_CHILD_REUSE", default="worker") == "submission",
        "compiler": env("WARPDRILL_GPU_COMPILER", default="auto"),
        "start_timeout_s": env.float("WARPDRILL_GPU_START_TIMEOUT", default=60.0),
        "sanitizer_jobs": env.int("WARPDRILL_GPU_SANITIZER_JOBS", default=100),
        "nvcc_time_limit_s": env.float("WARPDRILL_NVCC_TIME_LIMIT", default=10.0),
        "shared_children": env("WARPDRILL_GPU_SHARED_CHILDREN", default="off"),
        "shared_dir": env("WARPDRILL_GPU_SHARED_DIR", default="") or None,
        "shared_instances": env.int("WARPDRILL_GPU_SHARED_INSTANCES", default=4),
        # The check pass runs memcheck again where memcheck already located a test case's fault (1: as
        # before, for comparisons; grader/core/gpu/sanitizer_pass.py); how the children wait for a kernel
        # (blocking|spin|yield|auto) and what memcheck ends on a precise error (kernel|context):
        # grader/core/gpu/child_settings.py.
        "recheck_located_faults": env.bool("WARPDRILL_GPU_RECHECK_FAULTS", default=False),
        "sync": env("WARPDRILL_GPU_SYNC", default="blocking"),
        "memcheck_on_error": env("WARPDRILL_GPU_MEMCHECK_ON_ERROR", default="kernel"),
    },
}
# Mixed into hidden test seeds so that hidden inputs cannot be reproduced from the package.


def _installation_secret(path: Path) -> str:
    """A secret generated once per installation and kept in `path` (mode 0600), read on later starts.

    Hidden test seeds mix in a server secret; SECRET_KEY's development default is public (it is in
    this file), so seeds derived from it could be computed by anyone. Processes starting together
    race safely: the file is created with O_EXCL, and the loser reads the winner's.
    """
    import secrets

    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _attempt in range(50):
            value = path.read_text().strip()
            if value:
                return value
            import time

            time.sleep(0.02)  # its creator has not written it yet
        raise ImproperlyConfigured(f"{path} is empty: delete it to generate a new seed secret")
    value = secrets.token_hex(32)
    with os.fdopen(fd, "w") as f:
        f.write(value + "\n")
    return value


# Hidden test seeds mix in this secret. Set it in the environment where several hosts must agree
# (every worker of one site); by default it is generated per installation under var/.
WARPDRILL_SEED_SECRET = env("WARPDRILL_SEED_SECRET", default="") or _installation_secret(VAR_DIR / "seed_secret")
# The problem packages folder that `manage.py backup` keeps (and `import_problems` reads): a site's
# own folder, or (empty) the checkout's problems/bank.
WARPDRILL_PACKAGES_DIR = env("WARPDRILL_PACKAGES_DIR", default="")
# The time budget of one submission's runs, as a multiple of its problem's per-test limit: all its test
# cases, its check pass and its write map together may use this many times the limit (grader/core/budget.py),
# so that no submission holds a grading worker for the sum of its per-test limits. 0: no budget.
WARPDRILL_RUN_BUDGET_FACTOR = env.float("WARPDRILL_RUN_BUDGET_FACTOR", default=2.0)
# Limits on submissions.
WARPDRILL_MAX_SOURCE_BYTES = env.int("WARPDRILL_MAX_SOURCE_BYTES", default=64 * 1024)
# Lines of a submitted source: a kernel and its helpers fit in far fewer (docs/security.md).
WARPDRILL_MAX_SOURCE_LINES = env.int("WARPDRILL_MAX_SOURCE_LINES", default=4000)
WARPDRILL_SUBMISSIONS_PER_MINUTE = env.int("WARPDRILL_SUBMISSIONS_PER_MINUTE", default=10)
# Validation runs (Validate in the authoring editor: the solution and every wrong solution, graded at low
# priority) one user may start in an hour; one runs at a time per problem anyway. 0: no limit.
WARPDRILL_VALIDATIONS_PER_HOUR = env.int("WARPDRILL_VALIDATIONS_PER_HOUR", default=20)
# Accounts one address may create in an hour (0: no limit); each account multiplies every per-user limit.
WARPDRILL_SIGNUPS_PER_HOUR = env.int("WARPDRILL_SIGNUPS_PER_HOUR", default=5)
# Accounts one address may create in an hour with one usable course invite (a lab's students behind
# one router), counted per invite apart from the above; each such sign-up uses the invite, so its
# maximum uses and expiry bound it too (docs/security.md). 0: no limit.
WARPDRILL_INVITE_SIGNUPS_PER_HOUR = env.int("WARPDRILL_INVITE_SIGNUPS_PER_HOUR", default=60)
# Sign-up asks for a course invite code and enrols the new account with it (a closed deployment).
WARPDRILL_SIGNUP_REQUIRES_INVITE = env.bool("WARPDRILL_SIGNUP_REQUIRES_INVITE", default=False)
# For this many seconds after it is sent, a submission's page polls its status every quarter of a
# second, queued or not (grader.views.live_poll_interval): a trivial kernel is graded in well under a
# second, and a 1 s poll made the student wait up to a second more. 0: the older intervals only.
WARPDRILL_POLL_FAST_START_S = env.float("WARPDRILL_POLL_FAST_START_S", default=5.0)
# A submission still QUEUED/RUNNING after this many seconds is re-queued by the sweeper.
WARPDRILL_STUCK_AFTER_S = env.int("WARPDRILL_STUCK_AFTER_S", default=600)

# Logs: one JSON object per line in production (LOG_FORMAT=json, the default with DEBUG off), with
# the request id of a web request and the submission id, exam attempt id and backend of a grading
# (ops/logcontext.py binds them, the filter copies them onto every record); plain text in development.
LOG_FORMAT = env("LOG_FORMAT", default="text" if DEBUG else "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "ops.logcontext.ContextFilter"}},
    "formatters": {
        "json": {"()": "ops.jsonlog.JsonFormatter"},
        "text": {"format": "%(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["context"],
                             "formatter": "json" if LOG_FORMAT == "json" else "text"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
}
# With JSON logs the worker keeps Django's logging configuration (Celery would replace the root
# handler with its own text format).
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"

# /metrics (web) and the worker exporter: with a token, scrapes need "Authorization: Bearer <token>";
# without one, only loopback clients are served (ops/metrics.py).
WARPDRILL_METRICS_TOKEN = env("WARPDRILL_METRICS_TOKEN", default="")

if not DEBUG:
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
