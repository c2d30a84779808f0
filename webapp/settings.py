"""Settings for the gpu-whatif web app: one module, configured by environment variables.

Every variable is read through ``webapp.env``, which stops start-up with one
sentence naming the variable when a value is malformed. With no variables set
at all, this is the embedded developer setup: DEBUG on, SQLite beside
manage.py, Celery on a folder queue under var/ (see the Celery group below).
"""

from pathlib import Path

import dj_database_url

from webapp.env import EnvError, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# Local state that is not source: collected static files, the embedded Celery
# queue and results. VAR_DIR moves it (tests point it at a temporary folder).
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))


# --- Core -----------------------------------------------------------------
# DEBUG defaults to on because the no-configuration run is a developer's
# laptop. A deployment sets DEBUG=false and must then bring its own
# SECRET_KEY: a well-known key would let anyone forge sessions.
DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise EnvError("SECRET_KEY must be set when DEBUG is false.")
    SECRET_KEY = "django-insecure-gpu-whatif-development-only"

# Empty with DEBUG on lets Django accept localhost, 127.0.0.1 and [::1].
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])

ROOT_URLCONF = "webapp.urls"
WSGI_APPLICATION = "webapp.wsgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True


# --- Applications -----------------------------------------------------------
# whitenoise.runserver_nostatic comes before staticfiles so `runserver`
# serves static files the way production does.
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
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the docs page's JS and CSS, served locally (no CDN)
    "webapp.core",
    "webapp.health",
    "webapp.inventory",
    "webapp.scenarios",
    "webapp.dashboard",
    "webapp.api",
]

# WhiteNoise sits right after SecurityMiddleware, as its documentation asks,
# so static files skip the session and CSRF machinery.
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

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
                "webapp.core.context_processors.product",
            ],
        },
    },
]


# --- Database ---------------------------------------------------------------
# SQLite beside manage.py by default, PostgreSQL (or anything dj-database-url
# knows) through DATABASE_URL. The embedded web process and the local worker
# write the same SQLite file, so writers take the lock when their transaction
# begins (IMMEDIATE) and wait for it rather than failing with
# "database is locked"; WAL lets readers carry on meanwhile.
_database_url = env_str("DATABASE_URL", "")
if _database_url:
    try:
        _default_database = dj_database_url.parse(_database_url, conn_health_checks=True)
    except ValueError as error:
        # The URL itself is not echoed: it may hold a password.
        raise EnvError(
            "DATABASE_URL is not a database URL Django can use, such as"
            f" postgres://user@host:5432/name ({str(error).rstrip('.')})."
        ) from None
else:
    _default_database = {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(BASE_DIR / "db.sqlite3"),
    }
if _default_database["ENGINE"] == "django.db.backends.sqlite3":
    _default_database["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
        **_default_database.get("OPTIONS", {}),
    }
DATABASES = {"default": _default_database}


# --- Static files -------------------------------------------------------------
# WhiteNoise serves them from the app process, so no extra web server is
# needed. In production the manifest storage gives every file a content hash
# and a far-future cache header (run `manage.py collectstatic` first); in
# development files are found where they live and refreshed on change.
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG


# --- Uploads -----------------------------------------------------------------
# Snapshots and workload mixes arrive as files (kubectl output of a large
# fleet runs to tens of megabytes); files above FILE_UPLOAD_MAX_MEMORY_SIZE
# stream to a temporary file instead of memory. Non-file request bodies
# (API JSON) are capped by DATA_UPLOAD_MAX_MEMORY_SIZE, higher than Django's
# 2.5 MB because a workload mix posted as JSON is larger than a form. A
# folder upload sends one file per object kind, hence the higher file count.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 10 * 1024 * 1024, minimum=0)
FILE_UPLOAD_MAX_MEMORY_SIZE = env_int("FILE_UPLOAD_MAX_MEMORY_SIZE", 2_621_440, minimum=0)
DATA_UPLOAD_MAX_NUMBER_FILES = env_int("DATA_UPLOAD_MAX_NUMBER_FILES", 500, minimum=1)


# --- Security basics -----------------------------------------------------------
# No page is meant to be framed, the browser must not guess content types,
# and scripts never need the session cookie. Secure cookies need HTTPS, which
# the embedded run does not have, so a deployment behind TLS turns them on.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]


# --- REST API -------------------------------------------------------------------
# Browsers use their session, scripts a token. Lists are paginated so a
# large inventory never comes back in one response; filtering is declared
# per ViewSet with django-filter, and drf-spectacular builds the OpenAPI
# schema from the same declarations. Reading needs a login by default;
# share links open specific views explicitly.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "gpu-whatif API",
    "DESCRIPTION": "What-if simulations of GPU scheduling on Kubernetes.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
}


# --- Celery -----------------------------------------------------------------------
# Read by webapp/celery.py (namespace CELERY). Production sets
# CELERY_BROKER_URL (Redis), and results go back through the same Redis
# unless CELERY_RESULT_BACKEND says otherwise.
#
# With no broker configured, the embedded default needs nothing installed:
# kombu's filesystem transport keeps the queue as files under var/celery and
# Celery's file result backend stores results beside it, so
# `celery -A webapp worker` is a real local worker process, as in
# production. task_always_eager was the alternative, but it runs tasks inside
# the web request, which hides exactly the behaviour (a separate process,
# redelivery, the database row as the truth) the deployment depends on.
# webapp/celery.py creates the folders when the app is configured.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
_celery_folder = VAR_DIR / "celery"
if CELERY_BROKER_URL:
    # A Redis broker doubles as the result store; other brokers (RabbitMQ)
    # send results back as messages.
    _uses_redis = CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
    CELERY_RESULT_BACKEND = env_str(
        "CELERY_RESULT_BACKEND", CELERY_BROKER_URL if _uses_redis else "rpc://"
    )
else:
    # The host part means nothing to this transport; naming it keeps kombu from warning.
    CELERY_BROKER_URL = "filesystem://localhost//"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # One folder for both directions: producers write where the worker reads.
        "data_folder_in": str(_celery_folder / "queue"),
        "data_folder_out": str(_celery_folder / "queue"),
        "control_folder": str(_celery_folder / "control"),
        "processed_folder": str(_celery_folder / "processed"),
        "store_processed": False,
        "polling_interval": 0.5,
    }
    CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", f"file://{_celery_folder / 'results'}")
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True


# --- Accounts ---------------------------------------------------------------------
# Django's own auth views under /accounts/; pages that need a user send
# anonymous visitors to the login page and back.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
