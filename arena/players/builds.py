"""Submitted versions on this machine: unpacked from their stored archive and their
dependencies built, once per machine.

**No code of an author ever runs with a route to the arena.** A version's requirements
file is read by the arena first (:mod:`arena.players.requirements`: plain requirements on
the index, and wheels of the submission; URLs, folders, sdists, includes and options are
refused in one line). Then, in two steps:

1. the arena downloads **wheels only**, on this machine, with ``pip download
   --only-binary=:all:`` (pip runs no package's code for a wheel), from the package index
   its *operator* configured (``PIP_INDEX_URL`` and the like, pip's configuration files),
   into a scratch folder, under a size cap; a package with no wheel for this machine is
   refused with pip's reason in one line;
2. those wheels are installed **offline** (``pip install --no-index --find-links``) into
   the version's ``deps`` folder by a build contained like a bot
   (:mod:`arena.players.buildbox`): in the build sandbox with no network at all, in
   control groups of its own, under a wall-clock cap, writing only a size-capped tmpfs
   whose result the arena copies out and checks (a real folder; files, folders and links
   inside it only).

The bot then runs from its stored folder, read-only, with ``deps`` on its ``PYTHONPATH``.
A failed build refuses the submission with the end of its log, in which the arena's paths
are replaced by placeholders (``<build>``, ``<version>``, ``<data>``, ``<python>``).
:func:`materialize` unpacks a stored archive (checking its hash) and builds its
dependencies where that has not been done here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from arena.players.buildbox import (
    BUILD_TIMEOUT_S,
    DEFAULT_LIMITS,
    BuildLimits,
    Log,
    run_build,
    supervise,
)
from arena.players.requirements import Requirements, read_requirements
from arena.players.submissions import (
    MANIFEST,
    BuildError,
    Submission,
    SubmissionError,
    remove,
    unpack,
)


@dataclass(frozen=True)
class Installed:
    """A version ready to run here: its code folder, and its dependencies' folder if any."""

    code: Path
    deps: Path | None


def version_folder(root: Path, sha256: str) -> Path:
    return root / sha256


def build(code: Path, requirements: str, deps: Path, log: Path, sandbox: bool = True) -> float:
    """Install the requirements file ``requirements`` (a path in ``code``) into the new folder
    ``deps`` (see the module's note); the seconds it took. A refused line is a
    :class:`~arena.players.requirements.RequirementError`, before anything runs; a failed
    download or install leaves no ``deps`` and raises :class:`BuildError` with the end of
    the log, scrubbed of the arena's paths. ``sandbox=False`` installs as this user (for
    trusted bots on a machine without bubblewrap): still wheels only, still offline."""
    began = time.perf_counter()
    wanted = read_requirements(code, requirements)
    limits = DEFAULT_LIMITS
    deadline = time.monotonic() + limits.wall_s
    staging = Path(tempfile.mkdtemp(prefix=".building-", dir=deps.parent))
    places = {staging: "<build>", deps.parent: "<version>", deps.parent.parent.parent: "<data>",
              Path(sys.prefix): "<python>", Path(sys.base_prefix): "<python>"}
    try:
        with log.open("wb") as file:
            out = Log(file)
            try:
                if wanted.empty:
                    (staging / "deps").mkdir()
                else:
                    wheels = _download(wanted, staging, out, deadline, limits)
                    run_build(_PIP_INSTALL + [str(w) for w in sorted(wheels.glob("*.whl"))],
                              wheels, staging / "deps", out, deadline, limits, sandbox)
            except BuildError as err:
                raise BuildError(scrub(str(err), places), scrub(tail(out.text()), places)) \
                    from None
        (staging / "deps").rename(deps)  # checked as it was copied out (buildbox.copy_out)
    finally:
        remove(staging)
    return time.perf_counter() - began


_PIP_INSTALL = [sys.executable, "-m", "pip", "--isolated", "install", "--no-index",
                "--find-links", ".", "--no-input", "--disable-pip-version-check",
                "--no-warn-script-location", "--no-cache-dir", "--progress-bar", "off",
                "--target", "{build}/deps"]
"""The offline install, run in the wheels' folder; ``--isolated``: no configuration or
variable of the machine's pip applies (there is no index to reach anyway)."""


def _download(wanted: Requirements, staging: Path, log: Log, deadline: float,
              limits: BuildLimits) -> Path:
    """The wheels of ``wanted`` and of everything they need, downloaded by the arena's own pip
    into ``staging/wheels`` (from the operator's index; a vendored wheel is copied); a
    :class:`BuildError` in one line if a package has no wheel for this machine."""
    vendored, wheels, tmp = staging / "vendored", staging / "wheels", staging / "tmp"
    for folder in (vendored, wheels, tmp):
        folder.mkdir()
    copies: dict[Path, Path] = {}
    for wheel in wanted.wheels:
        copy = vendored / wheel.name
        if copy.exists():
            raise BuildError(f"two wheels of the submission are named {wheel.name}", "")
        shutil.copyfile(wheel, copy)
        copies[wheel] = copy
    listed = staging / "requirements.txt"
    listed.write_text(wanted.text(copies))
    command = [sys.executable, "-m", "pip", "download", "--only-binary=:all:", "--no-input",
               "--disable-pip-version-check", "--progress-bar", "off", "--no-cache-dir",
               "--dest", str(wheels), "-r", str(listed)]
    cap = limits.download_mb * 2**20

    def over() -> str | None:
        return f"its wheels come to more than {limits.download_mb} MiB" \
            if _size(staging) > cap else None

    stopped = supervise(command, {**_build_env(), "TMPDIR": str(tmp)}, staging, log, deadline,
                         None, over=over, late=f"it took longer than {limits.wall_s:g} s")
    if stopped.why is not None:
        raise BuildError(f"its requirements could not be installed ({stopped.why})", "")
    if stopped.status != 0:
        raise BuildError(f"its requirements could not be installed: {_pip_reason(log)}", "")
    return wheels


