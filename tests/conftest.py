"""Fixtures shared by the whole suite: the machine's services, and subprocesses of this project.

Real services. The development and CI machines run PostgreSQL (127.0.0.1:5432,
trust auth, database ``test``, user ``postgres``) and Redis (127.0.0.1:6379).
A test that needs one asks for the ``postgres_url`` or ``redis_url`` fixture,
or carries the ``postgres`` or ``redis`` marker (each implies the other, so
``-m "not postgres"`` deselects every such test). When the service does not
answer, the test is skipped with the reason; with CI=true it fails instead,
because on CI a missing service is a broken machine, not an optional extra.

Whole Django test database on PostgreSQL. pytest-django builds the test
database from settings, which default to SQLite. Run

    GPU_WHATIF_TEST_DATABASE=postgres .venv/bin/python -m pytest

to run every ``django_db`` test on the PostgreSQL above instead; pytest-django
then creates and drops the database ``test_test`` there.
"""

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import dj_database_url
import psycopg
import pytest
import redis

REPO_ROOT = Path(__file__).resolve().parent.parent

POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test"
# Database 15 keeps test keys away from anything a developer keeps in database 0.
REDIS_URL = "redis://127.0.0.1:6379/15"
SERVICE_TIMEOUT_SECONDS = 3

TEST_DATABASE_VARIABLE = "GPU_WHATIF_TEST_DATABASE"

# Variables webapp/settings.py reads. Subprocess tests start without any of
# them, so a developer's shell cannot change what a test sees.
SETTINGS_VARIABLES = frozenset(
    {
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "VAR_DIR",
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "CELERY_RESULT_BACKEND",
        "DATA_UPLOAD_MAX_MEMORY_SIZE",
        "FILE_UPLOAD_MAX_MEMORY_SIZE",
        "DATA_UPLOAD_MAX_NUMBER_FILES",
        "SECURE_COOKIES",
    }
)


def running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def service_unavailable(reason: str) -> NoReturn:
    """Skip the test, or fail it on CI where every service must be present."""
    if running_in_ci():
        pytest.fail(f"{reason} (CI=true, so the machine must provide it)", pytrace=False)
    pytest.skip(reason)


def postgres_problem() -> str | None:
    """None when the PostgreSQL server answers, else why it does not."""
    try:
        with psycopg.connect(POSTGRES_URL, connect_timeout=SERVICE_TIMEOUT_SECONDS) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        return f"PostgreSQL at {POSTGRES_URL} is unreachable: {first_line}"
    return None


def redis_problem() -> str | None:
    """None when the Redis server answers PING, else why it does not."""
    client = redis.Redis.from_url(
        REDIS_URL,
        socket_connect_timeout=SERVICE_TIMEOUT_SECONDS,
        socket_timeout=SERVICE_TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    except redis.RedisError as error:
        return f"Redis at {REDIS_URL} is unreachable: {error}"
    finally:
        client.close()
    return None


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of the machine's PostgreSQL database ``test``; skips (fails on CI) without it."""
    problem = postgres_problem()
    if problem:
        service_unavailable(problem)
    return POSTGRES_URL


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of a Redis database for tests; skips (fails on CI) without the server."""
    problem = redis_problem()
    if problem:
        service_unavailable(problem)
    return REDIS_URL


@pytest.fixture(autouse=True)
def _require_marked_services(request: pytest.FixtureRequest) -> None:
    """Give tests marked ``postgres`` or ``redis`` the service check of the fixture."""
    if request.node.get_closest_marker("postgres"):
        request.getfixturevalue("postgres_url")
    if request.node.get_closest_marker("redis"):
        request.getfixturevalue("redis_url")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark tests that use a service fixture, so ``-m`` selects them either way."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "postgres_url" in fixtures:
            item.add_marker(pytest.mark.postgres)
        if "redis_url" in fixtures:
            item.add_marker(pytest.mark.redis)


def pytest_configure(config: pytest.Config) -> None:
    choice = os.environ.get(TEST_DATABASE_VARIABLE, "").strip().lower()
    if choice in {"", "sqlite"}:
        return
    if choice != "postgres":
        raise pytest.UsageError(
            f"{TEST_DATABASE_VARIABLE} must be sqlite or postgres, got {choice!r}."
        )
    problem = postgres_problem()
    if problem:
        raise pytest.UsageError(f"{TEST_DATABASE_VARIABLE}=postgres, but {problem}")
    use_for_default_database(POSTGRES_URL)


def use_for_default_database(url: str) -> None:
    """Point the ``default`` database at ``url`` after settings were loaded.

    pytest-django imports the settings before any conftest runs, so setting
    DATABASE_URL here would be too late. The settings dict is changed in
    place because Django's connection handler holds that very dict; Django's
    defaults for the new entry are then filled in again, and a connection
    object already built for the old engine is dropped.
    """
    from django.conf import settings
    from django.db import connections

    default = settings.DATABASES["default"]
    default.clear()
    default.update(dj_database_url.parse(url))
    connections.configure_settings(settings.DATABASES)
    with contextlib.suppress(AttributeError):
        del connections["default"]


@pytest.fixture
def project_env(tmp_path: Path) -> Callable[..., dict[str, str]]:
    """Build the environment for a subprocess of this project.

    Starts from this process's environment without the settings variables,
    keeps local state (VAR_DIR) in the test's temporary folder, then applies
    the overrides given as keyword arguments.
    """

    def build(**overrides: str) -> dict[str, str]:
        env = {name: value for name, value in os.environ.items() if name not in SETTINGS_VARIABLES}
        env["DJANGO_SETTINGS_MODULE"] = "webapp.settings"
        env["VAR_DIR"] = str(tmp_path / "var")
        env["PYTHONUNBUFFERED"] = "1"
        env.update(overrides)
        return env

    return build


@pytest.fixture
def run_project(
    project_env: Callable[..., dict[str, str]],
) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python ARGS...`` in the repository root with a clean project environment.

    Example: ``run_project("manage.py", "check", DEBUG="false", timeout=30)``.
    """

    def run(
        *args: str, timeout: float = 60, **env_overrides: str
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *args],
            cwd=REPO_ROOT,
            env=project_env(**env_overrides),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    return run


@pytest.fixture
def throwaway_postgres_database(postgres_url: str) -> Iterator[str]:
    """URL of a fresh, empty PostgreSQL database, dropped after the test."""
    name = f"gpu_whatif_tmp_{os.getpid()}_{os.urandom(4).hex()}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield postgres_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
