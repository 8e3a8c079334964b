"""A real ``arena serve`` for the tests of secrecy and caps: the operator service, the scheduler
(bots in the real sandbox unless told otherwise) and the web app, as one process on free
ports, its output gathered as it comes; and a bot that holds its match running until the test
lets it go.

The gate bot plays random legal actions, but at its ``HOLD``-th decision of a match it waits
until the file ``open-SEAT`` exists in its own folder (the sandbox shows a bot its folder,
read-only, as it is now: a file the test creates there appears inside). In a duplicate deal it
sits in another seat in each rotation, so each rotation is released on its own. Released with
``fail-SEAT`` there too, it then fails with its observation in its message (an ``error`` fault
whose reason names its cards).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from tests.helpers import arena

T = TypeVar("T")
OPERATOR = "operator-token-for-the-secrecy-tests"
AUTH = (("authorization", f"Bearer {OPERATOR}"),)

GATE_BOT = '''
import random
import time
from pathlib import Path

from sdk import Bot
from sdk.run import run

HERE = Path(__file__).resolve().parent
HOLD = {hold}


class Gate(Bot):
    def __init__(self):
        self.random = random.Random(1)
        self.decisions = 0
        self.seat = 0

    def on_start(self, match):
        self.decisions, self.seat = 0, match.seat

    def act(self, observation, legal_actions):
        self.decisions += 1
        if self.decisions == HOLD:
            while not (HERE / f"open-{{self.seat}}").exists():
                time.sleep(0.05)
            if (HERE / f"fail-{{self.seat}}").exists():  # a fault whose reason names its cards
                raise RuntimeError(f"gave up holding {{observation!r}}")
        return self.random.choice(list(legal_actions))


run(Gate)
'''


def gate_bot(folder: Path, hold: int = 3) -> Path:
    """The gate bot's folder (see the module's docstring); ``open(folder, seat)`` lets the
    rotation where it sits in ``seat`` go on."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(GATE_BOT.format(hold=hold))
    return folder


def release(folder: Path, seat: int, fail: bool = False) -> None:
    if fail:
        (folder / f"fail-{seat}").touch()
    (folder / f"open-{seat}").touch()


def eventually(what: str, predicate: Callable[[], T], timeout: float = 180.0,
               every: float = 0.1) -> T:
    """``predicate()`` once it is true (it is asked until then); the timeout is only a safety
    net for a test that would otherwise hang."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


class Served:
    """``arena serve`` on free ports over ``db``: :attr:`address` (operator service, plain
    text), :attr:`web` (the web app's URL, without the final slash)."""

    def __init__(self, db: Path, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arena", "serve", "--port", "0", "--web-port", "0",
             "--db", str(db), *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env={**os.environ, "COLUMNS": "200", "ARENA_OPERATOR_TOKEN": OPERATOR})
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            port = eventually("the operator service's port", lambda: self._find(
                r"operator service listening on [^:]+:(\d+)"), timeout=60) or ""
            self.web: str = eventually("the web app's URL", lambda: self._find(
                r"web app at (http://\S+?)/?$"), timeout=60) or ""
        except AssertionError:
            raise AssertionError("arena serve did not start:\n" + self.stop()) from None
        self.address = f"127.0.0.1:{port}"

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def _find(self, pattern: str) -> str | None:
        if self.process.poll() is not None and not self._reader.is_alive():
            raise AssertionError("arena serve ended:\n" + "\n".join(self.lines))
        for line in list(self.lines):
            found = re.search(pattern, line)
            if found:
                return found.group(1)
        return None

    def remote(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """The CLI against this server, as the operator."""
        return arena(*args, "--arena", self.address, "--token", OPERATOR, check=check)

    def stop(self) -> str:
        """Stop it (SIGTERM, as a service manager does); everything it printed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=5)
        return "\n".join(self.lines)


__all__ = ["AUTH", "OPERATOR", "Served", "eventually", "gate_bot", "release"]
