"""Settings come from the environment, and a malformed value stops start-up with one sentence."""

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from webapp.env import EnvError, env_bool, env_int, env_list, env_str

RunProject = Callable[..., subprocess.CompletedProcess[str]]

REPO_ROOT = Path(__file__).resolve().parents[2]
VARIABLE = "GPU_WHATIF_TEST_VARIABLE"


# --- the typed readers ------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(None, True, id="unset-gives-default"),
        pytest.param("", True, id="empty-gives-default"),
        pytest.param("false", False, id="false"),
        pytest.param("TRUE", True, id="any-case"),
        pytest.param("no", False, id="no"),
        pytest.param("on", True, id="on"),
        pytest.param(" 0 ", False, id="zero-with-spaces"),
    ],
)
def test_env_bool_reads(monkeypatch: pytest.MonkeyPatch, raw: str | None, expected: bool) -> None:
    if raw is not None:
        monkeypatch.setenv(VARIABLE, raw)
    assert env_bool(VARIABLE, True) is expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(None, 7, id="unset-gives-default"),
        pytest.param("10485760", 10_485_760, id="bytes"),
        pytest.param(" 42 ", 42, id="spaces-trimmed"),
        pytest.param("0", 0, id="minimum-itself"),
    ],
)
def test_env_int_reads(monkeypatch: pytest.MonkeyPatch, raw: str | None, expected: int) -> None:
    if raw is not None:
        monkeypatch.setenv(VARIABLE, raw)
    assert env_int(VARIABLE, 7, minimum=0) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(None, ["localhost"], id="unset-gives-default"),
        pytest.param("a.example,b.example", ["a.example", "b.example"], id="two"),
        pytest.param(
            " a.example , b.example, ", ["a.example", "b.example"], id="spaces-and-trailing-comma"
        ),
    ],
)
def test_env_list_reads(
    monkeypatch: pytest.MonkeyPatch, raw: str | None, expected: list[str]
) -> None:
    if raw is not None:
        monkeypatch.setenv(VARIABLE, raw)
    assert env_list(VARIABLE, ["localhost"]) == expected


def test_env_str_treats_empty_as_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VARIABLE, "   ")
    assert env_str(VARIABLE, "fallback") == "fallback"
    monkeypatch.setenv(VARIABLE, "value")
    assert env_str(VARIABLE, "fallback") == "value"


@pytest.mark.parametrize(
    ("read", "raw", "message"),
    [
        pytest.param(
            lambda: env_bool(VARIABLE, True),
            "maybe",
            f"{VARIABLE} must be true or false (or yes/no, on/off, 1/0), got 'maybe'.",
            id="bool-maybe",
        ),
        pytest.param(
            lambda: env_int(VARIABLE, 1),
            "10MB",
            f"{VARIABLE} must be a whole number, got '10MB'.",
            id="int-with-unit",
        ),
        pytest.param(
            lambda: env_int(VARIABLE, 1),
            "1.5",
            f"{VARIABLE} must be a whole number, got '1.5'.",
            id="int-fraction",
        ),
        pytest.param(
            lambda: env_int(VARIABLE, 1, minimum=0),
            "-1",
            f"{VARIABLE} must be at least 0, got -1.",
            id="int-below-minimum",
        ),
        pytest.param(
            lambda: env_list(VARIABLE, []),
            "a.example b.example",
            f"{VARIABLE} must be a comma-separated list, but item 'a.example b.example' contains whitespace.",
            id="list-separated-by-spaces",
        ),
    ],
)
def test_env_readers_refuse_malformed_values(
    monkeypatch: pytest.MonkeyPatch, read: Callable[[], object], raw: str, message: str
) -> None:
    monkeypatch.setenv(VARIABLE, raw)
    with pytest.raises(EnvError) as raised:
        read()
    assert str(raised.value) == message


# --- the settings module, started as a real process --------------------------------


@pytest.mark.parametrize(
    ("environment", "message"),
    [
        pytest.param(
            {"DEBUG": "maybe"},
            "DEBUG must be true or false (or yes/no, on/off, 1/0), got 'maybe'.",
            id="debug-maybe",
        ),
        pytest.param(
            {"DATA_UPLOAD_MAX_MEMORY_SIZE": "10MB"},
            "DATA_UPLOAD_MAX_MEMORY_SIZE must be a whole number, got '10MB'.",
            id="size-with-unit",
        ),
        pytest.param(
            {"FILE_UPLOAD_MAX_MEMORY_SIZE": "-1"},
            "FILE_UPLOAD_MAX_MEMORY_SIZE must be at least 0, got -1.",
            id="negative-size",
        ),
        pytest.param(
            {"ALLOWED_HOSTS": "a.example b.example"},
            "ALLOWED_HOSTS must be a comma-separated list, but item 'a.example b.example' contains whitespace.",
            id="hosts-separated-by-spaces",
        ),
        pytest.param(
            {"DEBUG": "false"},
            "SECRET_KEY must be set when DEBUG is false.",
            id="production-without-secret-key",
        ),
    ],
)
def test_manage_py_refuses_to_start_with_one_sentence(
    run_project: RunProject, environment: dict[str, str], message: str
) -> None:
    completed = run_project("manage.py", "check", **environment)

    assert completed.returncode != 0
    assert completed.stderr == f"Configuration error: {message}\n"


