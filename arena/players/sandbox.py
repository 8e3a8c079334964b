"""The sandbox every managed bot runs in: bubblewrap, with nothing of the arena in sight.

A bot's process tree gets, from ``bwrap`` (Debian package ``bubblewrap``):

* its own user, PID, mount, IPC, UTS, network and cgroup namespaces: inside, it
  is uid 65534 with no capabilities, sees only its own processes, and can signal
  or ptrace nothing outside; it may not make further user namespaces;
* no network: the network namespace has only a loopback with nothing on it. The
  referee is reached through the bot's own Unix socket, bound in at
  :data:`SOCKET_INSIDE` (``ARENA_SERVER=unix:/run/arena/referee.sock``);
* read-only views of the system's runtime (``/usr`` and the few files of
  ``/etc`` that programs need), of the Python the arena runs on and its
  installed packages, and of the bot's own folder (its working directory);
  the arena's database, data folder and logs are left out even when they lie
  inside one of those folders;
* a private, size-capped tmpfs at ``/tmp`` (also ``HOME``) and another at
  ``/dev/shm``, gone with the sandbox; the rest of its file system is read-only
  (``/`` and ``/dev`` are remounted read-only last);
* an environment of its own: ``ARENA_SERVER``, ``ARENA_TOKEN``, ``PATH``,
  ``HOME`` and a few harmless settings, nothing of the arena's variables;
* a new session (no terminal to inject keys into), and death with its parent:
  when the arena kills ``bwrap`` (or dies), the namespace's init dies and the
  kernel kills every process in the namespace with it.

**Its uid outside.** bubblewrap maps the sandbox's uid 65534 to the uid that runs
it: when the arena runs as root, a bot is root *without any capability* to the
kernel, and so passes every check that looks only at a file's owner. Everything
it can reach that root owns is therefore read-only or absent: ``/proc/sys`` and
``/proc/pressure`` are bound read-only (bubblewrap covers ``/proc/sysrq-trigger``,
``/proc/irq`` and ``/proc/bus`` itself), ``/etc/ssl`` is not shown, and ``/`` is
read-only; a test tries to open every file of the kernel's under ``/proc`` for
writing. Run the arena as an unprivileged user to have the bots run as that user.

Limits on the bot as a whole (memory, processes, CPU) come from control groups
(:mod:`arena.players.cgroups`), joined by the launcher before it becomes ``bwrap``.

**A build** (:meth:`Sandbox.build_command`, run by :mod:`arena.players.buildbox`) gets the
same, and no network either: it installs wheels the arena downloaded, offline, and writes
only a size-capped tmpfs at :data:`BUILD_INSIDE`. **A bot's own folders** are shown where the
arena checked them (:func:`checked_folder`): a real folder, never a link put in its place.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SOCKET_INSIDE = "/run/arena/referee.sock"
SANDBOX_UID = 65534  # "nobody", inside the sandbox's own user namespace
SCRATCH = "/tmp"
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime",
             "nsswitch.conf", "passwd", "group", "mime.types")  # not ssl/: private keys live there
BUILD_INSIDE = "/build"
"""Where a build writes, inside its sandbox: a size-capped tmpfs of its own (pip's target
and its temporary files), gone with the sandbox; the arena copies the result out."""
RUNTIME_PACKAGES = ("arena", "sdk", "bots", "grpc", "google.protobuf")
"""The SDK's packages and the bundled bots (``python -m bots.random_bot``): a Python bot
imports them, wherever they are installed (in an editable install, from the source tree)."""
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": SCRATCH, "TMPDIR": SCRATCH,
               "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"}


_REFUSE = "import sys; print(sys.argv[1], file=sys.stderr); sys.exit(1)"
"""What runs in a bot's place when one of its own folders is refused: one line, then exit."""


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run on this machine (the message says why, in one line)."""


@dataclass(frozen=True)
class SandboxCheck:
    """Whether bubblewrap can make a sandbox here, and if not why not."""

    works: bool
    bwrap: str | None
    version: str
    why_not: str = ""

    @property
    def remedy(self) -> str:
        """What the operator can do about it."""
        if self.bwrap is None:
            return "install bubblewrap (scripts/install-system-packages)"
        return ("let this user make namespaces (user namespaces may be turned off, e.g. by "
                "sysctl kernel.unprivileged_userns_clone=0 or a container's seccomp policy)")


@functools.cache
def check() -> SandboxCheck:
    """Try bubblewrap once per process: found, and able to make every namespace it needs."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return SandboxCheck(False, None, "", "bubblewrap (bwrap) is not installed")
    try:
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True,
                                 timeout=10).stdout.strip()
        trial = subprocess.run([bwrap, *_NAMESPACES, "--ro-bind", "/", "/", "--proc", "/proc",
                                "--", "true"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as err:
        return SandboxCheck(False, bwrap, "", f"bubblewrap cannot run: {err}")
    if trial.returncode != 0:
        why = (trial.stderr.strip().splitlines() or [f"exit code {trial.returncode}"])[-1]
        return SandboxCheck(False, bwrap, version, f"bubblewrap cannot make namespaces here: {why}")
    return SandboxCheck(True, bwrap, version)


_NAMESPACES = ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
               "--new-session", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID))


