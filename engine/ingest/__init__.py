"""Kubernetes objects in, engine objects out: `ingest_paths` for files and
folders, `ingest_text` for uploads. Problems come back as IngestErrors in
the result, never as exceptions."""

from engine.ingest.fields import IngestError
from engine.ingest.loader import ingest_paths, ingest_text
from engine.ingest.result import Controller, IngestResult, NotSimulated

__all__ = [
    "Controller",
    "IngestError",
    "IngestResult",
    "NotSimulated",
    "ingest_paths",
    "ingest_text",
]
