"""Problem packages as archives: a deterministic .zip out, a safely extracted .zip or .tar.gz in.

A package is {relative path: text} (problems.core.package). `pack_zip` writes it under one folder
named after the slug, with fixed timestamps and sorted entries, so that the same files always give
the same bytes; `unpack` reads an uploaded archive back into files, refusing anything that could
escape the folder or exhaust the machine. A download re-uploaded is therefore the same files, and
the same content hash: the same version.
"""
from __future__ import annotations

import io
import posixpath
import tarfile
import zipfile
from dataclasses import dataclass

from grader.core.errors import WarpDrillError

MAX_FILES = 200  # files in one package archive
MAX_FILE_BYTES = 256 * 1024  # per file, as problems.core.package.MAX_FILE_BYTES
MAX_TOTAL_BYTES = 4 * 1024 * 1024  # all files together, uncompressed
ZIP_EPOCH = (2020, 1, 1, 0, 0, 0)  # every entry's timestamp: the archive depends on the files only


class ArchiveError(WarpDrillError):
    """An uploaded archive is unsafe or unreadable; the message says which entry and why."""


@dataclass(frozen=True)
class _Entry:
    name: str  # the path inside the archive, as stored
    size: int  # uncompressed bytes
    is_file: bool
    is_link: bool


def pack_zip(files: dict[str, str], folder: str) -> bytes:
    """The package's files as a .zip under `folder`/ (the slug). Deterministic: sorted entries, fixed times."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(files):
            info = zipfile.ZipInfo(f"{folder}/{path}", date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[path].encode("utf-8"))
    return buffer.getvalue()


def _safe_path(name: str) -> str:
    """The entry's normalised relative path. Raises ArchiveError for absolute paths and `..`."""
    clean = name.replace("\\", "/")
    if clean.startswith("/") or (len(clean) > 1 and clean[1] == ":"):
        raise ArchiveError(f"{name}: absolute paths are not allowed in a package archive")
    parts = [p for p in clean.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise ArchiveError(f"{name}: '..' is not allowed in a package archive")
    return posixpath.join(*parts) if parts else ""


def _skipped(path: str) -> bool:
    """Entries a package folder would not contain either (problems.core.package.read_package_dir)."""
    parts = path.split("/")
    return "__pycache__" in parts or any(p.startswith(".") for p in parts) or parts[0] == "__MACOSX"


def unpack(data: bytes) -> dict[str, str]:
    """An uploaded .zip or .tar.gz (told apart by content, not name) as {relative path: text}.

    One top folder common to every file is stripped (a download holds `<slug>/...`). Raises
    ArchiveError for: an unreadable archive, absolute paths or `..`, links or devices, more than
    MAX_FILES files, a file over MAX_FILE_BYTES or all over MAX_TOTAL_BYTES (checked against the
    declared sizes before anything is read, and again while reading), text that is not UTF-8.
    """
    if data[:4] == b"PK\x03\x04":
        read = _read_zip
    elif data[:2] == b"\x1f\x8b":
        read = _read_tar
    else:
        raise ArchiveError("the file is neither a .zip nor a .tar.gz archive")
    try:
        files = read(data)
    except ArchiveError:
        raise
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise ArchiveError(f"the archive cannot be read ({type(exc).__name__})") from None
    if not files:
        raise ArchiveError("the archive holds no files")
    tops = {path.split("/", 1)[0] for path in files}
    if len(tops) == 1 and all("/" in path for path in files):
        top = tops.pop() + "/"
        files = {path[len(top):]: text for path, text in files.items()}
    return dict(sorted(files.items()))


def _check(entries: list[_Entry]) -> None:
    count = total = 0
    for entry in entries:
        if entry.is_link:
            raise ArchiveError(f"{entry.name}: links are not allowed in a package archive")
        _safe_path(entry.name)
        if not entry.is_file:
            continue
        count += 1
        total += entry.size
        if entry.size > MAX_FILE_BYTES:
            raise ArchiveError(f"{entry.name}: larger than {MAX_FILE_BYTES // 1024} KiB")
    if count > MAX_FILES:
        raise ArchiveError(f"more than {MAX_FILES} files")
    if total > MAX_TOTAL_BYTES:
        raise ArchiveError(f"more than {MAX_TOTAL_BYTES // (1024 * 1024)} MiB of files")


def _decode(name: str, raw: bytes) -> str:
    if len(raw) > MAX_FILE_BYTES:  # a size the header understated
        raise ArchiveError(f"{name}: larger than {MAX_FILE_BYTES // 1024} KiB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ArchiveError(f"{name}: not UTF-8 text") from None


def _read_zip(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        entries = [_Entry(i.filename, i.file_size, not i.is_dir(), (i.external_attr >> 16) & 0o170000 == 0o120000)
                   for i in infos]
        _check(entries)
        files = {}
        for info in infos:
            path = _safe_path(info.filename)
            if info.is_dir() or not path or _skipped(path):
                continue
            with archive.open(info) as handle:
                files[path] = _decode(info.filename, handle.read(MAX_FILE_BYTES + 1))
        return files


def _read_tar(data: bytes) -> dict[str, str]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        members = archive.getmembers()
        entries = [_Entry(m.name, m.size, m.isfile(), m.issym() or m.islnk()) for m in members]
        for m in members:
            if not (m.isfile() or m.isdir() or m.issym() or m.islnk()):
                raise ArchiveError(f"{m.name}: devices and pipes are not allowed in a package archive")
        _check(entries)
        files = {}
        for member in members:
            path = _safe_path(member.name)
            if not member.isfile() or not path or _skipped(path):
                continue
            handle = archive.extractfile(member)
            files[path] = _decode(member.name, handle.read(MAX_FILE_BYTES + 1) if handle else b"")
        return files
