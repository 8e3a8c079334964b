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

Here: the manifest and the whole of a submission's checks, in order. Reading a folder or an
archive with its caps is :mod:`arena.players.archives`, the tree and its links
:mod:`arena.players.tree`, the canonical archive and unpacking :mod:`arena.players.unpacking`;
their public names are importable from here too.
"""

from __future__ import annotations

import hashlib
import io
import shlex
import shutil
import tomllib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.players.archives import (
    MAX_ARCHIVE_BYTES,
    MAX_FILE_BYTES,
    MAX_FILES,
    MAX_RATIO,
    MAX_TOTAL_BYTES,
    CappedReader,
    Entry,
    SubmissionError,
    clean_path,
    read_folder,
    read_tar,
    read_zip,
)
from arena.players.tree import check_tree
from arena.players.unpacking import canonical_archive, remove, unpack

MANIFEST = "arena-bot.toml"
SUBMITTED_DIR = "bots"
"""Where submitted versions are unpacked and built, in the arena's data folder: one folder
per hash, ``code/`` and ``deps/``."""


class BuildError(SubmissionError):
    """The dependencies of a submission could not be installed."""

    def __init__(self, message: str, log: str) -> None:
        super().__init__(message)
        self.log = log


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
        entries = list(read_folder(path))
    else:
        size = path.stat().st_size
        if size > MAX_ARCHIVE_BYTES:
            raise SubmissionError(f"{path.name} is {size:,} bytes; an archive may hold at most "
                                  f"{MAX_ARCHIVE_BYTES:,}")
        name = path.name.lower()
        with path.open("rb") as raw:
            if name.endswith(".zip"):
                entries = read_zip(raw)
            elif name.endswith((".tar.gz", ".tgz", ".tar")):
                entries = read_tar(raw)
            else:
                raise SubmissionError(f"{path.name} is no folder, .zip, .tar.gz or .tar")
    return entries


def read_archive(data: bytes, known_games: Sequence[str]) -> Submission:
    """Read a submission from an archive's bytes (a zip, a tar or a gzipped tar)."""
    if len(data) > MAX_ARCHIVE_BYTES:
        raise SubmissionError(f"the archive is {len(data):,} bytes; it may hold at most "
                              f"{MAX_ARCHIVE_BYTES:,}")
    raw = io.BytesIO(data)
    entries = read_zip(raw) if data[:4] == b"PK\x03\x04" else read_tar(raw)
    return _accept(entries, known_games)


def _accept(entries: list[Entry], known_games: Sequence[str]) -> Submission:
    entries = _in_one_folder(entries)
    check_tree(entries)
    manifest = _manifest(entries, known_games)
    archive = canonical_archive(entries)
    size = sum(len(e.data) for e in entries)
    return Submission(manifest, archive, hashlib.sha256(archive).hexdigest(), len(entries), size)


def pack_folder(root: Path, leave_out: Collection[Path] = ()) -> tuple[bytes, str]:
    """A bot's folder as a canonical archive and its SHA-256, for another machine to unpack
    (:func:`unpack`), without the paths in ``leave_out`` (the arena's own files, where they
    lie inside it) and without sockets and FIFOs (a running server's, say: not code); refused,
    with the submissions' caps and link checks, as a submission."""
    skipped = {p.resolve() for p in leave_out}
    entries = list(read_folder(root, skipped, special=False))
    check_tree(entries)
    archive = canonical_archive(entries)
    return archive, hashlib.sha256(archive).hexdigest()


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
        path = clean_path(program)
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
        clean = clean_path(requirements)
        if clean is None or clean not in files or files[clean].kind != "file":
            raise SubmissionError(f"{MANIFEST}: no requirements file {requirements!r} in the "
                                  "submission")
        requirements = clean
    return Manifest(name, command, tuple(dict.fromkeys(games)), requirements)


__all__ = [
    "MANIFEST", "MAX_ARCHIVE_BYTES", "MAX_FILES", "MAX_FILE_BYTES", "MAX_RATIO", "MAX_TOTAL_BYTES",
    "SUBMITTED_DIR", "BuildError", "CappedReader", "Entry", "Manifest", "Submission",
    "SubmissionError", "canonical_archive", "pack_folder", "read_archive", "read_submission",
    "remove", "unpack",
]
