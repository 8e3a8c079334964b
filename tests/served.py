"""A real ``arena serve`` for the tests: one process on free ports (the operator service, the
scheduler, the web app unless ``--no-web``), its output gathered as it comes; the command line
against it; and :func:`eventually` (from :mod:`tests.helpers`), the tests' wait for
something to become true.
"""

from __future__ import annotations

import functools
import os
import re
import resource
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TypeVar

from tests.helpers import cli, eventually

T = TypeVar("T")
OPERATOR = "operator-token-of-the-served-tests"
AUTH = (("authorization", f"Bearer {OPERATOR}"),)


class Served:
    """``arena serve`` on free ports over ``db``, with ``extra`` arguments; once it listens:
    :attr:`port` and :attr:`address` (the operator service, plain text or TLS), :attr:`web`
    (the web app's URL without the final slash; "" with ``--no-web``), :attr:`lines` (all it
    printed so far, without line ends).

    ``env`` goes over this environment (a value of None removes the variable), which has
    ARENA_OPERATOR_TOKEN set to :data:`OPERATOR`; ``descriptors`` is a limit on its open
    files (soft and hard: it cannot raise it); ``stderr``, a file for its stderr instead of
    :attr:`lines`. New versions are accepted without their validation (``--no-validation``:
    the tests submit bots meant to misbehave later) unless ``validation``."""

    def __init__(self, db: Path, *extra: str, env: Mapping[str, str | None] | None = None,
                 descriptors: int | None = None, stderr: Path | None = None,
                 validation: bool = False) -> None:
        web = "--no-web" not in extra
        environ = {**os.environ, "COLUMNS": "200", "ARENA_OPERATOR_TOKEN": OPERATOR, **(env or {})}
        limit = None if descriptors is None else functools.partial(  # in the child
            resource.setrlimit, resource.RLIMIT_NOFILE, (descriptors, descriptors))

        err: IO[str] | int = stderr.open("w") if stderr is not None else subprocess.STDOUT
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "arena", "serve", "--port", "0",
                 *(["--web-port", "0"] if web else []), "--db", str(db),
                 *([] if validation else ["--no-validation"]), *extra],
                stdout=subprocess.PIPE, stderr=err, text=True, preexec_fn=limit,
                env={k: v for k, v in environ.items() if v is not None})
        finally:
            if not isinstance(err, int):
                err.close()
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            self.port = int(self.said(r"operator service listening on [^:]+:(\d+)", 120).group(1))
            self.web = self.said(r"web app at (http://\S+?)/?$", 120).group(1) if web else ""
        except AssertionError as failed:
            raise AssertionError(f"arena serve did not start ({failed}):\n" + self.stop()) from None
        self.address = f"127.0.0.1:{self.port}"

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def said(self, pattern: str | re.Pattern[str], timeout: float = 180.0) -> re.Match[str]:
        """The first line it printed that matches ``pattern``, once it has printed one."""

        def found() -> re.Match[str] | None:
            ended = self.process.poll() is not None and not self._reader.is_alive()
            for line in list(self.lines):
                if match := re.search(pattern, line):
                    return match
            if ended:
                raise AssertionError("arena serve ended:\n" + "\n".join(self.lines))
            return None

        return eventually(f"arena serve to print {pattern!r}", found, timeout)

    def stop(self, how: signal.Signals = signal.SIGTERM) -> str:
        """Stop it (by default with SIGTERM, as a service manager does; killed if it is not
        gone within a minute); everything it printed."""
        if self.process.poll() is None:
            self.process.send_signal(how)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=5)
        return "\n".join(self.lines)


def remote(served: Served, token: str, *args: str,
           check: bool = True) -> subprocess.CompletedProcess[str]:
    """The command line against ``served``, as the holder of ``token``."""
    return cli(*args, "--arena", served.address, "--token", token, check=check)


__all__ = ["AUTH", "OPERATOR", "Served", "eventually", "remote"]
