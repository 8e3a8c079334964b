"""Reading a submission: a folder, a zip or a tar (gzipped or not) as its entries, each
checked as it comes and refused at the first cap (see :mod:`arena.players.submissions`).

Every cap is counted as the bytes come out, never as an archive claims them; a zip's
entries are counted from its end record and its central directory's headers before
:mod:`zipfile` reads it whole (:func:`zip_entries_over`, also used on a submission's
vendored wheels by :mod:`arena.players.requirements`).
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO, Literal

from arena.errors import ArenaError

MAX_ARCHIVE_BYTES = 20 * 2**20  # an archive as submitted
MAX_TOTAL_BYTES = 64 * 2**20    # every file, as unpacked
MAX_FILE_BYTES = 32 * 2**20     # one file
MAX_FILES = 2_000               # entries: files, folders and links
MAX_RATIO = 200                 # a zip entry's unpacked size over its packed size
MAX_PATH_DEPTH = 32
MAX_NAME_LENGTH = 255
LEFT_OUT = frozenset({".git", "__pycache__"})
"""Folders of no bot's code, left out wherever they are (and files ending ``.pyc``)."""

Kind = Literal["file", "dir", "symlink"]


class SubmissionError(ArenaError, ValueError):
    """A submission that cannot be accepted; the message says why in one line."""


@dataclass(frozen=True)
class Entry:
    """One entry of a submission: a file (its bytes), a folder, or a link within it."""

    path: str  # relative, POSIX, normalized: "src/bot.py"
    kind: Kind
    data: bytes = b""
    executable: bool = False
    target: str = ""  # a link's target, relative to the link's folder


class _Tally:
    """Counts entries and bytes as they come, and refuses the first one over a cap."""

    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0
        self.seen: set[str] = set()

    def entry(self, path: str) -> None:
        self.files += 1
        if self.files > MAX_FILES:
            raise SubmissionError(f"more than {MAX_FILES:,} files and folders")
        if path in self.seen:
            raise SubmissionError(f"{path!r} appears twice")
        self.seen.add(path)

    def add(self, path: str, size: int) -> None:
        """A whole file of ``size`` bytes."""
        if size > MAX_FILE_BYTES:
            raise SubmissionError(f"{path!r} is over {MAX_FILE_BYTES:,} bytes")
        self.more(size)

    def more(self, size: int) -> None:
        """``size`` more bytes of some file."""
        self.bytes += size
        if self.bytes > MAX_TOTAL_BYTES:
            raise SubmissionError(f"its files come to more than {MAX_TOTAL_BYTES:,} bytes")


def clean_path(name: str) -> str | None:
    """The normalized relative path of an entry's name; None for the top folder itself.
    Refused: absolute paths, ``..``, backslashes, NULs, drive letters, over-long names."""
    if "\x00" in name or "\\" in name:
        raise SubmissionError(f"{name!r}: a name with a backslash or a NUL")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise SubmissionError(f"{name!r}: an absolute path")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise SubmissionError(f"{name!r}: a path that leads out of the bot's folder")
    if len(parts) > MAX_PATH_DEPTH or any(len(p) > MAX_NAME_LENGTH for p in parts):
        raise SubmissionError(f"{name[:80]!r}: a path too deep or a name too long")
    return "/".join(parts) or None


def _left_out(path: str) -> bool:
    return any(part in LEFT_OUT for part in path.split("/")) or path.endswith(".pyc")


def _read_capped(stream: IO[bytes], path: str, tally: _Tally) -> bytes:
    """A member's bytes, counted as they come out (a header's size claim is not trusted)."""
    chunks, size = [], 0
    while chunk := stream.read(2**16):
        size += len(chunk)
        if size > MAX_FILE_BYTES:
            raise SubmissionError(f"{path!r} is over {MAX_FILE_BYTES:,} bytes")
        tally.more(len(chunk))
        chunks.append(chunk)
    return b"".join(chunks)


