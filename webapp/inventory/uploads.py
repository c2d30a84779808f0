"""An upload, turned into the text files inside it.

Users bring YAML or JSON files (several at once, a folder's worth) or one
archive of them (.zip, .tar.gz / .tgz, .tar). `upload_read` returns every
file as (name, text), archive members in sorted order, or raises
`UploadRejected` with one sentence per problem, each naming the file.

Archives come from strangers, so they are read defensively, never extracted
to disk:
1. Member names must be relative paths without `..` (a name is only ever a
   label here, but a traversal attempt is refused rather than tolerated).
2. Symbolic and hard links, devices and FIFOs are refused; directories skipped.
3. At most MAX_ARCHIVE_MEMBERS members.
4. The uncompressed total of everything uploaded is capped by
   settings.GPU_WHATIF_MAX_UPLOAD_BYTES, checked from each header before a
   member is read AND while reading, so a header that lies (a zip bomb)
   is stopped once the cap is passed, not after decompressing gigabytes.
Members that are not .yaml/.yml/.json (a README, __MACOSX/ or .git/ files)
are skipped and listed, as the engine skips them when it reads a folder.
"""

from __future__ import annotations

import stat
import tarfile
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Protocol

from django.conf import settings

from engine.ingest.loader import SUFFIXES

DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_ARCHIVE_MEMBERS = 2_000
ZIP_SUFFIXES = (".zip",)
TAR_SUFFIXES = (".tar.gz", ".tgz", ".tar")
CHUNK_BYTES = 1024 * 1024


class UploadRejected(Exception):
    """The upload cannot be stored; `problems` says why, one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class UploadedFileLike(Protocol):
    """What Django's UploadedFile offers and this module uses."""

    name: str | None

    def read(self, size: int = -1) -> bytes: ...

    def seek(self, offset: int, whence: int = 0) -> int: ...


@dataclass
class Upload:
    """The text files of one upload, and archive members skipped as not manifests."""

    files: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    # Why files were refused, one sentence each naming the file.
    problems: list[str] = field(default_factory=list)
    # False when reading stopped early (the size cap): `files` is then partial.
    complete: bool = True

    @property
    def total_bytes(self) -> int:
        return sum(len(text.encode("utf-8")) for _, text in self.files)


class _TooBig(Exception):
    """The byte budget ran out; stops reading at once."""


def max_upload_bytes() -> int:
    return int(getattr(settings, "GPU_WHATIF_MAX_UPLOAD_BYTES", DEFAULT_MAX_UPLOAD_BYTES))


def upload_read(files: Iterable[UploadedFileLike | tuple[str, str]]) -> Upload:
    """Read every uploaded file (or already-read (name, text) pair) into text files.

    Raises UploadRejected listing every problem found.
    """
    upload = upload_collect(files)
    if upload.problems:
        raise UploadRejected(upload.problems)
    return upload


def upload_collect(files: Iterable[UploadedFileLike | tuple[str, str]]) -> Upload:
    """Like upload_read, but the problems come back in `Upload.problems` beside
    the files that could be read, so a caller can check those too. Reading
    stops at the first problem that makes going on pointless (the size cap).
    """
    reader = _Reader(max_upload_bytes())
    try:
        for item in files:
            if isinstance(item, tuple):
                name, text = item
                reader.budget(name, len(text.encode("utf-8")))
                reader.add_text(name, text)
            else:
                reader.read_upload(item)
    except _TooBig:
        reader.upload.complete = False
    if not reader.problems and not reader.upload.files:
        reader.problems.append(
            "The upload holds no YAML or JSON files: choose .yaml, .yml or .json files,"
            " or a .zip or .tar.gz archive of them."
        )
    reader.upload.problems = reader.problems
    return reader.upload


