"""Submitted bots: a folder or an archive with a manifest, checked, kept content-addressed,
its dependencies built once.

A submission is a folder, a ``.zip``, or a ``.tar.gz`` (``.tgz``, ``.tar``) holding
:data:`MANIFEST` at its top (or inside its one top folder)::

    name = "cautious"                  # the bot's name
    command = "python bot.py"          # run from the bot's folder (python: the arena's)
    games = ["kill", "king"]           # the games it plays
    requirements = "requirements.txt"  # optional: Python packages, installed at submission

**Everything in it is hostile until checked**, and every check runs before anything is
written. A submission is refused, with one line saying why, for: an entry with an
absolute path, a ``..`` step, a backslash or a NUL in its name, or twice the same name;
an entry beneath a file or a link (``a`` a file or a link, and ``a/b``); a symbolic link
that does not lead to another file or folder of the submission, a hard link to anything
but an earlier file of it; a device file, FIFO or socket; an encrypted zip entry; more
than :data:`MAX_FILES` entries (a zip's are counted from its end record and its central
directory's headers before :mod:`zipfile` reads it whole), a file over
:data:`MAX_FILE_BYTES`, more than :data:`MAX_TOTAL_BYTES` in all, an archive over
:data:`MAX_ARCHIVE_BYTES`, or a zip entry packed more than :data:`MAX_RATIO` to one
(sizes are counted as the bytes come out, not as the archive claims them: a bomb stops
at the cap). ``.git``, ``__pycache__`` and ``*.pyc`` are left out (they are not the
bot's code).

**Links are followed as the kernel follows them.** A link's target is not judged as text
(``s/..`` is not "nothing" when ``s`` is itself a link elsewhere) but resolved step by
step over the submission's own tree, through every link on the way, the way the kernel
would resolve it on disk: it must end on a file or folder of the submission without ever
climbing above the bot's folder; a loop, a step through a file or a missing name refuses
it. :func:`unpack` checks all this again, creates every folder and file under a folder's
descriptor with ``O_NOFOLLOW`` (a link met on the way is an error, never followed) and
makes the links last, so nothing is ever written through one.

**Content-addressed.** What is kept is a canonical archive: an uncompressed tar of the
entries sorted by path, with modes reduced to 0644/0755, owner 0 and time 0. Its
SHA-256 is the version's hash: the same code gives the same hash from a folder, a zip
or a tarball, wherever and whenever it was packed.

**Built once** (:mod:`arena.players.builds`). A version's requirements, wheels only, are
downloaded by the arena and installed at submission into a folder of its own, in a build
sandbox with no network at all; the bot then runs from its stored folder, read-only, with
that folder on its ``PYTHONPATH``. A failed build refuses the submission with its log.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import os
import shlex
import shutil
import stat
import struct
import tarfile
import tomllib
import zipfile
import zlib
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO, Literal

from arena.errors import ArenaError

MANIFEST = "arena-bot.toml"
SUBMITTED_DIR = "bots"
"""Where submitted versions are unpacked and built, in the arena's data folder: one folder
per hash, ``code/`` and ``deps/``."""
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


class BuildError(SubmissionError):
    """The dependencies of a submission could not be installed."""

    def __init__(self, message: str, log: str) -> None:
        super().__init__(message)
        self.log = log


@dataclass(frozen=True)
class Entry:
    """One entry of a submission: a file (its bytes), a folder, or a link within it."""

    path: str  # relative, POSIX, normalized: "src/bot.py"
    kind: Kind
    data: bytes = b""
    executable: bool = False
    target: str = ""  # a link's target, relative to the link's folder


@dataclass(frozen=True)
class Manifest:
    name: str
    command: str
    games: tuple[str, ...]
    requirements: str | None = None  # the path of a requirements file in the submission


@dataclass(frozen=True)
class Submission:
    """A checked submission: its manifest, its canonical archive and that archive's hash."""

    manifest: Manifest
    archive: bytes
    sha256: str
    files: int  # entries
    size: int  # bytes of its files

    @property
    def short_hash(self) -> str:
        return self.sha256[:12]


# ---------------------------------------------------------------- reading


