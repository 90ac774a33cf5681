"""Problem packages as archives: a deterministic .zip out, a safely extracted .zip or .tar.gz in.

A package is {relative path: text} (problems.core.package). `pack_zip` writes it under one folder
named after the slug, with fixed timestamps and sorted entries, so that the same files always give
the same bytes; `unpack` reads an uploaded archive back into files, refusing anything that could
escape the folder or exhaust the machine. A download re-uploaded is therefore the same files, and
the same content hash: the same version.

An upload is hostile until read: a 1 MB .tar.gz can declare a member of 1 GiB of zeros, and a .zip
can list thousands of empty entries. Nothing is decompressed beyond what the limits allow: a .tar.gz
is read as a stream, header by header, each header checked (kind, path, size, the running count and
total) before its data is read, and the whole stream is cut off once it has given more bytes than the
limits can need (tarfile's own pax and GNU long-name headers included); a .zip's central directory is
measured before it is parsed, and each entry is decompressed at most one byte past its limit.
"""
from __future__ import annotations

import gzip
import io
import posixpath
import tarfile
import zipfile
from dataclasses import dataclass, field
from typing import Any, Callable

from grader.core.errors import WarpDrillError
from grader.core.messages import gettext_noop

MAX_FILES = 200  # files in one package archive
MAX_ENTRIES = 2 * MAX_FILES  # entries of any kind (files and folders): headers read before the archive is refused
MAX_FILE_BYTES = 256 * 1024  # per file, as problems.core.package.MAX_FILE_BYTES
MAX_TOTAL_BYTES = 4 * 1024 * 1024  # all files together, uncompressed
# The most bytes a .tar.gz may decompress to: every file at its limit plus, per entry, its header, a pax
# header and their padding (four 512-byte blocks is generous), and the end-of-archive records.
MAX_TAR_STREAM_BYTES = MAX_TOTAL_BYTES + MAX_ENTRIES * 4 * 512 + 2 * tarfile.RECORDSIZE
# A .zip's central directory: 46 bytes per entry plus its name and extra fields (a name of 255 bytes
# and 200 bytes of extras is generous); a longer one lists more entries than are allowed.
MAX_CENTRAL_DIRECTORY_BYTES = MAX_ENTRIES * (46 + 255 + 200)
# Compression methods a .zip may use: what pack_zip and every zip tool write. bzip2 and LZMA are
# decompressed by zipfile a whole chunk at a time, with no bound on the output of one chunk.
ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
# Names of archives inside an archive: never unpacked, so a nested bomb is refused by name and magic.
NESTED_SUFFIXES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".jar", ".whl")
# The magic numbers of zip, gzip, xz, 7z, zstd and rar (bzip2's is checked in _is_archive: "BZh" then
# a level digit then its block magic, so that a text beginning "BZh" stays text).
NESTED_MAGIC = (b"PK\x03\x04", b"PK\x05\x06", b"\x1f\x8b", b"\xfd7zXZ\x00", b"7z\xbc\xaf\x27\x1c", b"(\xb5/\xfd",
                b"Rar!\x1a\x07")
ZIP_EPOCH = (2020, 1, 1, 0, 0, 0)  # every entry's timestamp: the archive depends on the files only


class ArchiveError(WarpDrillError):
    """An uploaded archive is unsafe or unreadable; the message says which entry and why.

    Made from one of the templates below (English, marked for the Korean catalogue) and its
    parameters: str(error) is the English, `render(gettext)` the reader's language."""

    def __init__(self, template: str, **params: Any):
        self.template, self.params = template, params
        super().__init__(template % params)

    def render(self, translate: Callable[[str], str]) -> str:
        """The message in the language of `translate` (gettext); English without."""
        return translate(self.template) % self.params


