"""Attack 8: leave a process behind, out of the arena's reach.

    python -m tests.players.hostile.escape --marker TEXT

Double-forks: the child starts a new session (``setsid``), forks again and exits; the
grandchild, reparented and in a session and process group of its own, ignores
SIGTERM and SIGHUP and becomes a long ``sleep`` whose command line carries the marker.
Reports the grandchild's pid and that it runs, then plays. The test then looks for
any process with the marker once the tournament is over.
"""

from __future__ import annotations

import os
import signal
import sys
import time

from .common import cmdline, parse, parser, play, report

SLEEPER = "import time; time.sleep(600)"


def escape(marker: str) -> int:
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        os.setsid()
        grandchild = os.fork()
        if grandchild == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # kept across exec
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            os.write(write, str(os.getpid()).encode())
            os.close(write)
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):  # let go of the arena's pipe, like a daemon
                os.dup2(devnull, fd)
            os.execv(sys.executable, [sys.executable, "-c", SLEEPER, f"escaped-{marker}"])
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    pid = int(os.read(read, 32) or b"0")
    os.close(read)
    return pid


def main() -> None:
    args = parse(parser(__doc__ or ""))
    pid = escape(args.marker)
    line = ""
    deadline = time.monotonic() + 5
    while f"escaped-{args.marker}" not in line and time.monotonic() < deadline:
        time.sleep(0.05)  # let it exec
        line = cmdline(pid) or ""
    report("escape", pid=pid, cmdline=line, running=f"escaped-{args.marker}" in line,
           session=os.getsid(pid) if line else None, own_session=os.getsid(0))
    play()


if __name__ == "__main__":
    main()
