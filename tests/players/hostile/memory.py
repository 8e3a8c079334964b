"""Attack 10: hold more memory than allowed, spread over child processes.

    python -m tests.players.hostile.memory [--children 4] [--mb 500] [--step-mb 20]

Forks ``--children`` processes that each allocate ``--mb`` MB, ``--step-mb`` at a
time, writing to every page, and say after each step how much they hold. The parent
adds up what its living children hold, and reports the most they held at once, how
far each got and how each ended (a child killed by the kernel ends by SIGKILL).
"""

from __future__ import annotations

import os
import select
import signal
import time

from .common import parse, parser, play, report

HOLD_S = 1.0  # a child that got all it asked for keeps it this long
GIVE_UP_S = 30.0
PF_EXITING = 0x4  # a process's flag from the moment it starts to exit


def child(index: int, out: int, total_mb: int, step_mb: int) -> None:
    hoard = []
    held = 0
    while held < total_mb:
        hoard.append(bytearray(b"\x5a") * (step_mb << 20))  # every page written
        held += step_mb
        os.write(out, f"{index} {held}\n".encode())
    time.sleep(HOLD_S)


def exiting(pid: int) -> bool:
    """Whether the process is exiting (or gone): its memory is no longer its own."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return True
    return fields[0] in "ZX" or bool(int(fields[6]) & PF_EXITING)


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--children", type=int, default=4)
    cli.add_argument("--mb", type=int, default=500)
    cli.add_argument("--step-mb", type=int, default=20)
    args = parse(cli)
    read, write = os.pipe()
    pids: dict[int, int] = {}
    for index in range(args.children):
        pid = os.fork()
        if pid == 0:
            os.close(read)
            try:
                child(index, write, args.mb, args.step_mb)
            finally:
                os._exit(0)
        pids[pid] = index
    os.close(write)
    held = dict.fromkeys(range(args.children), 0)
    reached = dict(held)
    ended: dict[int, str] = {}
    peak = 0
    buffer = b""
    deadline = time.monotonic() + GIVE_UP_S
    while len(ended) < args.children and time.monotonic() < deadline:
        if select.select([read], [], [], 0.02)[0]:
            buffer += os.read(read, 65536)
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                index, mb = map(int, line.split())
                if index not in ended:
                    held[index] = mb
                    reached[index] = max(reached[index], mb)
            # A child killed for memory gives it back while it exits, before it can be
            # waited for, and another may use that room at once (and say so): count only
            # the children that are not exiting now, after their words were read.
            peak = max(peak, sum(held[index] for pid, index in pids.items()
                                 if not exiting(pid)))
        for pid, index in list(pids.items()):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                del pids[pid]
                held[index] = 0
                ended[index] = (f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
                                if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}")
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    report("memory", peak_mb=peak, asked_mb=args.children * args.mb, reached_mb=reached,
           ended=ended, killed=sum(1 for e in ended.values() if e.startswith("killed")))
    play()


if __name__ == "__main__":
    main()
