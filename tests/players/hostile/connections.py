"""Attack 11: use up the arena's connections and descriptors.

    python -m tests.players.hostile.connections [--children 6] [--per-child 240] [--hold 8]

Forks ``--children`` processes (before gRPC starts); when its first match starts
(or 3 s into play) each opens up to ``--per-child`` raw connections to the referee's
socket, sends the HTTP/2 client preface and an empty SETTINGS frame on each, and
holds them all for ``--hold`` seconds (its first move waits for that: the other
matches go on meanwhile). Reports how many connections the children got, how the
others were refused, and how many the arena had closed by the end of the hold.
"""

from __future__ import annotations

import json
import os
import select
import socket
import threading
import time
from collections import Counter

from .common import INSIDE_SOCKET, error, later, once, parse, parser, play, report

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
FALLBACK_S = 3.0


def flood(path: str, count: int, hold_s: float, go: int, out: int) -> None:
    os.read(go, 1)
    held: list[socket.socket] = []
    outcome: Counter[str] = Counter()
    for _ in range(count):
        try:
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        except OSError as err:
            outcome[error(err)] += 1
            break  # out of descriptors
        conn.setblocking(False)
        try:
            conn.connect(path)
            conn.send(PREFACE)
            held.append(conn)
            outcome["connected"] += 1
        except OSError as err:
            outcome[error(err)] += 1
            conn.close()
    os.write(out, (json.dumps(outcome) + "\n").encode())
    time.sleep(hold_s)
    closed = 0
    for conn in held:  # how many did the arena close meanwhile?
        try:
            if conn.recv(65536, socket.MSG_DONTWAIT) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    os.write(out, f"closed {closed}\n".encode())


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--children", type=int, default=6)
    cli.add_argument("--per-child", type=int, default=240)
    cli.add_argument("--hold", type=float, default=8.0)
    args = parse(cli)
    path = os.environ.get("ARENA_SERVER", INSIDE_SOCKET).removeprefix("unix:")
    go_read, go_write = os.pipe()
    out_read, out_write = os.pipe()
    for _ in range(args.children):
        if os.fork() == 0:
            os.close(go_write)
            os.close(out_read)
            try:
                flood(path, args.per_child, args.hold, go_read, out_write)
            finally:
                os._exit(0)
    os.close(out_write)

    held = threading.Event()

    def attack() -> None:
        os.write(go_write, b"g" * args.children)
        lines: list[str] = []  # each child's counts when opened, then "closed N" after the hold
        deadline = time.monotonic() + args.hold + 10
        buffer = b""
        said = False
        while len(lines) < 2 * args.children and time.monotonic() < deadline:
            if select.select([out_read], [], [], 0.1)[0]:
                chunk = os.read(out_read, 65536)
                if not chunk:
                    break
                *new, buffer = (buffer + chunk).split(b"\n")
                lines += [line.decode() for line in new]
                opened = [line for line in lines if not line.startswith("closed")]
                if len(opened) == args.children and not said:
                    said = True
                    totals: Counter[str] = Counter()
                    for line in opened:
                        totals.update(json.loads(line))
                    report("connections", phase="opened", children=args.children,
                           per_child=args.per_child, outcome=dict(totals))
        closed = [int(line.split()[1]) for line in lines if line.startswith("closed")]
        report("connections", phase="held", children=len(closed), closed_by_the_arena=sum(closed))
        held.set()

    fire = later(attack)
    fallback = threading.Timer(FALLBACK_S, fire)
    fallback.daemon = True
    fallback.start()

    def first_match() -> None:  # its first move waits until the flood was held (the others play)
        fire()
        held.wait(args.hold + 30)

    play(on_match=once(first_match))


if __name__ == "__main__":
    main()
