"""Attack 4: trace the arena and the other bots.

    python -m tests.players.hostile.ptrace [--only TEXT]

For every process in sight but its own: ``PTRACE_ATTACH`` (through ctypes), a
``PTRACE_PEEKDATA`` of its stack when attached, then ``PTRACE_DETACH`` and SIGCONT;
and a read of its memory through ``/proc/PID/mem``. Reports, per process, its
command line and what worked. Run again when its first match starts.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import signal

from .common import clipped, once, parse, parser, play, processes, read_memory, regions, report

PTRACE_PEEKDATA = 2
PTRACE_ATTACH = 16
PTRACE_DETACH = 17
WALL = 0x40000000  # __WALL: wait for a traced thread, whatever it is


def trace(only: list[str], phase: str) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    libc.ptrace.restype = ctypes.c_long
    found: dict[int, dict[str, object]] = {}
    for pid, line in processes(only).items():
        if os.path.exists(f"/proc/self/task/{pid}"):
            continue  # one of its own threads
        entry: dict[str, object] = {"cmdline": clipped(line)}
        stacks = regions(pid, lambda text: text.endswith("[stack]"))
        ctypes.set_errno(0)
        if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
            entry["attach"] = "attached"
            try:
                os.waitpid(pid, WALL)
                if stacks:
                    ctypes.set_errno(0)
                    word = libc.ptrace(PTRACE_PEEKDATA, pid, ctypes.c_void_p(stacks[0][1] - 64), None)
                    entry["peek"] = hex(word & (2**64 - 1)) if ctypes.get_errno() == 0 \
                        else errno.errorcode.get(ctypes.get_errno(), "?")
            except OSError as err:
                entry["wait"] = str(err)
            finally:
                libc.ptrace(PTRACE_DETACH, pid, None, None)
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGCONT)  # a group-stop left behind would freeze it
        else:
            entry["attach"] = errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))
        if stacks:
            memory = read_memory(pid, stacks[0][1] - 4096, 4096)
            entry["mem"] = f"read {len(memory)} bytes" if isinstance(memory, bytes) else memory
        else:
            entry["mem"] = "no stack mapping in sight"
        found[pid] = entry
    report("ptrace", phase=phase, processes=found,
           attached=[pid for pid, e in found.items() if e["attach"] == "attached"],
           memory_read=[pid for pid, e in found.items() if str(e["mem"]).startswith("read")])


def main() -> None:
    args = parse(parser(__doc__ or ""))
    trace(args.only, "start-up")
    play(on_match=once(lambda: trace(args.only, "first match")))


if __name__ == "__main__":
    main()
