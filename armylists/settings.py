"""Settings, read from the environment with safe local defaults.

DATABASE_URL (default: SQLite in the project folder), SECRET_KEY (required when DEBUG is off),
DEBUG (default on, for local use), ALLOWED_HOSTS (comma-separated), RULES_DATA_DIR.
"""
from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.getenv(name, default).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envlist(name: str, default: str) -> list[str]:
    return [part.strip() for part in os.getenv(name, default).split(",") if part.strip()]


DEBUG = envbool("DEBUG", "true")
SECRET_KEY = os.getenv("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "local-development-only-not-secret"
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "armylists",
    "django_tasks",
    "django_tasks_db",
    # Security (docs/security.md)
    "csp",
    "axes",
    "knox",
]

# The security headers first (SECURITY_MIDDLEWARE), so that every answer carries them: a static file,
# a refusal of the middleware below, a 404; the stateless handler (api/stateless.py) runs the same three.
SECURITY_MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]
MIDDLEWARE = [
    *SECURITY_MIDDLEWARE,
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "armylists.accounts.request_checks.UnstorableTextMiddleware",  # NUL in an address or a form field: 400
    "django.contrib.sessions.middleware.SessionMiddleware",
    "armylists.accounts.request_checks.TrailingSlashMiddleware",  # Django's CommonMiddleware; a POST to /x: 404
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "armylists.accounts.rate_limits.RateLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into the lockout answer
]

ROOT_URLCONF = "armylists.urls"
WSGI_APPLICATION = "armylists.wsgi.application"

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

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# SQLite (the default): write-ahead log, synced at checkpoints rather than at every commit. An editor
# change then saves in about a millisecond instead of waiting for the disk; a crash can lose the last
# commits, never the file's consistency (https://www.sqlite.org/wal.html).
# Several workers writing at once (gunicorn, the task worker, login lockouts' records): a write
# transaction takes its lock when it begins (IMMEDIATE), so two never deadlock upgrading a read lock into
# "database is locked", and waits up to 20 s for the other.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", transaction_mode="IMMEDIATE",
        timeout=20)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

# Where the rules data lives (systems, item lists, army books).
RULES_DATA_DIR = Path(os.getenv("RULES_DATA_DIR", BASE_DIR / "rules_data"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

VALIDATE_RATE: str | None = os.getenv("VALIDATE_RATE", "120/minute")
if VALIDATE_RATE.strip().lower() in ("off", "none", ""):
    VALIDATE_RATE = None

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: its WWW-Authenticate header makes an anonymous request a 401, not a 403.
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["armylists.api.parsers.LimitedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "armylists.api.errors.api_exception_handler",
    # Per user, else per client address (armylists/accounts/rate_limits.py); rates below, with the security settings.
    "DEFAULT_THROTTLE_CLASSES": ["armylists.accounts.rate_limits.ScopedThrottle"],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Army lists API",
    "DESCRIPTION": "Rules, army books, a user's lists and stateless validation. Every 4xx has one error shape.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The enums hook is drf-spectacular's default; ours documents what the HTTP server answers itself.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "armylists.api.schema.server_responses"],
}

# Static files are served by the app itself (no CDN): from the apps' folders while developing, and
# from STATIC_ROOT after `collectstatic` in production.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# Accounts: mail (password reset) goes to the console unless EMAIL_BACKEND says otherwise.
EMAIL_BACKEND = os.getenv("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-lists"
LOGOUT_REDIRECT_URL = "home"

# --- Security (docs/security.md) -------------------------------------------------------------------

# HTTPS=true: the site is served over HTTPS behind a proxy that terminates TLS and sets
# X-Forwarded-Proto; then HTTP is redirected, cookies are secure, and browsers are told (HSTS) to use
# HTTPS only. Off by default: `runserver` speaks plain HTTP.
HTTPS = envbool("HTTPS", "false")
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 31_536_000  # a year
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
X_FRAME_OPTIONS = "DENY"
# An organiser uploads up to events/submitting.MAX_UPLOAD_FILES (200) list files at once; one more reaches
# the view, which says so by name. Django's default (100) refused the 101st with a bare 400 before it.
DATA_UPLOAD_MAX_NUMBER_FILES = 201

# Content-Security-Policy (django-csp): scripts, styles, fonts and requests from this site only; no
# inline script or style anywhere (templates load armylists/static/ files), no framing, no plugins.
# data: images are Swagger UI's icons (/api/docs/).
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF], "script-src": [SELF], "style-src": [SELF], "img-src": [SELF, "data:"],
        "font-src": [SELF], "connect-src": [SELF], "object-src": [NONE], "base-uri": [SELF],
        "form-action": [SELF], "frame-ancestors": [NONE],
    },
}

def envcount(name: str, default: str) -> int:
    value = os.getenv(name, default).strip()
    if not value.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number, 0 or more, not {value!r}")
    return int(value)


# Client addresses (rate limits, login lockouts): X-Forwarded-For is believed only through this many
# proxies of our own in front of the site (armylists/accounts/client_address.py); 0 ignores it.
TRUSTED_PROXIES = envcount("TRUSTED_PROXIES", "0")