def read_submission(path: Path, known_games: Sequence[str]) -> Submission:
    """Read, check and canonicalize the submission at ``path`` (a folder or an archive)."""
    if path.is_symlink() or not (path.is_dir() or path.is_file()):  # a FIFO would block
        raise SubmissionError(f"{str(path)!r} is not a folder or an archive")
    try:
        entries = _read_path(path)
    except OSError as err:  # unreadable, or changed while read: named within the submission
        where = Path(err.filename) if isinstance(err.filename, str) else path
        inside = where.relative_to(path).as_posix() if where.is_relative_to(path) else ""
        raise SubmissionError(f"cannot read {inside or path.name!r} of the submission "
                              f"({err.strerror or type(err).__name__})") from None
    return _accept(entries, known_games)


def _read_path(path: Path) -> list[Entry]:
    if path.is_dir():
        entries = list(_read_folder(path))
    else:
        size = path.stat().st_size
        if size > MAX_ARCHIVE_BYTES:
            raise SubmissionError(f"{path.name} is {size:,} bytes; an archive may hold at most "
                                  f"{MAX_ARCHIVE_BYTES:,}")
        name = path.name.lower()
        with path.open("rb") as raw:
            if name.endswith(".zip"):
                entries = _read_zip(raw)
            elif name.endswith((".tar.gz", ".tgz", ".tar")):
                entries = _read_tar(raw)
            else:
                raise SubmissionError(f"{path.name} is no folder, .zip, .tar.gz or .tar")
    return entries


def read_archive(data: bytes, known_games: Sequence[str]) -> Submission:
    """Read a submission from an archive's bytes (a zip, a tar or a gzipped tar)."""
    if len(data) > MAX_ARCHIVE_BYTES:
        raise SubmissionError(f"the archive is {len(data):,} bytes; it may hold at most "
                              f"{MAX_ARCHIVE_BYTES:,}")
    raw = io.BytesIO(data)
    entries = _read_zip(raw) if data[:4] == b"PK\x03\x04" else _read_tar(raw)
    return _accept(entries, known_games)


def _accept(entries: list[Entry], known_games: Sequence[str]) -> Submission:
    entries = _in_one_folder(entries)
    _check_tree(entries)
    manifest = _manifest(entries, known_games)
    archive = canonical_archive(entries)
    size = sum(len(e.data) for e in entries)
    return Submission(manifest, archive, hashlib.sha256(archive).hexdigest(), len(entries), size)


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


def _clean_path(name: str) -> str | None:
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


def pack_folder(root: Path, leave_out: Collection[Path] = ()) -> tuple[bytes, str]:
    """A bot's folder as a canonical archive and its SHA-256, for another machine to unpack
    (:func:`unpack`), without the paths in ``leave_out`` (the arena's own files, where they
    lie inside it) and without sockets and FIFOs (a running server's, say: not code); refused,
    with the submissions' caps and link checks, as a submission."""
    skipped = {p.resolve() for p in leave_out}
    entries = list(_read_folder(root, skipped, special=False))
    _check_tree(entries)
    archive = canonical_archive(entries)
    return archive, hashlib.sha256(archive).hexdigest()