def _pip_reason(log: Log) -> str:
    """pip's reason for a failed download, in one line."""
    errors = [line.strip().removeprefix("ERROR: ") for line in log.text().splitlines()
              if line.startswith("ERROR: ")]
    reason = errors[-1] if errors else "pip could not download them"
    if "No matching distribution" in reason or "from versions: none" in reason:
        return f"no wheel of them for this machine ({reason[:200]})"
    return reason[:200]


def _size(folder: Path) -> int:
    total = 0
    for where, _dirs, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(where, name)).st_size
    return total


def _build_env() -> dict[str, str]:
    """What the arena's own ``pip download`` is given of its environment: where the package
    index is (the operator's ``PIP_*`` settings; ``HOME`` for pip's configuration files),
    proxies and certificates. Nothing else: not the operator's token, not the database."""
    keep = ("PATH", "LANG", "HOME", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy",
            "http_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE",
            "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS")
    return {k: v for k, v in os.environ.items() if k in keep or k.startswith("PIP_")}


def tail(text: str, lines: int = 20) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def scrub(text: str, places: dict[Path, str]) -> str:
    """``text`` without this machine's paths (longest first) and without the index lines of
    pip (where the operator's index is), for an author to read."""
    for path, placeholder in sorted(places.items(), key=lambda p: -len(str(p[0]))):
        if str(path) not in ("", "/", "."):
            text = text.replace(str(path), placeholder)
    for key in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS"):
        for value in os.environ.get(key, "").split():
            text = text.replace(value, "<index>")
    return "\n".join(line for line in text.splitlines() if not line.startswith("Looking in "))


def install(submission: Submission, root: Path,
            sandbox: bool = True) -> tuple[Installed, float | None]:
    """Unpack a submission under ``root`` and build its dependencies (if it has any and they
    are not there yet); the seconds the build took (None: nothing built). A refusal, a
    failed build or an error of the system (a :class:`SubmissionError` in one line, no
    path of this machine in it) leaves nothing new behind."""
    home = version_folder(root, submission.sha256)
    made = home  # the outermost folder this will make
    while not made.parent.exists():
        made = made.parent
    existed = made.exists()
    try:
        return materialize(submission.archive, submission.sha256, root, sandbox)
    except (SubmissionError, OSError) as err:
        if not existed:
            remove(made)
        if isinstance(err, OSError):
            raise SubmissionError(f"version {submission.short_hash} could not be installed "
                                  f"here ({err.strerror or type(err).__name__})") from None
        raise


def materialize(archive: bytes, sha256: str, root: Path,
                sandbox: bool = True) -> tuple[Installed, float | None]:
    """The version of ``sha256`` ready to run under ``root/sha256``: unpacked from its archive
    where it is not yet (the hash checked), its dependencies (as its manifest names them)
    built where they are not; the seconds a build took (None: nothing built). What cannot
    be unpacked is a :class:`SubmissionError` in one line, and leaves no folder of it."""
    home = version_folder(root, sha256)
    code = home / "code"
    new_home = not home.exists()
    try:
        home.mkdir(parents=True, exist_ok=True)
        if not code.is_dir():
            _unpack_once(archive, sha256, home)
        requirements = tomllib.loads((code / MANIFEST).read_text()).get("requirements")
    except (SubmissionError, OSError) as err:
        if new_home:  # empty unless another arena unpacks it too: then it stays
            with contextlib.suppress(OSError):
                home.rmdir()
        if isinstance(err, OSError):
            raise SubmissionError(f"version {sha256[:12]} could not be unpacked here "
                                  f"({err.strerror or type(err).__name__})") from None
        raise
    if requirements is None:
        return Installed(code, None), None
    deps = home / "deps"
    if deps.is_dir():
        return Installed(code, deps), None
    took = build(code, requirements, deps, home / "build.log", sandbox)
    return Installed(code, deps), took


def _unpack_once(archive: bytes, sha256: str, home: Path) -> None:
    """Unpack into a staging folder of ``home``, then move it to ``home/code`` in one step;
    the staging folder is gone either way."""
    staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=home))
    try:
        unpack(archive, sha256, staging / "code")
        (staging / "code").rename(home / "code")
    except OSError as err:
        if err.errno not in (errno.EEXIST, errno.ENOTEMPTY) or not (home / "code").is_dir():
            raise
        # unpacked meanwhile by another arena
    finally:
        remove(staging)


__all__ = ["BUILD_TIMEOUT_S", "BuildLimits", "Installed", "build", "install", "materialize",
           "scrub", "tail", "version_folder"]