# What ArchiveError says (gettext_noop: extracted for locale/ko, translated where it is shown).
NOT_AN_ARCHIVE = gettext_noop("the file is neither a .zip nor a .tar.gz archive")
UNREADABLE = gettext_noop("the archive cannot be read (%(error)s)")
EMPTY = gettext_noop("the archive holds no files")
ABSOLUTE = gettext_noop("%(name)s: absolute paths are not allowed in a package archive")
DOTDOT = gettext_noop("%(name)s: '..' is not allowed in a package archive")
LINK = gettext_noop("%(name)s: links are not allowed in a package archive")
DEVICE = gettext_noop("%(name)s: devices and pipes are not allowed in a package archive")
SPARSE = gettext_noop("%(name)s: sparse files are not allowed in a package archive")
TOO_LARGE = gettext_noop("%(name)s: larger than %(kib)s KiB")
TOO_MANY_FILES = gettext_noop("more than %(count)s files")
TOO_MANY_ENTRIES = gettext_noop("more than %(count)s entries (files and folders)")
TOO_MUCH = gettext_noop("more than %(mib)s MiB of files")
STREAM_TOO_LONG = gettext_noop("the archive unpacks to more than %(mib)s MiB; it is not read further")
NOT_UTF8 = gettext_noop("%(name)s: not UTF-8 text")
NESTED = gettext_noop("%(name)s: archives inside the archive are not allowed")
DUPLICATE = gettext_noop("%(name)s: the archive holds this path twice")
ENCRYPTED = gettext_noop("%(name)s: encrypted entries are not allowed")
METHOD = gettext_noop("%(name)s: compressed with a method other than deflate (%(method)s)")


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
        raise ArchiveError(ABSOLUTE, name=name)
    parts = [p for p in clean.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise ArchiveError(DOTDOT, name=name)
    return posixpath.join(*parts) if parts else ""


def _skipped(path: str) -> bool:
    """Entries a package folder would not contain either (problems.core.package.read_package_dir)."""
    parts = path.split("/")
    return "__pycache__" in parts or any(p.startswith(".") for p in parts) or parts[0] == "__MACOSX"


def unpack(data: bytes) -> dict[str, str]:
    """An uploaded .zip or .tar.gz (told apart by content, not name) as {relative path: text}.

    One top folder common to every file is stripped (a download holds `<slug>/...`). Raises
    ArchiveError for: an unreadable archive, absolute paths or `..`, links, devices or sparse files,
    archives inside it, a path twice, more than MAX_ENTRIES entries or MAX_FILES files, a file over
    MAX_FILE_BYTES or all over MAX_TOTAL_BYTES (each checked against the declared sizes as its header
    is read, before its data, and again while reading), text that is not UTF-8. Reading stops at the
    first of these.
    """
    if data[:4] == b"PK\x03\x04":
        read = _read_zip
    elif data[:2] == b"\x1f\x8b":
        read = _read_tar
    else:
        raise ArchiveError(NOT_AN_ARCHIVE)
    try:
        files = read(data)
    except ArchiveError:
        raise
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, ValueError, RecursionError) as exc:
        raise ArchiveError(UNREADABLE, error=type(exc).__name__) from None
    if not files:
        raise ArchiveError(EMPTY)
    tops = {path.split("/", 1)[0] for path in files}
    if len(tops) == 1 and all("/" in path for path in files):
        top = tops.pop() + "/"
        files = {path[len(top):]: text for path, text in files.items()}
    return dict(sorted(files.items()))


