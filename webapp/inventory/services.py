"""Storing what users bring: cluster inventories and workload mixes (the writes).

An upload is stored whole or not at all: every file is read and ingested by
the engine first, and any problem (an unsafe archive, a YAML error, a bad
quantity, an inventory without nodes) rejects the upload with every problem
listed, before a single row is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from django.db import models, transaction

from engine.ingest import IngestResult
from engine.ingest.loader import finish, read_text
from webapp.inventory.models import ClusterInventory, StoredFile, WorkloadMix
from webapp.inventory.summaries import summary_of
from webapp.inventory.uploads import Upload, UploadedFileLike, UploadRejected, upload_collect

__all__ = [
    "InUse",
    "UploadRejected",
    "inventory_create",
    "inventory_delete",
    "workload_mix_create",
    "workload_mix_delete",
]

NO_NODES = (
    "no Node objects found: a cluster inventory needs the cluster's nodes"
    " (for example the output of kubectl get nodes,pods -A -o yaml)."
)
NO_PODS_TO_PLACE = (
    "no pods to place found: a workload mix needs Pods without spec.nodeName,"
    " or workloads (Deployment, StatefulSet, Job, ...) whose pods the engine expands."
)

Files = Iterable[UploadedFileLike | tuple[str, str]]
Stored = TypeVar("Stored", ClusterInventory, WorkloadMix)


class InUse(Exception):
    """The object cannot be deleted while scenarios use it; str() says which."""


def ingest_upload(upload: Upload) -> IngestResult:
    """Ingest every file in order, then run the checks across files once.

    The same result as `ingest_text` per file folded with `IngestResult.merge`,
    but linear: merge re-runs the cross-file checks over everything read so
    far, which is quadratic over an archive of 2,000 small files.
    """
    result = IngestResult()
    for name, text in upload.files:
        read_text(text, name, result)
    finish(result)
    return result


def inventory_create(
    *, owner: Any, name: str, description: str = "", files: Files
) -> ClusterInventory:
    """Store a cluster inventory, or raise UploadRejected listing every problem."""
    return _create(
        ClusterInventory,
        "inventory",
        owner=owner,
        name=name,
        description=description,
        files=files,
        missing=lambda result: None if result.nodes else NO_NODES,
    )


def workload_mix_create(
    *, owner: Any, name: str, description: str = "", files: Files
) -> WorkloadMix:
    """Store a workload mix, or raise UploadRejected listing every problem."""
    return _create(
        WorkloadMix,
        "workload",
        owner=owner,
        name=name,
        description=description,
        files=files,
        missing=lambda result: (
            None if any(not pod.node_name for pod in result.pods) else NO_PODS_TO_PLACE
        ),
    )


def _create(
    model: type[Stored],
    file_field: str,
    *,
    owner: Any,
    name: str,
    description: str,
    files: Files,
    missing: Any,
) -> Stored:
    upload = upload_collect(files)
    if not upload.complete:  # over the size cap: not worth ingesting the rest
        raise UploadRejected(upload.problems)
    # The files that could be read are ingested even when others could not,
    # so one rejection lists every problem of the upload.
    result = ingest_upload(upload)
    problems = upload.problems + [str(error) for error in result.errors]
    if not problems and (absent := missing(result)):
        problems.append(absent)
    if problems:
        raise UploadRejected(problems)
    with transaction.atomic():
        stored = model.objects.create(
            owner=owner,
            name=name.strip(),
            description=description.strip(),
            summary=summary_of(result, skipped_files=upload.skipped),
        )
        StoredFile.objects.bulk_create(
            StoredFile(
                **{file_field: stored},
                name=file_name,
                content=text,
                size_bytes=len(text.encode("utf-8")),
            )
            for file_name, text in upload.files
        )
    return stored


def inventory_delete(*, inventory: ClusterInventory) -> None:
    """Delete an inventory and its files; raise InUse while a scenario uses it."""
    _delete(inventory, "Cluster inventory")


def workload_mix_delete(*, workload_mix: WorkloadMix) -> None:
    """Delete a workload mix and its files; raise InUse while a scenario uses it."""
    _delete(workload_mix, "Workload mix")


def _delete(stored: ClusterInventory | WorkloadMix, label: str) -> None:
    try:
        with transaction.atomic():
            stored.delete()
    except models.ProtectedError as error:
        names = sorted(_scenario_names(error.protected_objects))
        shown = ", ".join(f'"{n}"' for n in names[:5]) + (" and more" if len(names) > 5 else "")
        raise InUse(
            f'{label} "{stored.name}" is used by scenario {shown}; delete those scenarios first.'
            if len(names) == 1
            else f'{label} "{stored.name}" is used by scenarios {shown};'
            " delete those scenarios first."
        ) from None


def _scenario_names(objects: Sequence[Any] | Any) -> set[str]:
    """Scenarios behind protecting rows (scenarios themselves, or runs of their variants)."""
    names: set[str] = set()
    for obj in objects:
        scenario = getattr(obj, "scenario", None) or getattr(
            getattr(obj, "variant", None), "scenario", None
        )
        names.add(str(getattr(scenario, "name", None) or getattr(obj, "name", obj)))
    return names
