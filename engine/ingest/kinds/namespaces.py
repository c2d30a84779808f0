"""Namespace: its labels, which namespaceSelector terms match."""

from __future__ import annotations

from engine.ingest.kinds.common import Document, start
from engine.ingest.result import IngestResult
from engine.model.objects import Namespace

# Set on every namespace by the API server (NamespaceDefaultLabelName).
METADATA_NAME_LABEL = "kubernetes.io/metadata.name"


def read_namespace(doc: Document, out: IngestResult) -> None:
    meta, _ = start(doc, out, namespaced=False)
    labels = {**meta.labels, METADATA_NAME_LABEL: meta.name}
    out.namespaces.append(Namespace(meta.name, tuple(sorted(labels.items())), doc.source))
