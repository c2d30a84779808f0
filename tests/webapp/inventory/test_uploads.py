"""An upload becomes (name, text) files, or is refused with one sentence per problem naming the file."""

from __future__ import annotations

import io
import stat
import tarfile
import time
import zipfile
from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.webapp.inventory.conftest import tar_of, upload, zip_of
from webapp.inventory.uploads import UploadRejected, _Reader, _TooBig, upload_read

MIB = 1024 * 1024
POD = b"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: x}]}\n"


@pytest.fixture(autouse=True)
def _one_mib_limit(settings) -> None:  # type: ignore[no-untyped-def]
    settings.GPU_WHATIF_MAX_UPLOAD_BYTES = MIB


def problems_of(files: list) -> list[str]:  # type: ignore[type-arg]
    with pytest.raises(UploadRejected) as rejected:
        upload_read(files)
    return rejected.value.problems


# --- what is accepted ------------------------------------------------------------


@pytest.mark.parametrize(
    ("files", "names", "skipped"),
    [
        pytest.param(
            lambda: [upload("b.yaml", POD), upload("a.json", b"{}"), upload("c.YML", POD)],
            ["b.yaml", "a.json", "c.YML"],
            [],
            id="plain-files-in-upload-order",
        ),
        pytest.param(
            lambda: [
                zip_of(
                    {
                        "dir/z.yaml": POD,
                        "dir/": b"",
                        "a.yaml": POD,
                        "README.md": b"# notes",
                        "__MACOSX/._a.yaml": b"junk",
                        ".git/config.yaml": b"x",
                        "./m/b.json": b"{}",
                    }
                )
            ],
            ["a.yaml", "dir/z.yaml", "m/b.json"],
            ["README.md", "__MACOSX/._a.yaml", ".git/config.yaml"],
            id="zip-sorted-dirs-and-non-manifests-skipped",
        ),
        pytest.param(
            lambda: [tar_of({"pods/z.yaml": POD, "pods/a.yaml": POD, "NOTES.txt": b"hi"})],
            ["pods/a.yaml", "pods/z.yaml"],
            ["NOTES.txt"],
            id="tar-gz-sorted",
        ),
        pytest.param(
            lambda: [tar_of({"x.yaml": POD}, name="x.tgz"), upload("y.yaml", POD)],
            ["x.yaml", "y.yaml"],
            [],
            id="tgz-and-a-plain-file",
        ),
        pytest.param(
            lambda: [upload("bom.yaml", b"\xef\xbb\xbf" + POD)],
            ["bom.yaml"],
            [],
            id="utf8-bom-dropped",
        ),
    ],
)
def test_uploads_become_text_files(
    files: Callable[[], list[SimpleUploadedFile]], names: list[str], skipped: list[str]
) -> None:
    result = upload_read(files())
    assert [name for name, _ in result.files] == names
    assert all(not text.startswith("\ufeff") for _, text in result.files)
    assert result.skipped == skipped


def test_member_text_is_kept_verbatim() -> None:
    result = upload_read([zip_of({"a.yaml": POD})])
    assert result.files == [("a.yaml", POD.decode())]


# --- what is refused -----------------------------------------------------------------


def zip_with_symlink() -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo("link.yaml")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, "/etc/passwd")
    return upload("links.zip", buffer.getvalue())


def tar_with_link(kind: bytes) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        info = tarfile.TarInfo("link.yaml")
        info.type = kind
        info.linkname = "/etc/passwd"
        archive.addfile(info)
    return upload("links.tar.gz", buffer.getvalue())