def _read_folder(root: Path, skipped: Collection[Path] = (),
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


def _check_zip_count(raw: BinaryIO) -> None:
    """Refuse a zip listing more than :data:`MAX_FILES` entries before :mod:`zipfile` reads
    its central directory whole (an object per entry: 370,000 one-letter entries fit in
    16 MiB and cost seconds and over 100 MiB). The end record (or zip64's) is found as zipfile
    finds it; its count refuses at once, and since zipfile reads records by the directory's
    size, not that count, the records' headers are then walked the same way, to one more
    than the cap at most, so a count that lies is caught too. What is malformed is left to
    zipfile to refuse."""
    size = raw.seek(0, os.SEEK_END)
    start = max(size - _EOCD.size - 0xFFFF, 0)
    raw.seek(start)
    tail = raw.read()
    at = len(tail) - _EOCD.size
    if at < 0 or tail[at:at + 4] != b"PK\x05\x06" or tail[-2:] != b"\0\0":
        at = tail.rfind(b"PK\x05\x06")  # an archive comment follows the end record
    if at < 0 or at + _EOCD.size > len(tail):
        raw.seek(0)
        return
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
    if listed > MAX_FILES:
        raise SubmissionError(f"more than {MAX_FILES:,} files and folders (the zip lists "
                              f"{listed:,} entries)")
    position, records = end - cd_size, 0
    while end - cd_size >= 0 and position < end:
        raw.seek(position)
        header = raw.read(_CENTRAL_HEADER)
        if len(header) < _CENTRAL_HEADER or header[:4] != b"PK\x01\x02":
            break
        name, extra, comment = struct.unpack_from("<3H", header, 28)
        position += _CENTRAL_HEADER + name + extra + comment
        records += 1
        if records > MAX_FILES:
            raise SubmissionError(f"more than {MAX_FILES:,} files and folders (the zip's "
                                  f"directory holds more entries than its end record says)")
    raw.seek(0)


def _read_zip(raw: BinaryIO) -> list[Entry]:
    tally = _Tally()
    entries = []
    try:
        _check_zip_count(raw)
        with zipfile.ZipFile(raw) as archive:
            for info in archive.infolist():
                path = _clean_path(info.filename)
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
        raise SubmissionError(f"not a readable zip archive ({_one_line(err)})") from None
    return entries


def _one_line(err: Exception) -> str:
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


def _read_tar(raw: BinaryIO) -> list[Entry]:
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
                path = _clean_path(member.name)
                if path is None or _left_out(path):
                    continue
                tally.entry(path)
                if member.isdir():
                    entries.append(Entry(path, "dir"))
                elif member.issym():
                    entries.append(Entry(path, "symlink", target=member.linkname))
                elif member.islnk():  # a hard link: a copy of an earlier file of the archive
                    try:
                        source = _clean_path(member.linkname) if member.linkname else None
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
        raise SubmissionError(f"not a readable tar archive ({_one_line(err)})") from None
    return entries


def _in_one_folder(entries: list[Entry]) -> list[Entry]:
    """A submission packed as its folder (``bot/arena-bot.toml``, ...) is that folder."""
    if any(e.path == MANIFEST for e in entries):
        return entries
    tops = {e.path.split("/", 1)[0] for e in entries}
    if len(tops) == 1:
        top = tops.pop()
        if any(e.path == top and e.kind == "dir" for e in entries) or all(
                "/" in e.path for e in entries):
            inner = [Entry(e.path[len(top) + 1:], e.kind, e.data, e.executable, e.target)
                     for e in entries if e.path != top]
            if any(e.path == MANIFEST for e in inner):
                return inner
    return entries


MAX_LINK_HOPS = 40
"""Links followed in resolving one path, as Linux allows: more is a loop."""
MAX_LINK_TARGET = 4095
"""The longest target a link may have (Linux's PATH_MAX, less its NUL)."""


def _check_tree(entries: Sequence[Entry]) -> None:
    """Nothing lies beneath a file or a link, and every link leads, as the kernel would
    follow it, to a file or folder of the submission without leaving the bot's folder."""
    tree = _Tree(entries)
    for entry in entries:
        if entry.kind == "symlink":
            tree.check_link(entry)


class _Tree:
    """A submission's entries as the folder they make on disk: each path's kind, folders
    that only its entries' paths imply included."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.kinds: dict[str, Kind] = {e.path: e.kind for e in entries}
        self.links = {e.path: e.target for e in entries if e.kind == "symlink"}
        for entry in entries:
            parts = entry.path.split("/")
            for depth in range(1, len(parts)):
                parent = "/".join(parts[:depth])
                kind = self.kinds.setdefault(parent, "dir")
                if kind != "dir":
                    raise SubmissionError(f"{entry.path!r} lies beneath {parent!r}, which is a "
                                          f"{'link' if kind == 'symlink' else 'file'}, not a "
                                          "folder")

    def check_link(self, entry: Entry) -> None:
        target = entry.target
        outside = SubmissionError(f"{entry.path!r} is a link to {target!r}, outside the "
                                  "submission")
        if (not target or target.startswith("/") or "\x00" in target or "\\" in target
                or len(target) > MAX_LINK_TARGET):
            raise outside
        parent = entry.path.split("/")[:-1]
        try:
            landed = self._resolve(parent, target, [0])
        except _Loop:
            raise SubmissionError(f"{entry.path!r} is a link to {target!r}: a loop, or a chain "
                                  f"of more than {MAX_LINK_HOPS} links") from None
        except _Outside:
            raise outside from None
        if not landed:  # the bot's folder itself
            raise outside

    def _resolve(self, folder: list[str], target: str, hops: list[int]) -> list[str]:
        """The path ``target`` leads to from ``folder``, step by step as the kernel takes
        it: ``..`` goes up from where a link really led, not from the link's name."""
        where = list(folder)
        steps = target.split("/")
        on_file = False
        for step in steps:
            if on_file:
                raise _Outside  # a step beyond a file (even "." or "/"): no such folder
            if step in ("", "."):
                continue
            if step == "..":
                if not where:
                    raise _Outside
                where.pop()
                continue
            path = "/".join([*where, step])
            kind = self.kinds.get(path)
            if kind is None:
                raise _Outside  # no such entry
            if kind == "symlink":
                hops[0] += 1
                if hops[0] > MAX_LINK_HOPS:
                    raise _Loop
                where = self._resolve(where, self.links[path], hops)
                on_file = self.kinds.get("/".join(where)) == "file"
            else:
                where.append(step)
                on_file = kind == "file"
        return where


class _Outside(Exception):
    """A link's path climbs above the bot's folder, or names nothing of the submission."""


class _Loop(Exception):
    """A link's path follows more links than the kernel would."""


def _manifest(entries: list[Entry], known_games: Sequence[str]) -> Manifest:
    found = next((e for e in entries if e.path == MANIFEST), None)
    if found is None or found.kind != "file":
        raise SubmissionError(f"no {MANIFEST} at the top of the submission")
    try:
        data = tomllib.loads(found.data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise SubmissionError(f"{MANIFEST} is not valid TOML: {err}") from None
    unknown = sorted(set(data) - {"name", "command", "games", "requirements"})
    if unknown:
        raise SubmissionError(f"{MANIFEST}: unknown key {unknown[0]!r} (keys: name, command, "
                              "games, requirements)")
    name, command, games = data.get("name"), data.get("command"), data.get("games")
    if not isinstance(name, str) or not name:
        raise SubmissionError(f"{MANIFEST}: 'name' must be the bot's name, a string")
    if not isinstance(command, str) or not command.strip():
        raise SubmissionError(f"{MANIFEST}: 'command' must be how to start the bot, a string")
    if not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games):
        raise SubmissionError(f"{MANIFEST}: 'games' must be a list of game names")
    strange = [g for g in games if g not in known_games]
    if strange:
        raise SubmissionError(f"{MANIFEST}: unknown game {strange[0]!r} (games: "
                              f"{', '.join(known_games)})")
    files = {e.path: e for e in entries}
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError) as err:
        raise SubmissionError(f"{MANIFEST}: cannot read the command {command!r}: {err}") from None
    if "/" in program:  # a program of the submission's own
        path = _clean_path(program)
        if path is None or path not in files or not files[path].executable:
            raise SubmissionError(f"{MANIFEST}: the command's program {program!r} is no "
                                  "executable file of the submission")
    elif program not in ("python", "python3") and shutil.which(program) is None:
        raise SubmissionError(f"{MANIFEST}: the command's program {program!r} is not installed "
                              "here (use python, or a program of the submission: ./run)")
    requirements = data.get("requirements")
    if requirements is not None:
        if not isinstance(requirements, str):
            raise SubmissionError(f"{MANIFEST}: 'requirements' must be a file's path")
        clean = _clean_path(requirements)
        if clean is None or clean not in files or files[clean].kind != "file":
            raise SubmissionError(f"{MANIFEST}: no requirements file {requirements!r} in the "
                                  "submission")
        requirements = clean
    return Manifest(name, command, tuple(dict.fromkeys(games)), requirements)


