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


# ---- bombs: each is small on disk and is refused before its bulk is decompressed ----

_ZERO_MIB = None


def _gz_zeros(size: int) -> bytes:
    """`size` zero bytes (a multiple of 1 MiB) as concatenated gzip members: about 1 KiB per MiB, made
    without compressing the whole (one MiB compressed once, repeated)."""
    global _ZERO_MIB
    import gzip

    if _ZERO_MIB is None:
        _ZERO_MIB = gzip.compress(bytes(1 << 20), compresslevel=9)
    return _ZERO_MIB * (size >> 20)


def _tar_bomb(*members: tuple[str, int | bytes], pax_bytes: int = 0) -> bytes:
    """A .tar.gz (gzip members concatenated, as gzip allows) of `members`: (name, bytes) as they are,
    (name, size) as that many zero bytes (a multiple of 1 MiB, never held whole); with `pax_bytes`, the
    first member's pax header carries a comment that long."""
    import gzip

    out = []
    for k, (name, data) in enumerate(members):
        info = tarfile.TarInfo(name)
        info.size = data if isinstance(data, int) else len(data)
        if pax_bytes and k == 0:
            info.pax_headers = {"comment": "x" * pax_bytes}
        out.append(gzip.compress(info.tobuf(tarfile.PAX_FORMAT if pax_bytes else tarfile.GNU_FORMAT)))
        if isinstance(data, int):
            out.append(_gz_zeros(data))
        else:
            out.append(gzip.compress(data + bytes(-len(data) % 512)))
    out.append(gzip.compress(bytes(2 * 512)))
    return b"".join(out)


class _CountingGzip:
    """gzip.GzipFile's reads counted: how many decompressed bytes unpack asked for."""

    def __init__(self, monkeypatch):
        import gzip

        self.read = 0
        real = gzip.GzipFile.read

        def counted(this, size=-1):
            data = real(this, size)
            self.read += len(data)
            return data

        monkeypatch.setattr(gzip.GzipFile, "read", counted)


def test_a_tar_gz_member_declared_as_one_gibibyte_is_refused_at_its_header(monkeypatch):
    """The tester's bomb: a small .tar.gz whose one member is 1 GiB of zeros. Refused from the header's
    size, after reading one tar record, never decompressing the gibibyte (it was read whole before:
    3.5 s of the web process's CPU)."""
    bomb = _tar_bomb(("pkg/big.bin", 1 << 30))
    assert len(bomb) < 1_200_000
    counter = _CountingGzip(monkeypatch)
    with pytest.raises(ArchiveError, match="larger than 256 KiB") as refused:
        unpack(bomb)
    assert "pkg/big.bin" in str(refused.value)
    assert counter.read <= 2 * tarfile.RECORDSIZE


def test_the_tar_bomb_the_tester_uploaded_is_refused_the_same_way(monkeypatch):
    """/tmp/atk/bomb.tar.gz's shape, rebuilt here: a 1 GiB member after a normal problem.yaml."""
    bomb = _tar_bomb(("pkg/problem.yaml", b"x\n"), ("pkg/big.bin", 1 << 30))
    counter = _CountingGzip(monkeypatch)
    with pytest.raises(ArchiveError, match="big.bin: larger than"):
        unpack(bomb)
    assert counter.read <= 2 * tarfile.RECORDSIZE


def test_a_pax_header_that_declares_megabytes_is_cut_off_by_the_stream_cap(monkeypatch):
    """tarfile reads a pax header whole before the member it describes: one of 8 MiB stops the stream at
    MAX_TAR_STREAM_BYTES (one byte past it), not after reading it all."""
    from authoring.core.archive import MAX_TAR_STREAM_BYTES

    bomb = _tar_bomb(("pkg/problem.yaml", b"x\n"), pax_bytes=8 << 20)
    assert len(bomb) < 100_000
    counter = _CountingGzip(monkeypatch)
    with pytest.raises(ArchiveError, match="unpacks to more than"):
        unpack(bomb)
    assert counter.read <= MAX_TAR_STREAM_BYTES + 1


def test_many_tiny_tar_members_are_refused_at_the_entry_limit(monkeypatch):
    """Ten thousand empty folders (headers only) stop at MAX_ENTRIES: the rest is never read."""
    from authoring.core.archive import MAX_ENTRIES

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for i in range(10_000):
            info = tarfile.TarInfo(f"pkg/d{i}")
            info.type = tarfile.DIRTYPE
            archive.addfile(info)
    counter = _CountingGzip(monkeypatch)
    with pytest.raises(ArchiveError, match="entries"):
        unpack(buffer.getvalue())
    assert counter.read <= (MAX_ENTRIES + 2) * 512 + 2 * tarfile.RECORDSIZE


def test_many_small_tar_files_that_sum_past_the_total_are_refused():
    """Twenty files of 250 KiB each: every one under the per-file limit, together past 4 MiB."""
    with pytest.raises(ArchiveError, match="MiB of files"):
        unpack(_tgz({f"pkg/f{i}.txt": b"a" * (250 * 1024) for i in range(20)}))


def test_tar_devices_sparse_files_and_hard_links_are_refused():
    for kind, says in ((tarfile.CHRTYPE, "devices"), (tarfile.FIFOTYPE, "devices"), (tarfile.LNKTYPE, "links"),
                       (tarfile.GNUTYPE_SPARSE, "sparse")):
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.GNU_FORMAT) as archive:
            info = tarfile.TarInfo("pkg/x")
            info.type = kind
            info.linkname = "pkg/problem.yaml" if kind == tarfile.LNKTYPE else ""
            archive.addfile(info)
        with pytest.raises(ArchiveError, match=says):
            unpack(buffer.getvalue())


