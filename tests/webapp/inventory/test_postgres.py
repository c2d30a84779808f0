"""The upload service on the machine's PostgreSQL: stored whole, or rolled back whole.

The suite's own database is SQLite unless GPU_WHATIF_TEST_DATABASE=postgres
(tests/conftest.py); this test needs PostgreSQL either way, so it migrates a
throwaway database and runs the service in a project subprocess pointed at it.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable

RunProject = Callable[..., subprocess.CompletedProcess[str]]

SCRIPT = """
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from django.db import connection
from webapp.inventory import services
from webapp.inventory.models import ClusterInventory, StoredFile

owner = get_user_model().objects.create_user("alice")
files = [(name, open(path, encoding="utf-8").read()) for name, path in (
    ("nodes.yaml", "tests/fixtures/seed-cluster/nodes.yaml"),
    ("running-pods.yaml", "tests/fixtures/seed-cluster/running-pods.yaml"),
)]
stored = services.inventory_create(owner=owner, name="seed", files=files)
try:
    services.inventory_create(owner=owner, name="bad", files=files + [("bad.yaml", "a: [1\\n")])
except services.UploadRejected as rejected:
    problems = rejected.problems
summary = ClusterInventory.objects.get(pk=stored.pk).summary
print(json.dumps({
    "vendor": connection.vendor,
    "inventories": ClusterInventory.objects.count(),
    "files": StoredFile.objects.count(),
    "nodes": summary["nodes"],
    "gpus_total": summary["gpus_total"],
    "problems": problems,
}))
"""


def test_upload_service_on_postgres(
    run_project: RunProject, throwaway_postgres_database: str
) -> None:
    migrated = run_project(
        "manage.py", "migrate", "--noinput", DATABASE_URL=throwaway_postgres_database, timeout=120
    )
    assert migrated.returncode == 0, migrated.stderr

    ran = run_project("-c", SCRIPT, DATABASE_URL=throwaway_postgres_database, timeout=120)
    assert ran.returncode == 0, ran.stderr
    answer = json.loads(ran.stdout.strip().splitlines()[-1])
    assert answer == {
        "vendor": "postgresql",
        "inventories": 1,  # the rejected upload left nothing behind
        "files": 2,
        "nodes": 16,
        "gpus_total": 82,
        "problems": [
            "bad.yaml:2: invalid YAML: did not find expected ',' or ']' while parsing"
            " a flow sequence (line 2, column 1)"
        ],
    }