@dataclass(frozen=True)
class Sandbox:
    """How to run one bot in bubblewrap: what it sees and what it is kept from.

    ``hidden`` are paths of the arena's own (its database and the files beside it
    that share its name, its data folder): they are never shown, even inside a
    folder that is. ``scratch_mb`` caps the private ``/tmp``.
    """

    hidden: tuple[Path, ...] = ()
    scratch_mb: int = 64
    runtime: tuple[Path, ...] = field(default_factory=lambda: runtime_paths())

    def command(self, argv: Sequence[str], folder: Path, socket: Path,
                env: Mapping[str, str], shown: Sequence[Path] = ()) -> list[str]:
        """The ``bwrap`` command line that runs ``argv`` in ``folder`` with ``socket`` at
        :data:`SOCKET_INSIDE` and exactly ``env`` (plus :data:`ENVIRONMENT`) as environment.
        ``shown``: more folders of the bot's own, read-only (a submitted version's
        dependencies). The bot's own folders are shown even when they are kept inside a
        hidden one (a submitted version's code lies in the arena's data folder); what is
        hidden inside them stays hidden."""
        return self._bwrap(argv, folder, env, shown=shown,
                           binds=("--ro-bind", str(socket), SOCKET_INSIDE))

    def build_command(self, argv: Sequence[str], folder: Path, env: Mapping[str, str],
                      build_mb: int, scratch_mb: int = 64) -> list[str]:
        """The ``bwrap`` command line that builds a submitted version: ``argv`` run in
        ``folder`` (read-only: the wheels the arena downloaded) with **no network at all**
        (a network namespace of its own, with nothing in it: no loopback of the host's, so
        no database, Ray, operator port or web app) and nothing writable but a tmpfs of
        ``build_mb`` at :data:`BUILD_INSIDE` (and a private ``/tmp`` of ``scratch_mb``).
        Everything else is as for a bot: its own namespaces, the runtime read-only, nothing
        hidden in sight."""
        return self._bwrap(argv, folder, env, build_mb=build_mb, scratch_mb=scratch_mb)

    def _bwrap(self, argv: Sequence[str], folder: Path, env: Mapping[str, str], *,
               shown: Sequence[Path] = (), binds: Sequence[str] = (),
               build_mb: int | None = None, scratch_mb: int | None = None) -> list[str]:
        """The command line of both: ``build_mb``, when given, adds the build's tmpfs;
        ``binds`` come last. The bot's own folders are bound where the arena checked them
        (:func:`checked_folder`): never where a link put in their place would lead."""
        found = check()
        if not found.works or found.bwrap is None:
            raise SandboxUnavailable(f"{found.why_not}; {found.remedy}")
        size = str((scratch_mb or self.scratch_mb) * 2**20)
        args = [found.bwrap, *_NAMESPACES, "--proc", "/proc",
                "--ro-bind", "/proc/sys", "/proc/sys",  # see the module's note on the uid
                "--ro-bind-try", "/proc/pressure", "/proc/pressure",
                "--dev", "/dev", "--size", size, "--tmpfs", "/dev/shm",
                "--size", size, "--tmpfs", SCRATCH]  # first: a bot's folder or the runtime
        # may lie under /tmp, and are then shown on the scratch
        try:
            own = [checked_folder(folder), *(checked_folder(p, deep=True) for p in shown)]
        except UnsafeFolder as err:  # the bot is not started: its log says why, in one line
            own = [checked_folder(folder)]
            argv = [sys.executable, "-I", "-S", "-c", _REFUSE, f"arena: not started: {err}"]
        system = [Path(p) for p in (*SYSTEM_DIRS, *(f"/etc/{name}" for name in ETC_FILES))]

        def is_hidden(path: Path) -> bool:
            return self._is_hidden(path, own)

        for path in [*system, *_outermost([*(p.resolve() for p in self.runtime), *own])]:
            args += _mirror(path, is_hidden, self._holds_hidden)
        if build_mb is not None:
            args += ["--size", str(build_mb * 2**20), "--tmpfs", BUILD_INSIDE]
        args += [*binds, "--chdir", str(own[0]), "--clearenv",
                 "--remount-ro", "/dev", "--remount-ro", "/"]
        for key, value in {**ENVIRONMENT, **env}.items():
            args += ["--setenv", key, value]
        return [*args, "--", *argv]

    def _is_hidden(self, path: Path, own: Sequence[Path] = ()) -> bool:
        """A hidden path, a path inside one, or a file beside one that shares its name
        (``arena.db-wal``, ``arena.db-shm``, ...); but not one of the bot's ``own`` folders
        (or a path inside it) that lies inside a hidden folder."""
        for hidden in self.hidden:
            if not (path == hidden or hidden in path.parents
                    or (path.parent == hidden.parent and path.name.startswith(hidden.name))):
                continue
            if any(hidden in o.parents and (path == o or o in path.parents) for o in own):
                continue
            return True
        return False

    def _holds_hidden(self, path: Path) -> bool:
        return any(path in hidden.parents for hidden in self.hidden)