# Battle Tavern, a desktop simulator, takes a list by a form the player's own browser posts to the game on
# their own machine, as Old World Builder sends it (exports/owb_list.py); the site never contacts it. The
# form may post there and nowhere else but this site (the CSP's form-action).
BATTLE_TAVERN_PORT = envcount("BATTLE_TAVERN_PORT", "47823")
if not 1 <= BATTLE_TAVERN_PORT <= 65535:
    raise ImproperlyConfigured(f"BATTLE_TAVERN_PORT must be a port from 1 to 65535, not {BATTLE_TAVERN_PORT}")
CONTENT_SECURITY_POLICY["DIRECTIVES"]["form-action"] = [SELF, f"http://127.0.0.1:{BATTLE_TAVERN_PORT}"]

# Rate limits (armylists/accounts/rate_limits.py), per user when signed in, else per address. RATE_LIMITS=off
# turns them all off (a load test from one address); VALIDATE_RATE=off only the validator's.
RATE_LIMITS = envbool("RATE_LIMITS", "true")
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    "validate": VALIDATE_RATE, "write": "300/minute", "import": "30/minute", "export": "60/minute",
    "login": "20/minute",
} if RATE_LIMITS else {scope: None for scope in ("validate", "write", "import", "export", "login")}

# The default cache, shared by every worker, and where the rate-limit counts live when REDIS_URL is set
# (taken atomically by a script; without Redis they are rows of RateCount: armylists/accounts/rate_counts.py;
# login failures are rows of django-axes' tables): the database by default (`migrate` makes its table:
# armylists/apps.py); Redis when REDIS_URL is set.
REDIS_URL = os.getenv("REDIS_URL", "")
CACHES = {
    "default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": REDIS_URL} if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "armylists_cache"},
}

# Log-in lockouts (django-axes) on the login form and the token endpoint: after AXES_FAILURE_LIMIT
# failures for one account or from one address, log-ins stop for the cool-off (armylists/accounts/login_lockout.py).
from datetime import timedelta  # noqa: E402

AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]  # either one locks
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "armylists.accounts.client_address.client_address"
AXES_LOCKOUT_CALLABLE = "armylists.accounts.login_lockout.lockout_response"

# API tokens (django-rest-knox): stored as a SHA-512 hash, named by the user, expiring after
# API_TOKEN_DAYS (0: never) unless the user picks otherwise; a password change revokes them all.
KNOX_TOKEN_MODEL = "armylists.ApiToken"
# knox's own migrations create its AuthToken table even though ApiToken replaces it (swapped); that
# unused table, referencing auth_user, makes PostgreSQL refuse to empty auth_user between tests. Without
# its migrations, Django creates no table for a swapped model.
MIGRATION_MODULES = {"knox": None}
API_TOKEN_DAYS = envcount("API_TOKEN_DAYS", "90")
REST_KNOX = {"TOKEN_MODEL": "armylists.ApiToken", "TOKEN_TTL": timedelta(days=API_TOKEN_DAYS) if API_TOKEN_DAYS else None,
             "AUTH_HEADER_PREFIX": "Token"}

# Background tasks (organisers' bulk work: checking an event again, the muster PDF). Queued in the
# database and run by `python manage.py db_worker`, so no other server is needed; see docs/deploy.md.
TASKS = {
    "default": {
        "BACKEND": os.getenv("TASKS_BACKEND", "django_tasks_db.DatabaseBackend"),
        "QUEUES": ["default"],
    }
}
# A running job not heard from for this many seconds lost its worker: it is run again from the start,
# or failed the second time (armylists/events/jobs.py: recover_stale_jobs). Jobs write a heartbeat at
# least every few seconds while they work; the margin covers a slow step.
EVENT_JOB_STALE_SECONDS = envcount("EVENT_JOB_STALE_SECONDS", "120")
EVENT_JOB_STEP_DELAY = 0.0  # seconds of sleep per step of a job: tests slow a job down to kill its worker mid-way

# The compiled rules (armylists/lists/library/books_cache.py) in a cache of their own: local memory by default, and
# Redis when REDIS_URL is set, so every process on every machine builds them at most once per release.
# Only the "books" alias is set here; "default" (rate limits) is configured on its own.
CACHES["books"] = {
    "BACKEND": "django_redis.cache.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "armylists-books",
    "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 2, "SOCKET_TIMEOUT": 5},
} if REDIS_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "books"}

# Game data kept current from GitHub (armylists/gamedata/, docs/game-data.md): the API it asks, the only
# hosts it fetches from (https only; never a private or loopback address), and the caps on an archive.
GAME_DATA_GITHUB_API = os.getenv("GAME_DATA_GITHUB_API", "https://api.github.com").rstrip("/")
GAME_DATA_HOSTS = envlist("GAME_DATA_HOSTS", "api.github.com,codeload.github.com,github.com")
# Tests only: plain http to a loopback address (the test suite's fake GitHub). Refused when DEBUG is off.
GAME_DATA_TEST_LOOPBACK = envbool("GAME_DATA_TEST_LOOPBACK", "false")
if GAME_DATA_TEST_LOOPBACK and not DEBUG:
    raise ImproperlyConfigured("GAME_DATA_TEST_LOOPBACK is for tests only and refused when DEBUG is off")
GAME_DATA_TIMEOUT = 30  # seconds, per request
GAME_DATA_MAX_BYTES = 64 * 1024 * 1024  # one download
GAME_DATA_MAX_FILES = 5000  # files in one archive
GAME_DATA_MAX_UNPACKED = 256 * 1024 * 1024  # everything an archive unpacks to
