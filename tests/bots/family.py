"""A bot that is a family of processes, for the tests of limits on a bot as a whole.

    python -m tests.bots.family forks WORKERS EACH   # WORKERS children each fork up to EACH sleepers
    python -m tests.bots.family memory CHILDREN MB   # CHILDREN children each allocate and hold MB
    python -m tests.bots.family spin CHILDREN SECONDS  # CHILDREN children each spin for SECONDS

Each prints one line of results (``processes N``, ``held H killed K``, ``cpu S``) and then
sleeps until stopped. Nothing here connects to an arena: only the limits are tested.
"""

from __future__ import annotations

import os
import select
import sys
import time

LINGER_S = 300  # how long everything stays put after the result: the test stops it earlier


def forks(workers: int, each: int) -> None:
    """Fork workers, each of which forks sleepers until refused or ``each``; print how many
    processes the family had at its largest (this one included)."""
    reports_r, reports_w = os.pipe()
    started = 0
    for _ in range(workers):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            os.close(reports_r)
            got = 0
            for _ in range(each):
                try:
                    if os.fork() == 0:
                        time.sleep(LINGER_S)
                        os._exit(0)
                except OSError:
                    break
                got += 1
            os.write(reports_w, b"%d\n" % got)
            time.sleep(LINGER_S)
            os._exit(0)
        started += 1
    os.close(reports_w)
    with os.fdopen(reports_r) as reports:
        sleepers = sum(int(reports.readline()) for _ in range(started))
    print(f"processes {1 + started + sleepers}", flush=True)
    time.sleep(LINGER_S)


def memory(children: int, megabytes: int) -> None:
    """Fork children one after the other, each allocating ``megabytes`` (touched) and holding
    it; print how many still hold theirs at the end, and how many were killed."""
    held_r, held_w = os.pipe()
    pids = []
    for _ in range(children):
        pid = os.fork()
        if pid == 0:
            os.close(held_r)
            _hoard = b"x" * (megabytes << 20)  # every page written: resident
            os.write(held_w, b"!")
            time.sleep(LINGER_S)
            os._exit(0)
        pids.append(pid)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # until it holds its memory, or is dead
            if select.select([held_r], [], [], 0.05)[0]:
                os.read(held_r, 1)
                break
            if os.waitpid(pid, os.WNOHANG)[0]:
                pids.remove(pid)
                break
    time.sleep(0.5)
    held = sum(os.waitpid(pid, os.WNOHANG)[0] == 0 for pid in pids)
    print(f"held {held} killed {children - held}", flush=True)
    time.sleep(LINGER_S)


def spin(children: int, seconds: float) -> None:
    """Children that spin for ``seconds`` of wall time each; print their CPU seconds together."""
    pids = []
    for _ in range(children):
        pid = os.fork()
        if pid == 0:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                pass
            os._exit(0)
        pids.append(pid)
    for pid in pids:
        os.waitpid(pid, 0)
    used = os.times()
    print(f"cpu {used.children_user + used.children_system:.3f}", flush=True)
    time.sleep(LINGER_S)


if __name__ == "__main__":
    mode, first, second = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    {"forks": lambda: forks(first, int(second)), "memory": lambda: memory(first, int(second)),
     "spin": lambda: spin(first, second)}[mode]()