def read_folder(root: Path, skipped: Collection[Path] = (),
                 special: bool = True) -> Iterator[Entry]:
    """The folder's entries; a device file, FIFO or socket refused (``special``) or left out."""
    tally = _Tally()
    stack = [root]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as found:
            listed = sorted(found, key=lambda e: e.name)
        for item in listed:
            full = Path(item.path)
            path = full.relative_to(root).as_posix()
            if _left_out(path) or (skipped and full.resolve() in skipped):
                continue
            tally.entry(path)
            mode = item.stat(follow_symlinks=False).st_mode
            if stat.S_ISLNK(mode):
                yield Entry(path, "symlink", target=os.readlink(full))
            elif stat.S_ISDIR(mode):
                yield Entry(path, "dir")
                stack.append(full)
            elif stat.S_ISREG(mode):
                with full.open("rb") as stream:
                    data = _read_capped(stream, path, tally)
                yield Entry(path, "file", data, executable=bool(mode & 0o111))
            elif special:
                raise SubmissionError(f"{path!r} is a device file, FIFO or socket")


_EOCD = struct.Struct("<4s4H2LH")         # end of central directory: 22 bytes
_ZIP64_LOCATOR = struct.Struct("<4sLQL")   # 20 bytes, just before the end record
_ZIP64_EOCD = struct.Struct("<4sQ2H2L4Q")  # 56 bytes, just before the locator
_CENTRAL_HEADER = 46                       # bytes of a central directory header's fixed part


def zip_entries_over(raw: BinaryIO, cap: int) -> str | None:
    """Why the zip ``raw`` holds more than ``cap`` entries, read before :mod:`zipfile` reads its
    central directory whole (an object per entry: 370,000 one-letter entries fit in 16 MiB
    and cost seconds and over 100 MiB); None when it holds no more. The end record (or
    zip64's) is found as zipfile finds it; its count refuses at once, and since zipfile reads
    records by the directory's size, not that count, the records' headers are then walked
    the same way, to one more than the cap at most, so a count that lies is caught too. What
    is malformed is left to zipfile to refuse. ``raw`` is left at its start."""
    try:
        return _entries_over(raw, cap)
    finally:
        raw.seek(0)


def _entries_over(raw: BinaryIO, cap: int) -> str | None:
    size = raw.seek(0, os.SEEK_END)
    start = max(size - _EOCD.size - 0xFFFF, 0)
    raw.seek(start)
    tail = raw.read()
    at = len(tail) - _EOCD.size
    if at < 0 or tail[at:at + 4] != b"PK\x05\x06" or tail[-2:] != b"\0\0":
        at = tail.rfind(b"PK\x05\x06")  # an archive comment follows the end record
    if at < 0 or at + _EOCD.size > len(tail):
        return None
    _sig, _disk, _first, _here, listed, cd_size, _offset, _comment = _EOCD.unpack_from(tail, at)
    end = start + at  # where the central directory ends
    if end >= _ZIP64_LOCATOR.size + _ZIP64_EOCD.size:
        raw.seek(end - _ZIP64_LOCATOR.size)
        if raw.read(4) == b"PK\x06\x07":
            raw.seek(end - _ZIP64_LOCATOR.size - _ZIP64_EOCD.size)
            record = raw.read(_ZIP64_EOCD.size)
            if record[:4] == b"PK\x06\x06":
                (_sig, _size, _made, _needed, _disk, _first, _here, listed, cd_size,
                 _offset) = _ZIP64_EOCD.unpack(record)
                end -= _ZIP64_LOCATOR.size + _ZIP64_EOCD.size
    if listed > cap:
        return f"the zip lists {listed:,} entries"
    position, records = end - cd_size, 0
    while end - cd_size >= 0 and position < end:
        raw.seek(position)
        header = raw.read(_CENTRAL_HEADER)
        if len(header) < _CENTRAL_HEADER or header[:4] != b"PK\x01\x02":
            break
        name, extra, comment = struct.unpack_from("<3H", header, 28)
        position += _CENTRAL_HEADER + name + extra + comment
        records += 1
        if records > cap:
            return "the zip's directory holds more entries than its end record says"
    return None