# ---------------------------------------------------------------- the canonical archive


def canonical_archive(entries: Sequence[Entry]) -> bytes:
    """The entries as a tar that depends on nothing but their paths, kinds, bytes and
    executable bits."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for entry in sorted(entries, key=lambda e: e.path):
            info = tarfile.TarInfo(entry.path)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if entry.kind == "dir":
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                archive.addfile(info)
            elif entry.kind == "symlink":
                info.type, info.mode, info.linkname = tarfile.SYMTYPE, 0o777, entry.target
                archive.addfile(info)
            else:
                info.mode = 0o755 if entry.executable else 0o644
                info.size = len(entry.data)
                archive.addfile(info, io.BytesIO(entry.data))
    return out.getvalue()


_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def unpack(archive: bytes, sha256: str, folder: Path) -> None:
    """Write a stored canonical archive out as ``folder`` (new), read-only, after checking
    that it is the archive of that hash and reading it with every check again.

    Folders first, then files, then links: each made under its folder's descriptor, every
    step to it opened with ``O_NOFOLLOW`` and each file created with ``O_EXCL``, so no link
    (one of the archive's, or one put there meanwhile) is ever followed or written through.
    Anything the system refuses is a :class:`SubmissionError` naming the entry, and
    ``folder`` is gone."""
    if hashlib.sha256(archive).hexdigest() != sha256:
        raise SubmissionError(f"the stored archive of {sha256[:12]} does not have that hash")
    entries = _read_tar(io.BytesIO(archive))
    _check_tree(entries)
    try:
        folder.mkdir(parents=True)
    except OSError as err:
        raise SubmissionError(f"cannot make a folder for {sha256[:12]} ({_one_line(err)})") \
            from None
    try:
        _write_out(entries, folder)
    except BaseException:
        remove(folder)
        raise


def _write_out(entries: Sequence[Entry], folder: Path) -> None:
    """Make the entries in ``folder`` (folders, files, then links), then make every folder
    read-only; what the system refuses is a :class:`SubmissionError` naming the entry."""
    order = {"dir": 0, "file": 1, "symlink": 2}
    folders = {""} | {"/".join(e.path.split("/")[:depth]) for e in entries
                      for depth in range(1, e.path.count("/") + 1)}
    folders |= {e.path for e in entries if e.kind == "dir"}
    try:
        root = os.open(folder, _FOLDER)
    except OSError as err:
        raise SubmissionError(f"its folder cannot be opened ({_one_line(err)})") from None
    try:
        for entry in sorted(entries, key=lambda e: (order[e.kind], e.path)):
            parent, _, name = entry.path.rpartition("/")
            try:
                where = _open_folder(root, parent, make=True)
                try:
                    if entry.kind == "dir":
                        os.mkdir(name, 0o755, dir_fd=where)
                    elif entry.kind == "symlink":
                        os.symlink(entry.target, name, dir_fd=where)
                    else:
                        _write_file(where, name, entry.data, 0o555 if entry.executable else 0o444)
                finally:
                    os.close(where)
            except FileExistsError:
                if entry.kind != "dir" or not _is_folder(root, entry.path):
                    raise SubmissionError(f"{entry.path!r} cannot be unpacked (it is there "
                                          "already)") from None
            except OSError as err:
                raise SubmissionError(f"{entry.path!r} cannot be unpacked "
                                      f"({_one_line(err)})") from None
        for path in sorted(folders, reverse=True):  # read-only, deepest first
            try:
                made = _open_folder(root, path, make=False)
                try:
                    os.fchmod(made, 0o555)
                finally:
                    os.close(made)
            except OSError as err:
                raise SubmissionError(f"{path or '.'!r} cannot be made read-only "
                                      f"({_one_line(err)})") from None
    finally:
        os.close(root)


def _open_folder(root: int, path: str, make: bool) -> int:
    """A new descriptor of the folder ``path`` under ``root``, every step opened without
    following a link (a link on the way fails with ``ELOOP``); missing steps made if
    ``make``."""
    where = os.dup(root)
    try:
        for step in path.split("/") if path else ():
            if make:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(step, 0o755, dir_fd=where)
            inner = os.open(step, _FOLDER, dir_fd=where)
            os.close(where)
            where = inner
    except BaseException:
        os.close(where)
        raise
    return where


def _is_folder(root: int, path: str) -> bool:
    try:
        os.close(_open_folder(root, path, make=False))
    except OSError:
        return False
    return True


def _write_file(folder: int, name: str, data: bytes, mode: int) -> None:
    """A new file ``name`` in ``folder`` (never through a link, never over anything)."""
    with os.fdopen(os.open(name, _NEW_FILE, 0o600, dir_fd=folder), "wb") as out:
        out.write(data)
        os.fchmod(out.fileno(), mode)


def remove(path: Path) -> None:
    """Remove a folder whose files and folders were made read-only (links not followed;
    what cannot be removed is left, without an error)."""
    if path.is_symlink() or not path.is_dir():
        with contextlib.suppress(OSError):
            if path.is_symlink() or path.exists():
                path.unlink()
        return
    for folder, dirs, _files in os.walk(path):
        for name in dirs:
            with_path = Path(folder) / name
            with contextlib.suppress(OSError):
                if not with_path.is_symlink():
                    with_path.chmod(0o755)
    with contextlib.suppress(OSError):
        path.chmod(0o755)
    shutil.rmtree(path, ignore_errors=True)


__all__ = [
    "MANIFEST", "MAX_ARCHIVE_BYTES", "MAX_FILES", "MAX_FILE_BYTES", "MAX_RATIO", "MAX_TOTAL_BYTES",
    "BuildError", "CappedReader", "Entry", "Manifest", "Submission", "SubmissionError", "canonical_archive",
    "pack_folder", "read_archive", "read_submission", "remove", "unpack",
]