@dataclass
class _Tally:
    """What an archive has shown so far, checked as each entry comes (`admit`) and as its data is read
    (`take`): entries, files and bytes against the limits; the files read."""

    entries: int = 0
    declared: int = 0  # bytes the headers of the files so far declare
    read: int = 0  # bytes of the files so far, as read
    files: dict[str, str] = field(default_factory=dict)

    def admit(self, name: str, *, is_file: bool, size: int) -> str | None:
        """Count one entry named `name` whose header declares `size` bytes; its clean path when it is a
        file to read, None for a folder or a file a package folder would not hold. Raises ArchiveError
        at the first limit it passes."""
        self.entries += 1
        if self.entries > MAX_ENTRIES:
            raise ArchiveError(TOO_MANY_ENTRIES, count=MAX_ENTRIES)
        path = _safe_path(name)
        if not is_file or not path:
            return None
        if path.lower().endswith(NESTED_SUFFIXES):
            raise ArchiveError(NESTED, name=name)
        if size > MAX_FILE_BYTES:
            raise ArchiveError(TOO_LARGE, name=name, kib=MAX_FILE_BYTES // 1024)
        self.declared += size
        if self.declared > MAX_TOTAL_BYTES:
            raise ArchiveError(TOO_MUCH, mib=MAX_TOTAL_BYTES // (1024 * 1024))
        if path in self.files:
            raise ArchiveError(DUPLICATE, name=name)
        if _skipped(path):
            return None
        if len(self.files) + 1 > MAX_FILES:
            raise ArchiveError(TOO_MANY_FILES, count=MAX_FILES)
        return path

    def take(self, name: str, path: str, raw: bytes) -> None:
        """Keep the file `path` read as `raw` (at most MAX_FILE_BYTES + 1 bytes were read): refused when a
        header understated it, when all read so far pass MAX_TOTAL_BYTES, when it is an archive or not UTF-8."""
        if len(raw) > MAX_FILE_BYTES:  # a size the header understated
            raise ArchiveError(TOO_LARGE, name=name, kib=MAX_FILE_BYTES // 1024)
        self.read += len(raw)
        if self.read > MAX_TOTAL_BYTES:
            raise ArchiveError(TOO_MUCH, mib=MAX_TOTAL_BYTES // (1024 * 1024))
        if _is_archive(raw):
            raise ArchiveError(NESTED, name=name)
        try:
            self.files[path] = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ArchiveError(NOT_UTF8, name=name) from None


def _is_archive(raw: bytes) -> bool:
    """True when `raw` begins as a compressed file or an archive does (NESTED_MAGIC, bzip2)."""
    return raw.startswith(NESTED_MAGIC) or (raw[:3] == b"BZh" and raw[4:10] == b"1AY&SY")


def _read_zip(data: bytes) -> dict[str, str]:
    """The files of a .zip. Its central directory (every entry's header, at the end) is measured before
    zipfile parses it; each entry is checked before it is decompressed, and decompressed one byte past
    its limit at most."""
    with io.BytesIO(data) as raw:
        end = zipfile._EndRecData(raw)  # zipfile's own reading of the end record (what ZipFile will parse)
    if end is None:
        raise zipfile.BadZipFile("no end of central directory")
    if end[zipfile._ECD_SIZE] > MAX_CENTRAL_DIRECTORY_BYTES or end[zipfile._ECD_ENTRIES_TOTAL] > MAX_ENTRIES:
        raise ArchiveError(TOO_MANY_ENTRIES, count=MAX_ENTRIES)
    tally = _Tally()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                raise ArchiveError(LINK, name=info.filename)
            path = tally.admit(info.filename, is_file=not info.is_dir(), size=info.file_size)
            if path is None:
                continue
            if info.flag_bits & 0x1:
                raise ArchiveError(ENCRYPTED, name=info.filename)
            if info.compress_type not in ZIP_METHODS:
                raise ArchiveError(METHOD, name=info.filename, method=info.compress_type)
            with archive.open(info) as handle:
                tally.take(info.filename, path, handle.read(MAX_FILE_BYTES + 1))
    return tally.files


class _CappedStream(io.RawIOBase):
    """A file-like view of `source` that raises ArchiveError once more than `cap` bytes were read from it:
    the decompressed .tar.gz, whose headers tarfile reads whole (a pax header can declare any size)."""

    def __init__(self, source, cap: int):
        self.source, self.cap, self.count = source, cap, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        room = self.cap - self.count + 1  # one byte past the cap tells a stream that is too long
        chunk = self.source.read(room if size is None or size < 0 else min(size, room))
        self.count += len(chunk)
        if self.count > self.cap:
            raise ArchiveError(STREAM_TOO_LONG, mib=MAX_TAR_STREAM_BYTES // (1024 * 1024))
        return chunk


def _read_tar(data: bytes) -> dict[str, str]:
    """The files of a .tar.gz, read as a stream (tarfile's "r|" over a capped gzip stream): each header is
    checked as it comes, before its data is read, and reading stops at the first refusal."""
    tally = _Tally()
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as unzipped:
        stream = _CappedStream(unzipped, MAX_TAR_STREAM_BYTES)
        with tarfile.open(fileobj=stream, mode="r|") as archive:
            while (member := archive.next()) is not None:
                if member.issym() or member.islnk():
                    raise ArchiveError(LINK, name=member.name)
                if member.issparse():
                    raise ArchiveError(SPARSE, name=member.name)
                if not (member.isfile() or member.isdir()):
                    raise ArchiveError(DEVICE, name=member.name)
                path = tally.admit(member.name, is_file=member.isfile(), size=member.size)
                if path is None:
                    continue
                handle = archive.extractfile(member)
                tally.take(member.name, path, handle.read(MAX_FILE_BYTES + 1) if handle else b"")
    return tally.files