def read_zip(raw: BinaryIO) -> list[Entry]:
    tally = _Tally()
    entries = []
    try:
        if (too_many := zip_entries_over(raw, MAX_FILES)) is not None:
            raise SubmissionError(f"more than {MAX_FILES:,} files and folders ({too_many})")
        with zipfile.ZipFile(raw) as archive:
            for info in archive.infolist():
                path = clean_path(info.filename)
                if path is None or _left_out(path):
                    continue
                tally.entry(path)
                if info.flag_bits & 0x1:
                    raise SubmissionError(f"{path!r} is encrypted")
                mode = info.external_attr >> 16
                kind = stat.S_IFMT(mode)
                if info.is_dir() or kind == stat.S_IFDIR:
                    entries.append(Entry(path, "dir"))
                    continue
                if kind not in (0, stat.S_IFREG, stat.S_IFLNK):
                    raise SubmissionError(f"{path!r} is a device file, FIFO or socket")
                if info.file_size > MAX_RATIO * max(info.compress_size, 2**10):
                    raise SubmissionError(f"{path!r} unpacks to {info.file_size:,} bytes from "
                                          f"{info.compress_size:,}: a zip bomb")
                with archive.open(info) as stream:
                    data = _read_capped(stream, path, tally)
                if kind == stat.S_IFLNK:
                    entries.append(Entry(path, "symlink", target=data.decode("utf-8", "replace")))
                else:
                    entries.append(Entry(path, "file", data, executable=bool(mode & 0o111)))
    except SubmissionError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError,
            ValueError, OSError, struct.error) as err:
        raise SubmissionError(f"not a readable zip archive ({one_line(err)})") from None
    return entries


def one_line(err: Exception) -> str:
    """What went wrong, in a few words: an OS error's reason without its file's name."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    lines = str(err).strip().splitlines()
    return lines[0][:200] if lines else type(err).__name__


class CappedReader(io.RawIOBase):
    """A stream that raises ``refusal`` once more than ``cap`` bytes came out of it: a gzip
    bomb, or a tar of endless headers, stops there."""

    def __init__(self, inner: IO[bytes], cap: int, refusal: SubmissionError) -> None:
        self.inner, self.left, self.refusal = inner, cap, refusal

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self.inner.read(min(len(buffer), self.left + 1))
        self.left -= len(data)
        if self.left < 0:
            raise self.refusal
        buffer[:len(data)] = data
        return len(data)


def read_tar(raw: BinaryIO) -> list[Entry]:
    head = raw.read(2)
    raw.seek(0)
    stream: BinaryIO = gzip.GzipFile(fileobj=raw) if head == b"\x1f\x8b" else raw  # type: ignore[assignment]
    capped = io.BufferedReader(CappedReader(  # + the tar's headers
        stream, MAX_TOTAL_BYTES + 2**22,
        SubmissionError(f"it unpacks to more than {MAX_TOTAL_BYTES:,} bytes")))
    tally = _Tally()
    entries: list[Entry] = []
    files: dict[str, Entry] = {}
    try:
        with tarfile.open(fileobj=capped, mode="r|") as archive:
            for member in archive:
                path = clean_path(member.name)
                if path is None or _left_out(path):
                    continue
                tally.entry(path)
                if member.isdir():
                    entries.append(Entry(path, "dir"))
                elif member.issym():
                    entries.append(Entry(path, "symlink", target=member.linkname))
                elif member.islnk():  # a hard link: a copy of an earlier file of the archive
                    try:
                        source = clean_path(member.linkname) if member.linkname else None
                    except SubmissionError:
                        source = None
                    if source is None or source not in files:
                        raise SubmissionError(f"{path!r} is a hard link to "
                                              f"{member.linkname!r}, outside the submission")
                    tally.add(path, len(files[source].data))
                    entries.append(Entry(path, "file", files[source].data,
                                         files[source].executable))
                elif member.isreg():
                    if member.size > MAX_FILE_BYTES:
                        tally.add(path, member.size)
                    extracted = archive.extractfile(member)
                    assert extracted is not None
                    data = _read_capped(extracted, path, tally)
                    files[path] = Entry(path, "file", data, executable=bool(member.mode & 0o111))
                    entries.append(files[path])
                else:
                    raise SubmissionError(f"{path!r} is a device file, FIFO or socket")
    except (tarfile.TarError, OSError, EOFError, zlib.error) as err:
        raise SubmissionError(f"not a readable tar archive ({one_line(err)})") from None
    return entries


__all__ = [
    "LEFT_OUT", "MAX_ARCHIVE_BYTES", "MAX_FILES", "MAX_FILE_BYTES", "MAX_NAME_LENGTH",
    "MAX_PATH_DEPTH", "MAX_RATIO", "MAX_TOTAL_BYTES", "CappedReader", "Entry", "Kind",
    "SubmissionError", "clean_path", "one_line", "read_folder", "read_tar", "read_zip",
    "zip_entries_over",
]
