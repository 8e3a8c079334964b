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
a symbolic link that does not lead to another file of the submission, a hard link to
anything but an earlier file of it; a device file, FIFO or socket; an encrypted zip
entry; more than :data:`MAX_FILES` entries, a file over :data:`MAX_FILE_BYTES`, more
than :data:`MAX_TOTAL_BYTES` in all, an archive over :data:`MAX_ARCHIVE_BYTES`, or a
zip entry packed more than :data:`MAX_RATIO` to one (sizes are counted as the bytes
come out, not as the archive claims them: a bomb stops at the cap). ``.git``,
``__pycache__`` and ``*.pyc`` are left out (they are not the bot's code).

**Content-addressed.** What is kept is a canonical archive: an uncompressed tar of the
entries sorted by path, with modes reduced to 0644/0755, owner 0 and time 0. Its
SHA-256 is the version's hash: the same code gives the same hash from a folder, a zip
or a tarball, wherever and whenever it was packed.

**Built once.** A version's requirements are installed at submission with pip into a
folder of its own (``--target``), outside the bot's sandbox (the build may reach the
package index; the bot never can); the bot then runs from its stored folder, read-only,
with that folder on its ``PYTHONPATH``. A failed build refuses the submission with its
log. :func:`materialize` unpacks a stored archive (checking its hash) and builds its
dependencies where that has not been done on this machine.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import posixpath
import shlex
import shutil
import stat
import tarfile
import tomllib
import zipfile
import zlib
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO, Literal

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


class SubmissionError(ValueError):
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
    if path.is_symlink() or not path.exists():
        raise SubmissionError(f"{str(path)!r} is not a folder or an archive")
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
    return _accept(entries, known_games)


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
    _check_links(entries)
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
    _check_links(entries)
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


def _read_zip(raw: BinaryIO) -> list[Entry]:
    tally = _Tally()
    entries = []
    try:
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
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as err:
        raise SubmissionError(f"not a readable zip archive ({err})") from None
    return entries


class _CappedReader(io.RawIOBase):
    """A stream that fails once more than ``cap`` bytes came out of it: a gzip bomb, or
    a tar of endless headers, stops there."""

    def __init__(self, inner: BinaryIO, cap: int) -> None:
        self.inner, self.left = inner, cap

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self.inner.read(min(len(buffer), self.left + 1))
        self.left -= len(data)
        if self.left < 0:
            raise SubmissionError(f"it unpacks to more than {MAX_TOTAL_BYTES:,} bytes")
        buffer[:len(data)] = data
        return len(data)


def _read_tar(raw: BinaryIO) -> list[Entry]:
    head = raw.read(2)
    raw.seek(0)
    stream: BinaryIO = gzip.GzipFile(fileobj=raw) if head == b"\x1f\x8b" else raw  # type: ignore[assignment]
    capped = io.BufferedReader(_CappedReader(stream, MAX_TOTAL_BYTES + 2**22))  # + headers
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
        raise SubmissionError(f"not a readable tar archive ({err})") from None
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


def _check_links(entries: list[Entry]) -> None:
    """Every symbolic link is relative and leads to a file or folder of the submission."""
    present = {e.path for e in entries}
    for entry in entries:
        if entry.kind != "symlink":
            continue
        target = entry.target
        if not target or target.startswith("/") or "\x00" in target or "\\" in target:
            raise SubmissionError(f"{entry.path!r} is a link to {target!r}, outside the submission")
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(entry.path), target))
        if joined == ".." or joined.startswith("../") or joined not in present:
            raise SubmissionError(f"{entry.path!r} is a link to {target!r}, outside the submission")


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


def unpack(archive: bytes, sha256: str, folder: Path) -> None:
    """Write a stored canonical archive out as ``folder`` (new), read-only, after checking
    that it is the archive of that hash and reading it with every check again."""
    if hashlib.sha256(archive).hexdigest() != sha256:
        raise SubmissionError(f"the stored archive of {sha256[:12]} does not have that hash")
    entries = _read_tar(io.BytesIO(archive))
    folder.mkdir(parents=True)
    folders = [folder]
    for entry in sorted(entries, key=lambda e: e.path):
        target = folder / entry.path
        if entry.kind == "dir":
            target.mkdir(exist_ok=True)
            folders.append(target)
        elif entry.kind == "symlink":
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(entry.target, target)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(entry.data)
            target.chmod(0o555 if entry.executable else 0o444)
    for made in folders:
        made.chmod(0o555)


def remove(path: Path) -> None:
    """Remove a folder whose files and folders were made read-only."""
    if not path.exists():
        return
    for folder, dirs, _files in os.walk(path):
        for name in dirs:
            with_path = Path(folder) / name
            if not with_path.is_symlink():
                with_path.chmod(0o755)
    path.chmod(0o755)
    shutil.rmtree(path, ignore_errors=True)


__all__ = [
    "MANIFEST", "MAX_ARCHIVE_BYTES", "MAX_FILES", "MAX_FILE_BYTES", "MAX_RATIO", "MAX_TOTAL_BYTES",
    "BuildError", "Entry", "Manifest", "Submission", "SubmissionError", "canonical_archive",
    "pack_folder", "read_archive", "read_submission", "remove", "unpack",
]
