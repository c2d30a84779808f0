"""GET /health/: 200 when the database answers, 503 with one sentence when it does not."""

import json
import subprocess
from collections.abc import Callable
from unittest import mock

import pytest
from django.db import OperationalError, connections
from django.test import Client

RunProject = Callable[..., subprocess.CompletedProcess[str]]

HEALTHY = {"status": "ok", "database": "ok"}
UNREACHABLE = {
    "status": "error",
    "database": "The database did not answer a trivial query (OperationalError).",
}

# Asks the project's own /health/ view, in a subprocess whose DATABASE_URL
# points where the test wants: the settings of this process cannot be
# re-pointed at another server, a subprocess reads them fresh.
HEALTH_REQUEST_SCRIPT = """
import json
import django
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
response = Client().get("/health/")
print(json.dumps({"status_code": response.status_code, "body": response.json()}))
"""


def ask_health(run_project: RunProject, database_url: str) -> tuple[int, dict[str, str]]:
    completed = run_project("-c", HEALTH_REQUEST_SCRIPT, DATABASE_URL=database_url, timeout=60)
    assert completed.returncode == 0, completed.stderr
    answer = json.loads(completed.stdout.strip().splitlines()[-1])
    return answer["status_code"], answer["body"]


@pytest.mark.django_db
def test_health_is_ok_when_the_database_answers(client: Client) -> None:
    response = client.get("/health/")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == HEALTHY
    # A cached "ok" would hide an outage from the load balancer.
    assert "no-cache" in response["Cache-Control"]


def test_health_is_503_with_one_sentence_when_the_database_is_unreachable(client: Client) -> None:
    refused = OperationalError(
        'connection to server at "db.internal" (10.0.0.7), port 5432 failed: Connection refused'
    )
    with mock.patch.object(connections["default"], "cursor", side_effect=refused):
        response = client.get("/health/")

    assert response.status_code == 503
    assert response.json() == UNREACHABLE
    body = response.content.decode()
    assert "Traceback" not in body
    # The driver's text names hosts; the public endpoint must not repeat it.
    assert "db.internal" not in body


def test_health_answers_only_get(client: Client) -> None:
    assert client.post("/health/").status_code == 405


def test_health_is_503_when_the_database_server_refuses_connections(
    run_project: RunProject,
) -> None:
    # Port 1 on the loopback refuses at once: a real unreachable server, no mock.
    status_code, body = ask_health(run_project, "postgres://postgres@127.0.0.1:1/test")

    assert (status_code, body) == (503, UNREACHABLE)


def test_check_passes_against_postgres(run_project: RunProject, postgres_url: str) -> None:
    completed = run_project(
        "manage.py", "check", "--database", "default", DATABASE_URL=postgres_url
    )

    assert completed.returncode == 0, completed.stderr
    assert "System check identified no issues" in completed.stdout


def test_migrate_then_health_on_a_fresh_postgres_database(
    run_project: RunProject, throwaway_postgres_database: str
) -> None:
    migrated = run_project(
        "manage.py", "migrate", "--noinput", DATABASE_URL=throwaway_postgres_database, timeout=120
    )
    assert migrated.returncode == 0, migrated.stderr

    assert ask_health(run_project, throwaway_postgres_database) == (200, HEALTHY)