class _Reader:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.upload = Upload()
        self.problems: list[str] = []
        self.names: set[str] = set()

    # --- the byte budget shared by every file of the upload -------------------

    def budget(self, name: str, size: int) -> None:
        """Spend `size` bytes of the cap on `name`, or reject the upload."""
        if self.used + size > self.limit:
            self.problems.append(
                f"{name}: the upload is larger than the limit of {_mib(self.limit)}"
                " uncompressed; split it or leave out what the simulation does not need."
            )
            raise _TooBig
        self.used += size

    def read_capped(self, name: str, stream: Readable, declared: int) -> bytes:
        """Read a member whose header claims `declared` bytes, never past the cap."""
        self.budget(name, declared)
        allowance = self.limit - self.used + declared  # what is left, counting this member
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = stream.read(min(CHUNK_BYTES, allowance - total + 1))
            if not chunk:
                break
            total += len(chunk)
            if total > allowance:
                self.problems.append(
                    f"{name}: the member is larger than its archive header says and passes"
                    f" the upload limit of {_mib(self.limit)}; the archive was not read further."
                )
                raise _TooBig
            chunks.append(chunk)
        self.used += total - declared
        return b"".join(chunks)

    # --- files ----------------------------------------------------------------------

    def add_text(self, name: str, text: str) -> None:
        if name in self.names:
            self.problems.append(f"{name}: the upload holds two files with this name.")
            return
        if "\x00" in text:
            self.problems.append(f"{name}: not a text file (it contains a NUL character).")
            return
        self.names.add(name)
        self.upload.files.append((name, text.removeprefix("\ufeff")))

    def add_bytes(self, name: str, data: bytes) -> None:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            self.problems.append(f"{name}: not UTF-8 text (byte {error.start}).")
            return
        self.add_text(name, text)

    def read_upload(self, uploaded: UploadedFileLike) -> None:
        name = PurePosixPath((uploaded.name or "upload").replace("\\", "/")).name or "upload"
        lowered = name.lower()
        uploaded.seek(0)
        if lowered.endswith(ZIP_SUFFIXES):
            self.read_zip(name, uploaded)
        elif lowered.endswith(TAR_SUFFIXES):
            self.read_tar(name, uploaded)
        elif lowered.endswith(SUFFIXES):
            size = getattr(uploaded, "size", None)
            if isinstance(size, int):
                self.budget(name, size)
                self.add_bytes(name, uploaded.read())
            else:
                self.add_bytes(name, self.read_capped(name, uploaded, 0))
        else:
            self.problems.append(
                f"{name}: not a file this app reads; upload .yaml, .yml or .json files,"
                " or a .zip or .tar.gz archive of them."
            )

    # --- archives ---------------------------------------------------------------------

    def member_name(self, archive: str, raw: str) -> str | None:
        """The member's relative name, or None (with a problem) if it is unsafe."""
        name = raw.replace("\\", "/")
        if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
            self.problems.append(
                f"{archive}: member {raw!r} has an absolute path; archives must hold relative paths."
            )
            return None
        parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
        if ".." in parts:
            self.problems.append(
                f"{archive}: member {raw!r} points outside the archive (it contains '..')."
            )
            return None
        return "/".join(parts)

    def wanted(self, name: str) -> bool:
        """Manifests only; other members (README, __MACOSX/, .git/) are listed as skipped."""
        parts = name.split("/")
        hidden = any(p.startswith(".") for p in parts) or parts[0] == "__MACOSX"
        if name.lower().endswith(SUFFIXES) and not hidden:
            return True
        self.upload.skipped.append(name)
        return False

    def too_many(self, archive: str, count: int) -> bool:
        if count > MAX_ARCHIVE_MEMBERS:
            self.problems.append(
                f"{archive}: the archive has more than {MAX_ARCHIVE_MEMBERS:,} members;"
                " upload fewer files at a time."
            )
            return True
        return False

    def read_zip(self, archive: str, stream: UploadedFileLike) -> None:
        try:
            with zipfile.ZipFile(stream) as zf:
                members = zf.infolist()
                if self.too_many(archive, len(members)):
                    return
                # 1. Check every header before reading any data.
                accepted: list[tuple[str, zipfile.ZipInfo]] = []
                problems_before = len(self.problems)
                for info in members:
                    name = self.member_name(archive, info.filename)
                    if name is None or info.is_dir():
                        continue
                    if stat.S_ISLNK(info.external_attr >> 16):
                        self.problems.append(
                            f"{archive}: member {info.filename!r} is a symbolic link;"
                            " archives must hold regular files only."
                        )
                        continue
                    if self.wanted(name):
                        accepted.append((name, info))
                if len(self.problems) > problems_before:
                    return
                declared = sum(info.file_size for _, info in accepted)
                if self.used + declared > self.limit:
                    self.budget(archive, declared)
                # 2. Read, in sorted order, each member capped by the budget.
                for name, info in sorted(accepted, key=lambda pair: pair[0]):
                    with zf.open(info) as member:
                        self.add_bytes(name, self.read_capped(name, member, info.file_size))
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError) as error:
            self.problems.append(f"{archive}: not a readable zip archive ({_reason(error)}).")

    def read_tar(self, archive: str, stream: UploadedFileLike) -> None:
        try:
            with tarfile.open(fileobj=stream, mode="r:*") as tf:  # type: ignore[call-overload]
                contents: list[tuple[str, bytes]] = []
                problems_before = len(self.problems)
                # Members are taken one header at a time: checking them all
                # first would decompress the whole archive to find the headers.
                for count, member in enumerate(_tar_members(tf), start=1):
                    if self.too_many(archive, count):
                        return
                    name = self.member_name(archive, member.name)
                    if name is None or member.isdir():
                        continue
                    if member.issym() or member.islnk():
                        kind = "a symbolic link" if member.issym() else "a hard link"
                        self.problems.append(
                            f"{archive}: member {member.name!r} is {kind};"
                            " archives must hold regular files only."
                        )
                        continue
                    if not member.isfile():
                        self.problems.append(
                            f"{archive}: member {member.name!r} is not a regular file."
                        )
                        continue
                    if not self.wanted(name):
                        # Skipping a member of a compressed tar still inflates
                        # it, so it counts against the cap all the same.
                        self.budget(name, member.size)
                        continue
                    data = tf.extractfile(member)
                    if data is None:  # pragma: no cover - isfile() members always have data
                        continue
                    contents.append((name, self.read_capped(name, data, member.size)))
                if len(self.problems) > problems_before:
                    return
                for name, raw in sorted(contents, key=lambda pair: pair[0]):
                    self.add_bytes(name, raw)
        except (tarfile.TarError, zlib.error, EOFError, OSError) as error:
            self.problems.append(f"{archive}: not a readable tar archive ({_reason(error)}).")


def _tar_members(tf: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    while (member := tf.next()) is not None:
        yield member


def _reason(error: BaseException) -> str:
    text = str(error).strip().rstrip(".")
    return text or type(error).__name__


def _mib(size: int) -> str:
    if size >= 1024 * 1024 and size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MiB"
    return f"{size:,} bytes"
