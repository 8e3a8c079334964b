"""Submitted versions on this machine: unpacked from their stored archive and their
dependencies built, once per machine.

A version's requirements are installed with pip into a folder of its own (``--target``),
in the build sandbox (:meth:`arena.players.sandbox.Sandbox.build_command`); the bot then
runs from its stored folder, read-only, with that folder on its ``PYTHONPATH``. A failed
build refuses the submission with its log. :func:`materialize` unpacks a stored archive
(checking its hash) and builds its dependencies where that has not been done here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from arena.players.sandbox import Sandbox, SandboxUnavailable
from arena.players.submissions import (
    MANIFEST,
    BuildError,
    Submission,
    SubmissionError,
    remove,
    unpack,
)

BUILD_TIMEOUT_S = 900.0


@dataclass(frozen=True)
class Installed:
    """A version ready to run here: its code folder, and its dependencies' folder if any."""

    code: Path
    deps: Path | None


def version_folder(root: Path, sha256: str) -> Path:
    return root / sha256


def build(code: Path, requirements: str, deps: Path, log: Path, sandbox: bool = True,
          timeout_s: float = BUILD_TIMEOUT_S) -> float:
    """Install ``requirements`` (a file of ``code``) into the new folder ``deps`` with pip;
    the seconds it took. A failure leaves no ``deps`` and raises :class:`BuildError` with
    the end of the log. In the ``sandbox`` (by default), pip and whatever a package's build
    runs have the network, but nothing of the arena in sight and only their own folder to
    write to (:meth:`Sandbox.build_command`); without it, they run as this user."""
    began = time.perf_counter()
    staging = Path(tempfile.mkdtemp(prefix=".building-", dir=deps.parent))
    source = staging / "source"  # a writable copy: pip may build a local package in place
    shutil.copytree(code, source, symlinks=True)
    for folder, _dirs, _files in os.walk(source):
        Path(folder).chmod(0o755)
    command = [sys.executable, "-m", "pip", "install", "--no-input", "--disable-pip-version-check",
               "--no-warn-script-location", "--no-cache-dir", "--target", str(staging / "deps"),
               "-r", requirements]
    env = _build_env()
    if sandbox:
        try:
            command = Sandbox().build_command(command, source, staging, env)
        except SandboxUnavailable as err:
            shutil.rmtree(staging, ignore_errors=True)
            raise SubmissionError(f"cannot build its requirements in the sandbox: {err}") from None
        env = {}
    with log.open("wb") as out:
        try:
            done = subprocess.run(command, cwd=source, stdin=subprocess.DEVNULL, stdout=out,
                                  stderr=subprocess.STDOUT, timeout=timeout_s, check=False,
                                  env=env)
            status: int | None = done.returncode
        except subprocess.TimeoutExpired:
            status = None
    try:
        if status != 0:
            why = "it took too long" if status is None else f"pip exited with code {status}"
            raise BuildError(f"its requirements could not be installed ({why})",
                             tail(log.read_text(errors="replace")))
        (staging / "deps").rename(deps)
    finally:
        remove(staging)
    return time.perf_counter() - began


def _build_env() -> dict[str, str]:
    """What pip is given of the arena's environment: where the package index is, and proxies."""
    keep = ("PATH", "LANG", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST",
            "PIP_FIND_LINKS", "PIP_CERT", "PIP_DEFAULT_TIMEOUT", "HTTPS_PROXY", "HTTP_PROXY",
            "NO_PROXY", "https_proxy", "http_proxy", "no_proxy", "SSL_CERT_FILE")
    return {k: v for k, v in os.environ.items() if k in keep}


def tail(text: str, lines: int = 20) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def install(submission: Submission, root: Path,
            sandbox: bool = True) -> tuple[Installed, float | None]:
    """Unpack a submission under ``root`` and build its dependencies (if it has any and they
    are not there yet); the seconds the build took (None: nothing built). A failed build
    leaves nothing new behind."""
    home = version_folder(root, submission.sha256)
    made = home  # the outermost folder this will make
    while not made.parent.exists():
        made = made.parent
    existed = made.exists()
    try:
        return materialize(submission.archive, submission.sha256, root, sandbox)
    except SubmissionError:
        if not existed:
            remove(made)
        raise


def materialize(archive: bytes, sha256: str, root: Path,
                sandbox: bool = True) -> tuple[Installed, float | None]:
    """The version of ``sha256`` ready to run under ``root/sha256``: unpacked from its archive
    where it is not yet (the hash checked), its dependencies (as its manifest names them)
    built where they are not; the seconds a build took (None: nothing built)."""
    home = version_folder(root, sha256)
    code = home / "code"
    home.mkdir(parents=True, exist_ok=True)
    if not code.is_dir():
        staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=home))
        try:
            unpack(archive, sha256, staging / "code")
            (staging / "code").rename(code)
        except FileExistsError:
            pass  # unpacked meanwhile by another arena
        finally:
            remove(staging)
    requirements = tomllib.loads((code / MANIFEST).read_text()).get("requirements")
    if requirements is None:
        return Installed(code, None), None
    deps = home / "deps"
    if deps.is_dir():
        return Installed(code, deps), None
    took = build(code, requirements, deps, home / "build.log", sandbox)
    return Installed(code, deps), took


__all__ = ["BUILD_TIMEOUT_S", "Installed", "build", "install", "materialize", "tail",
           "version_folder"]
