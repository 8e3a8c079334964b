"""What the hostile bots share: reporting to the test, what they can see, and honest play.

A hostile bot attacks at start-up (and some again when their first match starts),
prints what it found as one line per attack, ``ATTACK <name> {json}``, flushed, on
stdout (the arena captures it into the bot's log, where the test reads it), and then
plays like the random bot. Everything a bot is told (a database path, a marker, a
port) comes on its command line, never from the environment.

The bots need nothing but the standard library and the SDK, imported only when play
starts (so that a bot may fork before gRPC starts its threads): the test runs them
from a copy of this package alone, in a folder that also holds the arena's database.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import random
import re
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

TOKEN = re.compile(rb"ARENA_TOKEN[=\x00 ]+([A-Za-z0-9_-]{16,})")
"""A token next to its variable's name: in an environment, or on bubblewrap's command line."""
SERVER = re.compile(rb"ARENA_SERVER[=\x00 ]+(unix:[^\x00\s]+|[0-9A-Za-z.:\[\]-]+)")
INSIDE_SOCKET = "unix:/run/arena/referee.sock"


def report(attack: str, **found: Any) -> None:
    """One line for the test: ``ATTACK <attack> {json}``."""
    print(f"ATTACK {attack} {json.dumps(found, sort_keys=True, default=repr)}", flush=True)


def parser(description: str) -> argparse.ArgumentParser:
    """A bot's arguments: its own, plus ``--marker`` (tags its processes) and ``--only``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--marker", default="", help="a tag for this bot's processes")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="touch only processes whose command line holds TEXT (for the "
                             "unsandboxed control runs, which must leave the machine alone)")
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> argparse.Namespace:
    args, _ = parser.parse_known_args(argv)  # a chaos tournament's marker may come after
    return args


def error(err: BaseException) -> str:
    """An error as its short name (``ENOENT``), for the report."""
    if isinstance(err, OSError) and err.errno is not None:
        return errno.errorcode.get(err.errno, str(err.errno))
    return type(err).__name__


def read(path: str, limit: int = 1 << 20) -> bytes | str:
    """A file's bytes, or why not."""
    try:
        with open(path, "rb") as file:
            return file.read(limit)
    except OSError as err:
        return error(err)


def clipped(line: str, keep: int = 150) -> str:
    """A command line short enough to report, its start and its end kept (a bot's own command
    and marker come last, after the launcher's and bubblewrap's arguments)."""
    return line if len(line) <= 2 * keep else f"{line[:keep]} ... {line[-keep:]}"


def cmdline(pid: int) -> str | None:
    data = read(f"/proc/{pid}/cmdline")
    return data.replace(b"\0", b" ").decode(errors="replace").strip() if isinstance(data, bytes) \
        else None


def processes(only: Iterable[str] = ()) -> dict[int, str]:
    """The processes in sight but this one, with their command lines (those holding one of
    ``only``, when given)."""
    only = list(only)
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        line = cmdline(int(name))
        if line is None or (only and not any(text in line for text in only)):
            continue
        found[int(name)] = line
    return found


def regions(pid: int, wanted: Callable[[str], bool]) -> list[tuple[int, int, str]]:
    """The readable mappings of a process whose line in ``maps`` is ``wanted``."""
    maps = read(f"/proc/{pid}/maps")
    found = []
    if isinstance(maps, bytes):
        for line in maps.decode(errors="replace").splitlines():
            fields = line.split()
            if len(fields) >= 2 and fields[1].startswith("r") and wanted(line):
                start, end = (int(x, 16) for x in fields[0].split("-"))
                found.append((start, end, fields[-1] if len(fields) >= 6 else ""))
    return found


def read_memory(pid: int, start: int, size: int) -> bytes | str:
    try:
        with open(f"/proc/{pid}/mem", "rb") as mem:
            mem.seek(start)
            return mem.read(size)
    except (OSError, ValueError, OverflowError) as err:
        return error(err)


def stack(pid: int, limit: int = 1 << 20) -> bytes | str:
    """The top of a process's main stack (where its environment and arguments are)."""
    found = regions(pid, lambda line: line.endswith("[stack]"))
    if not found:
        return "no stack mapping in sight"
    start, end, _ = found[0]
    return read_memory(pid, max(start, end - limit), min(limit, end - start))


def without_own_arguments(data: bytes) -> bytes:
    """``data`` less this bot's own command-line arguments (they show in its sandbox's
    ``/proc/1/cmdline`` and stack: what the test told it is no leak)."""
    own = b"\0".join(arg.encode() for arg in sys.argv[1:])
    return data.replace(own, b"") if own else data


def tokens_in(data: bytes) -> set[str]:
    return {m.group(1).decode() for m in TOKEN.finditer(data)}


def own_token() -> str:
    return os.environ.get("ARENA_TOKEN", "")


def strings(data: bytes, shortest: int = 6) -> list[str]:
    """The printable runs in ``data``, like strings(1)."""
    return [m.group().decode() for m in re.finditer(rb"[\x20-\x7e]{%d,}" % shortest, data)]


def once(action: Callable[[], None]) -> Callable[[], None]:
    """``action`` run once, where the result is first called (so that it is over before the
    caller goes on: the tournament may end soon after)."""
    done = threading.Event()

    def fire() -> None:
        if not done.is_set():
            done.set()
            _guarded(action)()

    return fire


def later(action: Callable[[], None]) -> Callable[[], None]:
    """``action`` run once, on a thread of its own, the first time the result is called."""
    fired = threading.Event()

    def fire() -> None:
        if not fired.is_set():
            fired.set()
            threading.Thread(target=_guarded(action), daemon=True).start()

    return fire


def _guarded(action: Callable[[], None]) -> Callable[[], None]:
    def run() -> None:
        try:
            action()
        except Exception as err:  # the attack failed in a way it did not expect: say so, play on
            report("unexpected", error=repr(err))

    return run


def honest(on_match: Callable[[], None] | None = None) -> Callable[[], Any]:
    """The honest player (a random legal action, like ``bots/random_bot.py``), as a bot
    factory for the SDK; ``on_match`` is called as each match starts."""
    from sdk import Bot, MatchInfo

    class Honest(Bot):
        def __init__(self) -> None:
            self.random = random.Random()

        def on_start(self, match: MatchInfo) -> None:
            if on_match is not None:
                on_match()

        def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
            return self.random.choice(list(legal_actions))

    return Honest


def play(on_match: Callable[[], None] | None = None) -> None:
    """Play honestly until dismissed (see :func:`honest`)."""
    from sdk.run import run

    sys.stdout.flush()
    run(honest(on_match), argv=[])
