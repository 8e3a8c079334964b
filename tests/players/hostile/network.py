"""Attack 12: reach the network.

    python -m tests.players.hostile.network --port PORT --abstract NAME [--public HOST:PORT|none]

Connects over TCP to ``127.0.0.1:PORT`` (where the test listens) and to the test's
abstract Unix socket ``NAME``; connects over TCP to a public address, sends a UDP
datagram to its port 53 and resolves a name (not with ``--public none``). One second
each at most. Reports each outcome and the network interfaces in sight.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from .common import error, parse, parser, play, report

TIMEOUT_S = 1.0


def attempt(action: Callable[[], object]) -> str:
    try:
        action()
        return "ok"
    except (OSError, TimeoutError) as err:
        return error(err)


def tcp(host: str, port: int) -> None:
    with socket.create_connection((host, port), timeout=TIMEOUT_S) as conn:
        conn.sendall(b"hostile\n")


def abstract(name: str) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(TIMEOUT_S)
        conn.connect("\0" + name)
        conn.sendall(b"hostile\n")


def udp(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as conn:
        conn.sendto(b"hostile", (host, port))


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--port", type=int, required=True)
    cli.add_argument("--abstract", required=True)
    cli.add_argument("--public", default="1.1.1.1:443")
    args = parse(cli)
    outcome = {
        "tcp to the test's listener": attempt(lambda: tcp("127.0.0.1", args.port)),
        "abstract unix socket": attempt(lambda: abstract(args.abstract)),
    }
    if args.public != "none":  # (the unsandboxed control leaves the internet alone)
        host, _, port = args.public.rpartition(":")
        outcome["tcp to a public address"] = attempt(lambda: tcp(host, int(port)))
        outcome["udp to a public address"] = attempt(lambda: udp(host, 53))
        outcome["resolve a name"] = attempt(lambda: socket.getaddrinfo("example.com", 443))
    report("network", outcome=outcome, interfaces=[name for _, name in socket.if_nameindex()])
    play()


if __name__ == "__main__":
    main()
