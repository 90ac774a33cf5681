"""authoring/core/archive.py: deterministic zips, safe extraction, and the download/upload round trip."""
from __future__ import annotations

import io
import tarfile
import zipfile

import pytest

from authoring.core.archive import MAX_FILES, ArchiveError, pack_zip, unpack
from authoring.core.edit import skeleton
from problems.core.package import load_package, parse_package

from pathlib import Path

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _tgz(entries: dict[str, bytes], link: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        if link:
            info = tarfile.TarInfo(link)
            info.type = tarfile.SYMTYPE
            info.linkname = "/etc/passwd"
            archive.addfile(info)
    return buffer.getvalue()


@pytest.mark.parametrize("slug", sorted(p.name for p in BANK.iterdir() if (p / "problem.yaml").exists()))
def test_every_bank_package_round_trips_through_a_zip_with_the_same_content_hash(slug):
    """A bank package zipped and unzipped is the same files, so the same content hash (the same version)."""
    package = load_package(BANK / slug)
    data = pack_zip(package.files, slug)
    files = unpack(data)
    assert files == package.files
    assert parse_package(files).content_hash == package.content_hash


def test_the_same_files_always_give_the_same_zip_bytes():
    files = skeleton("scale-x", "Scale")
    assert pack_zip(files, "scale-x") == pack_zip(dict(reversed(list(files.items()))), "scale-x")
    assert zipfile.ZipFile(io.BytesIO(pack_zip(files, "scale-x"))).namelist()[0].startswith("scale-x/")


def test_a_tar_gz_without_a_top_folder_is_read_too():
    files = skeleton("scale-x", "Scale")
    assert unpack(_tgz({k: v.encode() for k, v in files.items()})) == dict(sorted(files.items()))


@pytest.mark.parametrize("name", ["../evil.py", "pkg/../../evil.py", "/etc/cron.d/evil", "C:/evil.py"])
def test_paths_that_escape_the_package_are_refused(name):
    with pytest.raises(ArchiveError):
        unpack(_zip({"pkg/problem.yaml": b"x", name: b"boom"}))
    with pytest.raises(ArchiveError):
        unpack(_tgz({"pkg/problem.yaml": b"x", name: b"boom"}))


def test_links_are_refused():
    with pytest.raises(ArchiveError, match="links"):
        unpack(_tgz({"pkg/problem.yaml": b"x"}, link="pkg/harness.py"))


def test_too_many_files_and_too_large_files_are_refused():
    with pytest.raises(ArchiveError, match="more than"):
        unpack(_zip({f"pkg/f{i}.txt": b"x" for i in range(MAX_FILES + 1)}))
    with pytest.raises(ArchiveError, match="KiB"):
        unpack(_zip({"pkg/big.cu": b"x" * (300 * 1024)}))


def test_something_that_is_no_archive_is_refused():
    with pytest.raises(ArchiveError, match="neither"):
        unpack(b"slug: nope\n")
    with pytest.raises(ArchiveError):
        unpack(b"PK\x03\x04garbage")


def test_binary_files_and_dot_files_are_handled_like_a_package_folder():
    with pytest.raises(ArchiveError, match="UTF-8"):
        unpack(_zip({"pkg/problem.yaml": b"\xff\xfe"}))
    files = unpack(_zip({"pkg/problem.yaml": b"a", "pkg/.DS_Store": b"\x00", "__MACOSX/pkg/x": b"\x00",
                         "pkg/__pycache__/h.pyc": b"\x00"}))
    assert files == {"problem.yaml": "a"}