class UnsafeFolder(ValueError):
    """A bot's own folder is not a plain folder of its own: shown, it would show something else
    (the message says which, in one line, without the arena's paths)."""


def checked_folder(path: Path, deep: bool = False) -> Path:
    """Where ``path`` really is, checked before it is shown to a bot or kept as a version's
    dependencies: the folders above it resolved (the arena's own), but ``path`` itself a real
    folder, never a link (which would show whatever it leads to: another author's log, the
    arena's ``/proc``). ``deep``: everything inside is a folder, a regular file, or a link
    that leads (physically, every link followed) to somewhere inside it; nothing else
    (walked once per process: see :data:`_CHECKED_DEEP`)."""
    checked = path.parent.resolve() / path.name
    try:
        found = os.lstat(checked)
    except OSError:
        raise UnsafeFolder(f"the folder {path.name!r} is missing") from None
    if not stat.S_ISDIR(found.st_mode):
        raise UnsafeFolder(f"{path.name!r} is not a folder (a link or a file in its place)")
    key = (str(checked), found.st_dev, found.st_ino, found.st_ctime_ns)
    if deep and key not in _CHECKED_DEEP:
        top = os.path.realpath(checked)
        for folder, dirs, files in os.walk(checked):
            for name in [*dirs, *files]:
                entry = os.path.join(folder, name)
                mode = os.lstat(entry).st_mode
                if stat.S_ISLNK(mode):
                    real = os.path.realpath(entry)
                    if real != top and not real.startswith(top + os.sep):
                        raise UnsafeFolder(f"{path.name!r} holds a link that leads out of it: "
                                           f"{os.path.relpath(entry, checked)!r}")
                elif not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                    raise UnsafeFolder(f"{path.name!r} holds a device file, FIFO or socket: "
                                       f"{os.path.relpath(entry, checked)!r}")
        _CHECKED_DEEP.add(key)
    return checked


_CHECKED_DEEP: set[tuple[str, int, int, int]] = set()
"""Folders checked deeply by this process, as they were (inode, change time): a bot's
dependencies are walked once, not at every start (18,000 entries take most of a second);
the folder itself is looked at every time. Nothing but the arena writes inside one after
its build (no process of the build survives it, and no sandbox can write there)."""


def runtime_paths() -> tuple[Path, ...]:
    """The Python the arena runs on (interpreter, standard library, installed packages) and the
    folders of the SDK's packages: everything a Python bot needs, read-only."""
    paths = {Path(sys.base_prefix), Path(sys.prefix)}
    for name in ("stdlib", "platstdlib", "purelib", "platlib"):
        paths.add(Path(sysconfig.get_paths()[name]))
    for package in RUNTIME_PACKAGES:
        paths.update(package_dirs(package))
    return tuple(sorted(p.resolve() for p in paths if p.exists()))


def package_dirs(name: str) -> list[Path]:
    """The folders a package is imported from (none if it cannot be found)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return []
    if spec is None or spec.submodule_search_locations is None:
        return []
    return [Path(location) for location in spec.submodule_search_locations]


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """The paths (absolute, already resolved or checked) without those inside another."""
    ordered = sorted(set(paths), key=lambda p: len(p.parts))
    kept: list[Path] = []
    for path in ordered:
        if not any(path == k or k in path.parents for k in kept):
            kept.append(path)
    return kept


def _mirror(path: Path, is_hidden: Callable[[Path], bool],
            holds_hidden: Callable[[Path], bool], top: bool = True) -> list[str]:
    """Arguments showing ``path`` read-only at the same place, without the hidden paths.

    A folder holding a hidden path is shown entry by entry (recursively, down to the
    hidden one), on a small tmpfs of its own made read-only once filled (the outermost
    such folder: those inside it are on the same one); a symbolic link is recreated as
    a link, never followed, so no link in a bot's folder leads to what is hidden.
    """
    if is_hidden(path):
        return []
    if path.is_symlink():
        return ["--symlink", os.readlink(path), str(path)]
    if not path.exists():
        return []
    if path.is_dir() and holds_hidden(path):
        try:
            entries = sorted(path.iterdir())
        except OSError:
            return []
        args = ["--size", str(2**20), "--tmpfs", str(path)] if top else ["--dir", str(path)]
        for entry in entries:
            args += _mirror(entry, is_hidden, holds_hidden, top=False)
        return [*args, "--remount-ro", str(path)] if top else args
    return ["--ro-bind", str(path), str(path)]