def _understate(data: bytes, name: bytes, size: int) -> bytes:
    """The zip with `name`'s declared uncompressed size set to `size` in its central-directory header."""
    at = data.index(b"PK\x01\x02")
    while data[at + 46:at + 46 + len(name)] != name:
        at = data.index(b"PK\x01\x02", at + 4)
    return data[:at + 24] + size.to_bytes(4, "little") + data[at + 28:]


def test_a_zip_bomb_is_refused_by_its_declared_size():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("pkg/big.bin", bytes(4 << 20))
    bomb = buffer.getvalue()
    assert len(bomb) < 10_000
    with pytest.raises(ArchiveError, match="larger than 256 KiB"):
        unpack(bomb)


def test_a_zip_bomb_that_understates_its_size_is_decompressed_no_further_than_declared():
    """A central directory that declares 10 bytes for 8 MiB of text: zipfile stops at the declared size
    (then finds the CRC wrong), so the upload is refused as unreadable after 10 bytes, not 8 MiB."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("pkg/big.txt", b"a" * (8 << 20))
    lying = _understate(buffer.getvalue(), b"pkg/big.txt", 10)
    read = []
    real = zipfile.ZipExtFile.read

    def counted(self, n=-1):
        data = real(self, n)
        read.append(len(data))
        return data

    zipfile.ZipExtFile.read = counted
    try:
        with pytest.raises(ArchiveError, match="cannot be read"):
            unpack(lying)
    finally:
        zipfile.ZipExtFile.read = real
    assert sum(read) <= 10


def test_a_zip_listing_thousands_of_entries_is_refused_before_its_directory_is_parsed(monkeypatch):
    """Ten thousand empty entries (a 1 MB upload): refused from the end record, ZipFile never parses them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i in range(10_000):
            archive.writestr(f"pkg/f{i}", b"")
    parsed = []
    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", lambda self: parsed.append(1))
    with pytest.raises(ArchiveError, match="entries"):
        unpack(buffer.getvalue())
    assert parsed == []


def test_nested_archives_are_refused_by_name_and_by_content():
    inner = _zip({"a.txt": b"a"})
    with pytest.raises(ArchiveError, match="archives inside"):
        unpack(_zip({"pkg/problem.yaml": b"x", "pkg/data.zip": inner}))
    with pytest.raises(ArchiveError, match="archives inside"):
        unpack(_tgz({"pkg/problem.yaml": b"x", "pkg/data.tar.gz": b"text"}))
    stored = io.BytesIO()
    with zipfile.ZipFile(stored, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("a", b"a")
    with pytest.raises(ArchiveError, match="archives inside"):
        unpack(_tgz({"pkg/problem.yaml": b"x", "pkg/notes.txt": stored.getvalue()}))
    # A text that merely begins like bzip2's magic stays text.
    assert unpack(_zip({"pkg/problem.yaml": b"BZh is a text"}))["problem.yaml"] == "BZh is a text"


def test_zip_symlinks_encrypted_entries_other_methods_and_duplicate_paths_are_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo("pkg/harness.py")
        info.external_attr = (0o120777) << 16
        archive.writestr(info, "/etc/passwd")
    with pytest.raises(ArchiveError, match="links"):
        unpack(buffer.getvalue())

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_BZIP2) as archive:
        archive.writestr("pkg/problem.yaml", b"x" * 1000)
    with pytest.raises(ArchiveError, match="method"):
        unpack(buffer.getvalue())

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("pkg/problem.yaml", b"x")
        with pytest.warns(UserWarning, match="Duplicate"):
            archive.writestr(zipfile.ZipInfo("pkg/problem.yaml"), b"y")
    with pytest.raises(ArchiveError, match="twice"):
        unpack(buffer.getvalue())

    data = bytearray(_zip({"pkg/problem.yaml": b"x"}))
    at = data.index(b"PK\x01\x02")
    data[at + 8] |= 0x1  # the central directory's "encrypted" flag
    with pytest.raises(ArchiveError, match="encrypted"):
        unpack(bytes(data))


@pytest.mark.parametrize("name", ["../evil.py", "/abs.py"])
def test_escaping_paths_are_refused_as_their_header_is_read(name, monkeypatch):
    """A refusal comes at the header, whatever follows (here a member of 1 GiB after it)."""
    bomb = _tar_bomb((name, b"x"), ("pkg/big.bin", 1 << 30))
    counter = _CountingGzip(monkeypatch)
    with pytest.raises(ArchiveError, match="not allowed"):
        unpack(bomb)
    assert counter.read <= 2 * tarfile.RECORDSIZE


def test_an_archive_error_renders_in_the_readers_language():
    from django.utils import translation
    from django.utils.translation import gettext

    with pytest.raises(ArchiveError) as refused:
        unpack(_tgz({f"pkg/f{i}.txt": b"a" * (250 * 1024) for i in range(20)}))
    assert refused.value.render(lambda s: s) == "more than 4 MiB of files"
    with translation.override("ko"):
        korean = refused.value.render(gettext)
    assert korean != "more than 4 MiB of files" and "4" in korean
