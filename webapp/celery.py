"""The Celery app ``webapp``, configured from Django settings (namespace CELERY).

Runs are Celery tasks; the database row is their truth (see DESIGN.md). The
broker is Redis when CELERY_BROKER_URL is set, otherwise the embedded folder
queue under var/celery described in settings.py.
"""

import os
from pathlib import Path
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")

app = Celery("webapp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def create_embedded_queue_folders(sender: Celery, source: Any, **kwargs: Any) -> None:
    """Create the folders of the embedded queue and results, which kombu expects to exist.

    Runs once, when the configuration is first read, in the web process and
    the worker alike, so whichever starts first finds the folders ready.
    """
    if not source.broker_url.startswith("filesystem://"):
        return
    options = source.broker_transport_options
    folders = [options["data_folder_in"], options["data_folder_out"], options["control_folder"]]
    if source.result_backend.startswith("file://"):
        folders.append(source.result_backend.removeprefix("file://"))
    for folder in folders:
        Path(folder).mkdir(parents=True, exist_ok=True)