def test_malformed_database_url_names_the_variable_but_not_the_url(run_project: RunProject) -> None:
    completed = run_project("manage.py", "check", DATABASE_URL="nosuchdb://user:hunter2@host/db")

    assert completed.returncode != 0
    assert completed.stderr.startswith(
        "Configuration error: DATABASE_URL is not a database URL Django can use"
    )
    assert "hunter2" not in completed.stderr


def test_wsgi_refuses_to_start_in_production_without_secret_key(run_project: RunProject) -> None:
    # What gunicorn sees: no friendly wrapper, but the last line is the sentence.
    completed = run_project("-c", "import webapp.wsgi", DEBUG="false")

    assert completed.returncode != 0
    assert completed.stderr.strip().splitlines()[-1] == (
        "webapp.env.EnvError: SECRET_KEY must be set when DEBUG is false."
    )


def test_production_settings_pass_the_system_check(run_project: RunProject) -> None:
    completed = run_project(
        "manage.py", "check", DEBUG="false", SECRET_KEY="x" * 50, ALLOWED_HOSTS="gpu.example"
    )

    assert completed.returncode == 0, completed.stderr


SETTINGS_SNAPSHOT_SCRIPT = """
import json
from django.conf import settings
database = settings.DATABASES["default"]
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "ENGINE": database["ENGINE"],
    "NAME": str(database["NAME"]),
    "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
    "CELERY_RESULT_BACKEND": settings.CELERY_RESULT_BACKEND,
    "STATIC_ROOT": str(settings.STATIC_ROOT),
    "STATICFILES_BACKEND": settings.STORAGES["staticfiles"]["BACKEND"],
    "DATA_UPLOAD_MAX_MEMORY_SIZE": settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
}))
"""


def settings_seen_by_a_process(run_project: RunProject, **environment: str) -> dict[str, object]:
    completed = run_project("-c", SETTINGS_SNAPSHOT_SCRIPT, **environment)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def test_no_environment_gives_the_embedded_developer_setup(
    run_project: RunProject, tmp_path: Path
) -> None:
    seen = settings_seen_by_a_process(run_project)

    assert seen == {
        "DEBUG": True,
        "ALLOWED_HOSTS": [],
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(REPO_ROOT / "db.sqlite3"),
        "CELERY_BROKER_URL": "filesystem://localhost//",
        "CELERY_RESULT_BACKEND": f"file://{tmp_path / 'var' / 'celery' / 'results'}",
        "STATIC_ROOT": str(tmp_path / "var" / "static"),
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
        "DATA_UPLOAD_MAX_MEMORY_SIZE": 10 * 1024 * 1024,
    }


def test_production_environment_is_honoured(run_project: RunProject, tmp_path: Path) -> None:
    seen = settings_seen_by_a_process(
        run_project,
        DEBUG="false",
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="gpu.example,gpu-internal.example",
        DATABASE_URL="postgres://whatif@db.example:5432/whatif",
        CELERY_BROKER_URL="redis://redis.example:6379/0",
        DATA_UPLOAD_MAX_MEMORY_SIZE="52428800",
    )

    assert seen == {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["gpu.example", "gpu-internal.example"],
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "whatif",
        "CELERY_BROKER_URL": "redis://redis.example:6379/0",
        # Results travel back through the broker's Redis unless told otherwise.
        "CELERY_RESULT_BACKEND": "redis://redis.example:6379/0",
        "STATIC_ROOT": str(tmp_path / "var" / "static"),
        "STATICFILES_BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage",
        "DATA_UPLOAD_MAX_MEMORY_SIZE": 52_428_800,
    }


# --- what the loaded settings promise ------------------------------------------------


@pytest.mark.parametrize(
    "app",
    [
        "django.contrib.admin",
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "django.contrib.messages",
        "django.contrib.staticfiles",
        "rest_framework",
        "rest_framework.authtoken",
        "django_filters",
        "drf_spectacular",
        "webapp.core",
        "webapp.health",
    ],
)
def test_installed_apps_include(app: str) -> None:
    assert app in settings.INSTALLED_APPS


def test_rest_framework_defaults() -> None:
    rest = settings.REST_FRAMEWORK

    assert rest["DEFAULT_AUTHENTICATION_CLASSES"] == [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ]
    assert rest["DEFAULT_FILTER_BACKENDS"] == ["django_filters.rest_framework.DjangoFilterBackend"]
    assert rest["DEFAULT_SCHEMA_CLASS"] == "drf_spectacular.openapi.AutoSchema"
    assert rest["PAGE_SIZE"] > 0


# --- the project boots: home page, headers, static files ---------------------------


def test_home_page_names_the_product_and_links_admin_and_health(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>gpu-whatif</h1>" in page
    assert 'href="/admin/"' in page
    assert 'href="/health/"' in page
    assert '<main id="main"' in page
    # A Content-Security-Policy without 'unsafe-inline' is coming: no inline scripts or styles.
    assert re.search(r"<script(?![^>]*\ssrc=)[^>]*>", page) is None
    assert "<style" not in page
    assert " style=" not in page


def test_pages_carry_the_security_headers(client: Client) -> None:
    response = client.get("/")

    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_whitenoise_serves_the_stylesheet(client: Client) -> None:
    if not settings.WHITENOISE_USE_FINDERS:
        pytest.skip("DEBUG is off in this run, so static files come from collectstatic only")
    response = client.get("/static/css/site.css")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
