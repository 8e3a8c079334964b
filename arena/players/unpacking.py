"""A checked submission kept and written out: its canonical archive (an uncompressed tar of
the entries sorted by path, modes 0644/0755, owner 0, time 0: the same code gives the same
bytes, and so the same hash, however it was packed), and that archive unpacked read-only,
never through a link (see :mod:`arena.players.submissions`)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import tarfile
from collections.abc import Sequence
from pathlib import Path

from arena.players.archives import Entry, SubmissionError, one_line, read_tar
from arena.players.tree import check_tree


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
    entries = read_tar(io.BytesIO(archive))
    check_tree(entries)
    try:
        folder.mkdir(parents=True)
    except OSError as err:
        raise SubmissionError(f"cannot make a folder for {sha256[:12]} ({one_line(err)})") \
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
        raise SubmissionError(f"its folder cannot be opened ({one_line(err)})") from None
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
                                      f"({one_line(err)})") from None
        for path in sorted(folders, reverse=True):  # read-only, deepest first
            try:
                made = _open_folder(root, path, make=False)
                try:
                    os.fchmod(made, 0o555)
                finally:
                    os.close(made)
            except OSError as err:
                raise SubmissionError(f"{path or '.'!r} cannot be made read-only "
                                      f"({one_line(err)})") from None
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


__all__ = ["canonical_archive", "remove", "unpack"]