def zip_of_many(count: int) -> SimpleUploadedFile:
    return zip_of({f"f{i:04}.yaml": b"" for i in range(count)}, name="many.zip")


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param(
            lambda: [zip_of({"../evil.yaml": POD}, name="up.zip")],
            "up.zip: member '../evil.yaml' points outside the archive (it contains '..').",
            id="zip-traversal",
        ),
        pytest.param(
            lambda: [tar_of({"a/../../evil.yaml": POD}, name="up.tar.gz")],
            "up.tar.gz: member 'a/../../evil.yaml' points outside the archive (it contains '..').",
            id="tar-traversal",
        ),
        pytest.param(
            lambda: [zip_of({"/etc/cron.yaml": POD}, name="abs.zip")],
            "abs.zip: member '/etc/cron.yaml' has an absolute path; archives must hold relative paths.",
            id="zip-absolute",
        ),
        pytest.param(
            lambda: [tar_of({"/etc/cron.yaml": POD}, name="abs.tgz")],
            "abs.tgz: member '/etc/cron.yaml' has an absolute path; archives must hold relative paths.",
            id="tar-absolute",
        ),
        pytest.param(
            lambda: [tar_of({"C:\\evil.yaml": POD}, name="win.tgz")],
            "win.tgz: member 'C:\\\\evil.yaml' has an absolute path; archives must hold relative paths.",
            id="tar-windows-drive",
        ),
        pytest.param(
            lambda: [zip_with_symlink()],
            "links.zip: member 'link.yaml' is a symbolic link; archives must hold regular files only.",
            id="zip-symlink",
        ),
        pytest.param(
            lambda: [tar_with_link(tarfile.SYMTYPE)],
            "links.tar.gz: member 'link.yaml' is a symbolic link; archives must hold regular files only.",
            id="tar-symlink",
        ),
        pytest.param(
            lambda: [tar_with_link(tarfile.LNKTYPE)],
            "links.tar.gz: member 'link.yaml' is a hard link; archives must hold regular files only.",
            id="tar-hard-link",
        ),
        pytest.param(
            lambda: [zip_of_many(2_001)],
            "many.zip: the archive has more than 2,000 members; upload fewer files at a time.",
            id="too-many-members",
        ),
        pytest.param(
            lambda: [upload("latin1.yaml", b"name: caf\xe9\n")],
            "latin1.yaml: not UTF-8 text (byte 9).",
            id="not-utf8",
        ),
        pytest.param(
            lambda: [zip_of({"a/latin1.yaml": b"\xff"})],
            "a/latin1.yaml: not UTF-8 text (byte 0).",
            id="not-utf8-in-zip",
        ),
        pytest.param(
            lambda: [upload("nul.yaml", b"a: \x00\n")],
            "nul.yaml: not a text file (it contains a NUL character).",
            id="nul-character",
        ),
        pytest.param(
            lambda: [upload("notes.txt", b"hello")],
            "notes.txt: not a file this app reads; upload .yaml, .yml or .json files,"
            " or a .zip or .tar.gz archive of them.",
            id="unknown-kind-of-file",
        ),
        pytest.param(
            lambda: [upload("broken.zip", b"PK\x03\x04 not really")],
            "broken.zip: not a readable zip archive (File is not a zip file).",
            id="corrupt-zip",
        ),
        pytest.param(
            lambda: [upload("a.yaml", POD), upload("a.yaml", POD)],
            "a.yaml: the upload holds two files with this name.",
            id="duplicate-name",
        ),
        pytest.param(
            lambda: [],
            "The upload holds no YAML or JSON files: choose .yaml, .yml or .json files,"
            " or a .zip or .tar.gz archive of them.",
            id="nothing",
        ),
        pytest.param(
            lambda: [zip_of({"README.md": b"only notes"}, name="docs.zip")],
            "The upload holds no YAML or JSON files: choose .yaml, .yml or .json files,"
            " or a .zip or .tar.gz archive of them.",
            id="archive-without-manifests",
        ),
        pytest.param(
            lambda: [upload("big.yaml", b"#" * (MIB + 1))],
            "big.yaml: the upload is larger than the limit of 1 MiB uncompressed;"
            " split it or leave out what the simulation does not need.",
            id="plain-file-over-limit",
        ),
        pytest.param(
            lambda: [
                upload("half.yaml", b"#" * (MIB // 2)),
                upload("more.yaml", b"#" * (MIB // 2 + 1)),
            ],
            "more.yaml: the upload is larger than the limit of 1 MiB uncompressed;"
            " split it or leave out what the simulation does not need.",
            id="files-together-over-limit",
        ),
        pytest.param(
            lambda: [tar_of({"big/notes.bin": b"\0" * (MIB + 1)}, name="big.tar.gz")],
            "big/notes.bin: the upload is larger than the limit of 1 MiB uncompressed;"
            " split it or leave out what the simulation does not need.",
            id="skipped-tar-member-still-counts",
        ),
    ],
)
def test_refused_uploads_name_the_file(
    files: Callable[[], list[SimpleUploadedFile]], expected: str
) -> None:
    assert problems_of(files()) == [expected]


def test_every_problem_is_listed_not_only_the_first() -> None:
    problems = problems_of(
        [
            upload("latin1.yaml", b"\xff"),
            upload("notes.txt", b"x"),
            zip_of({"../a.yaml": POD, "../b.yaml": POD}, name="up.zip"),
        ]
    )
    assert problems == [
        "latin1.yaml: not UTF-8 text (byte 0).",
        "notes.txt: not a file this app reads; upload .yaml, .yml or .json files,"
        " or a .zip or .tar.gz archive of them.",
        "up.zip: member '../a.yaml' points outside the archive (it contains '..').",
        "up.zip: member '../b.yaml' points outside the archive (it contains '..').",
    ]


# --- bombs: stopped from the header, and while reading when the header lies ----------


def zero_bomb_zip(size: int) -> SimpleUploadedFile:
    """A small zip holding one large file of zeros (about 1000:1)."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("zeros.yaml", "w", force_zip64=True) as member,
    ):
        chunk = b"\0" * MIB
        for _ in range(size // MIB):
            member.write(chunk)
    return upload("bomb.zip", buffer.getvalue())


def lying_zip(real_size: int, claimed_size: int) -> SimpleUploadedFile:
    """A zip whose headers claim `claimed_size` bytes for a member of `real_size`."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("liar.yaml", b"#" * real_size)
    data = bytearray(buffer.getvalue())
    real = real_size.to_bytes(4, "little")
    claimed = claimed_size.to_bytes(4, "little")
    # The size sits in the local header and in the central directory.
    for _ in range(2):
        at = data.find(real)
        assert at > 0
        data[at : at + 4] = claimed
    return upload("liar.zip", bytes(data))


def test_zip_bomb_is_refused_from_its_header_quickly() -> None:
    bomb = zero_bomb_zip(64 * MIB)
    assert bomb.size < MIB // 4  # a small upload...
    started = time.perf_counter()
    problems = problems_of([bomb])
    elapsed = time.perf_counter() - started
    assert problems == [
        "bomb.zip: the upload is larger than the limit of 1 MiB uncompressed;"
        " split it or leave out what the simulation does not need."
    ]
    assert elapsed < 0.5  # ...refused without inflating its 64 MiB


def test_tar_bomb_is_refused_at_its_first_big_header() -> None:
    bomb = tar_of({"a.yaml": POD, "zeros.yaml": b"\0" * (8 * MIB), "z.yaml": POD}, name="bomb.tgz")
    assert problems_of([bomb]) == [
        "zeros.yaml: the upload is larger than the limit of 1 MiB uncompressed;"
        " split it or leave out what the simulation does not need."
    ]


def test_a_zip_header_that_lies_is_caught_by_zipfiles_own_check() -> None:
    # CPython's zipfile inflates no more than the size the header claims, then
    # checks the CRC: a lying header ends there, long before the cap.
    assert problems_of([lying_zip(real_size=2 * MIB, claimed_size=100)]) == [
        "liar.zip: not a readable zip archive (Bad CRC-32 for file 'liar.yaml')."
    ]


def test_reading_stops_at_the_cap_whatever_the_header_says() -> None:
    reader = _Reader(limit=1000)
    endless = io.BytesIO(b"#" * 10 * MIB)
    with pytest.raises(_TooBig):
        reader.read_capped("liar.yaml", endless, declared=10)
    assert endless.tell() <= 1000 + 1  # read no further than one byte past the cap
    assert reader.problems == [
        "liar.yaml: the member is larger than its archive header says and passes"
        " the upload limit of 1,000 bytes; the archive was not read further."
    ]
