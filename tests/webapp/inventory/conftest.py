"""Builders shared by the inventory tests: users, the seed files, archives made in memory."""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

REPO = Path(__file__).resolve().parents[3]
SEED_CLUSTER = REPO / "tests" / "fixtures" / "seed-cluster"
ARTICLE_DIR = REPO.parent / "shared" / "examples" / "seed-article"
# Two article files are pod-spec fragments, not objects, which the engine
# rejects; example 11's PriorityClass is also in the seed cluster's
# priorityclasses.yaml (with the two classes examples 17 and 18 name).
ARTICLE_LEFT_OUT = ("03-", "05-", "11-")


def upload(name: str, data: bytes | str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data.encode() if isinstance(data, str) else data)


def zip_of(members: dict[str, bytes], name: str = "manifests.zip") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return upload(name, buffer.getvalue())


def tar_of(members: dict[str, bytes], name: str = "manifests.tar.gz") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for member, data in members.items():
            info = tarfile.TarInfo(member)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return upload(name, buffer.getvalue())


@pytest.fixture
def seed_cluster_files() -> dict[str, bytes]:
    return {
        "nodes.yaml": (SEED_CLUSTER / "nodes.yaml").read_bytes(),
        "running-pods.yaml": (SEED_CLUSTER / "running-pods.yaml").read_bytes(),
    }


@pytest.fixture
def seed_article_files() -> dict[str, bytes]:
    """The article's manifests and the priority classes they name (ARTICLE_LEFT_OUT aside)."""
    if not ARTICLE_DIR.is_dir():
        pytest.skip(f"the seed article's manifests are not at {ARTICLE_DIR}")
    files = {
        path.name: path.read_bytes()
        for path in sorted(ARTICLE_DIR.glob("*.yaml"))
        if not path.name.startswith(ARTICLE_LEFT_OUT)
    }
    files["priorityclasses.yaml"] = (SEED_CLUSTER / "priorityclasses.yaml").read_bytes()
    return files


@pytest.fixture
def as_uploads() -> Callable[[dict[str, bytes]], list[SimpleUploadedFile]]:
    return lambda files: [upload(name, data) for name, data in files.items()]


@pytest.fixture
def user(db: None):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(
        "alice"
    )  # no password: fast, and force_login needs none


@pytest.fixture
def other_user(db: None):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user("bob")


@pytest.fixture
def alice(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client
