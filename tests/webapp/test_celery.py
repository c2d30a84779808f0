"""The Celery app: its configuration, and a real worker process answering a task.

Worker and client run as subprocesses, each reading the settings fresh from
its environment, exactly as `celery -A webapp worker` and the web process do.
Every wait is bounded, and the worker is stopped even when the test fails.
"""

import contextlib
import json
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

RunProject = Callable[..., subprocess.CompletedProcess[str]]
ProjectEnv = Callable[..., dict[str, str]]

REPO_ROOT = Path(__file__).resolve().parents[2]
RESULT_TIMEOUT_SECONDS = 30

CONFIG_SCRIPT = """
import json
from webapp.celery import app
app.loader.import_default_modules()
print(json.dumps({
    "main": app.main,
    "broker_url": app.conf.broker_url,
    "result_backend": app.conf.result_backend,
    "task_serializer": app.conf.task_serializer,
    "timezone": app.conf.timezone,
    "ping_registered": "webapp.core.tasks.ping" in app.tasks,
}))
"""

# Sends ping to QUEUE and prints what came back, and through which backend.
PING_SCRIPT = """
import json, sys
import django
django.setup()
from webapp.core.tasks import ping
result = ping.apply_async(queue=sys.argv[1])
answer = result.get(timeout=float(sys.argv[2]))
print(json.dumps({"answer": answer, "backend": type(result.backend).__name__}))
"""


@contextlib.contextmanager
def celery_worker(
    env: dict[str, str], queue: str, log_path: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A `celery -A webapp worker` consuming only ``queue``; terminated on exit."""
    with log_path.open("wb") as log:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "webapp",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                # A one-off worker has no peers to sync with or report to.
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                f"--queues={queue}",
                f"--hostname={queue}@%h",
            ],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        yield worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=10)


def ping_through_a_worker(env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """Start a worker, send it ping from another process, return the client's report."""
    # A queue of its own, so no other worker on the same broker takes the task.
    queue = f"gpu-whatif-test-{uuid.uuid4().hex[:12]}"
    log_path = tmp_path / "worker.log"
    with celery_worker(env, queue, log_path) as worker:
        client = subprocess.run(
            [sys.executable, "-c", PING_SCRIPT, queue, str(RESULT_TIMEOUT_SECONDS)],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=RESULT_TIMEOUT_SECONDS + 30,
            check=False,
        )
        still_running = worker.poll() is None
    worker_log = log_path.read_text(errors="replace")
    assert still_running, f"the worker exited early:\n{worker_log}"
    assert client.returncode == 0, f"client:\n{client.stderr}\nworker:\n{worker_log}"
    return json.loads(client.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("environment", "expected_broker", "expected_backend"),
    [
        pytest.param({}, "filesystem://localhost//", "file://{var}/celery/results", id="embedded"),
        pytest.param(
            {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/15"},
            "redis://127.0.0.1:6379/15",
            "redis://127.0.0.1:6379/15",
            id="redis",
        ),
    ],
)
def test_celery_app_reads_its_configuration_from_django_settings(
    run_project: RunProject,
    tmp_path: Path,
    environment: dict[str, str],
    expected_broker: str,
    expected_backend: str,
) -> None:
    completed = run_project("-c", CONFIG_SCRIPT, **environment)

    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == {
        "main": "webapp",
        "broker_url": expected_broker,
        "result_backend": expected_backend.format(var=tmp_path / "var"),
        "task_serializer": "json",
        "timezone": "UTC",
        "ping_registered": True,
    }


def test_embedded_configuration_creates_its_queue_folders(
    run_project: RunProject, tmp_path: Path
) -> None:
    completed = run_project("-c", CONFIG_SCRIPT)

    assert completed.returncode == 0, completed.stderr
    celery_folder = tmp_path / "var" / "celery"
    assert sorted(path.name for path in celery_folder.iterdir()) == ["control", "queue", "results"]


def test_embedded_worker_runs_a_task_without_redis(project_env: ProjectEnv, tmp_path: Path) -> None:
    report = ping_through_a_worker(project_env(), tmp_path)

    assert report == {"answer": "pong", "backend": "FilesystemBackend"}


def test_worker_runs_a_task_through_redis(
    project_env: ProjectEnv, tmp_path: Path, redis_url: str
) -> None:
    report = ping_through_a_worker(project_env(CELERY_BROKER_URL=redis_url), tmp_path)

    assert report == {"answer": "pong", "backend": "RedisBackend"}
