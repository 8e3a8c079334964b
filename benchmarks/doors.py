"""The doors under an attack of idle connections: what the server holds, and what an operator
feels.

A real ``arena serve`` (operator port and web, no tournament), started with a descriptor
limit of :data:`LIMIT` (soft and hard: it cannot raise it), so that its caps are those of a
small machine. The figures:

* the operator call's time (``ListTournaments`` on a new connection, as the command line
  makes it), median of a few, with no attack: the reference;
* the attack: ``N`` idle connections that never send a token, half to the operator port
  (HTTP/2 preface, then nothing) and half to the web (half a request, then nothing), from
  more loopback addresses than the doors have room for (127.0.0.2 and 127.0.1.x);
* the descriptors the server holds once it has dealt with them: all of them, and those of
  the doors' connections, against the limit and the reserve kept for the arena;
* the same operator call's time under the attack (from 127.0.0.1, whose connection takes
  the room of the heaviest attacker's oldest).
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import grpc

from arena.players import sandbox
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from benchmarks.common import Row

LIMIT = 2048
FULL_ATTACK = 6000
QUICK_ATTACK = 3000
CALLS = 15
SETTLED = 8  # descriptors over the idle count at which the attack counts as gone
TOKEN = "operator-token-for-the-benchmark"
H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])  # + SETTINGS
SLOW_REQUEST = b"GET / HTTP/1.1\r\nHost: arena\r\n"  # never finished
DOORS = re.compile(r"doors: operator port (\d+) connections, web (\d+), (\d+) per address on "
                   r"each; descriptors: limit (\d+), (\d+) kept for the arena")
SECTION = "doors"


def _low_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


def _call_ms(address: str) -> float:
    began = time.perf_counter()
    with grpc.insecure_channel(address) as channel:
        pb_grpc.OperatorServiceStub(channel).ListTournaments(
            pb.ListTournamentsRequest(), timeout=60, metadata=(("authorization", f"Bearer {TOKEN}"),))
    return (time.perf_counter() - began) * 1000


def _calls_ms(address: str) -> list[float]:
    _call_ms(address)  # warm-up
    return [_call_ms(address) for _ in range(CALLS)]


def spread_sources(count: int, per_address: int) -> list[str]:
    """The addresses of ``count`` attacking connections: a quarter from 127.0.0.2, the rest
    spread over 127.0.1.x, ``per_address`` + 8 each."""
    heavy = count // 4
    return ["127.0.0.2"] * heavy + [f"127.0.1.{1 + i // (per_address + 8)}"
                                    for i in range(count - heavy)]


class Attack:
    """Idle connections to ``port`` on 127.0.0.1, one from each of ``sources`` (a loopback
    address: Linux routes all of 127/8 to loopback), each saying ``hello`` and then nothing;
    what the server does with them is read as it comes (:meth:`poll`)."""

    def __init__(self, port: int, hello: bytes, sources: Sequence[str]) -> None:
        self.selector = selectors.DefaultSelector()
        self.sources = set(sources)
        self.open: set[socket.socket] = set()
        self.answered: set[socket.socket] = set()  # the server sent something (admitted)
        for source in sources:
            sock = socket.socket()
            sock.bind((source, 0))
            sock.settimeout(60)
            sock.connect(("127.0.0.1", port))
            with contextlib.suppress(OSError):  # closed by the door already
                sock.sendall(hello)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.open.add(sock)
            self.poll(0)  # keep up with what the server closes

    def poll(self, timeout: float = 0.1) -> None:
        """Read what came: data (the server took the connection) or its end (it closed it)."""
        for key, _ in self.selector.select(timeout):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data:
                self.answered.add(sock)
                continue
            self.selector.unregister(sock)
            self.open.discard(sock)
            sock.close()

    def settled(self, cap: int, answering: bool) -> bool:
        """Whether the server has dealt with every connection: no more than ``cap`` left open,
        and (``answering``: the port speaks first, as HTTP/2 does) each one left open answered."""
        self.poll()
        if len(self.open) > cap:
            return False
        return not answering or all(s in self.answered for s in self.open)

    def close(self) -> None:
        """Close every connection still open (again: nothing happens)."""
        for sock in list(self.open):
            self.selector.unregister(sock)
            sock.close()
        self.open.clear()
        self.selector.close()


def _descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def run(quick: bool) -> list[Row]:
    attack = QUICK_ATTACK if quick else FULL_ATTACK
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < attack + 1000:
        return [Row(SECTION, "descriptors under attack", 0.0, "descriptors",
                    note=f"skipped: this process may open only {hard} descriptors")]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    extra = [] if sandbox.check().works else ["--no-sandbox"]
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "arena", "serve", "--port", "0", "--web-port", "0",
             "--db", str(Path(tmp) / "arena.db"), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=_low_limit,
            env={**os.environ, "COLUMNS": "200", "ARENA_OPERATOR_TOKEN": TOKEN})
        attacks: list[Attack] = []
        try:
            assert server.stdout is not None
            text = ""
            while not DOORS.search(text):
                line = server.stdout.readline()
                if not line:
                    raise RuntimeError(f"arena serve did not start: {text}")
                text += line
            port = int(re.search(r"listening on 127\.0\.0\.1:(\d+)", text).group(1))  # type: ignore[union-attr]
            web_port = int(re.search(r"web app at http://127\.0\.0\.1:(\d+)/", text).group(1))  # type: ignore[union-attr]
            found = DOORS.search(text)
            assert found is not None
            operator_cap, web_cap, per_address, limit, reserve = (int(n) for n in found.groups())
            address = f"127.0.0.1:{port}"
            idle = _descriptors(server.pid)
            without = _calls_ms(address)
            began = time.perf_counter()
            for target, hello in ((port, H2_PREFACE), (web_port, SLOW_REQUEST)):
                attacks.append(Attack(target, hello, spread_sources(attack // 2, per_address)))
            sources = set().union(*(a.sources for a in attacks))
            deadline = time.monotonic() + 300  # a safety net: until the doors dealt with them
            while (left := sum(len(a.open) for a in attacks)) > operator_cap + web_cap \
                    and time.monotonic() < deadline:
                for each in attacks:
                    each.poll()
            settled_s = time.perf_counter() - began
            held = _descriptors(server.pid)
            during = statistics.median(_calls_ms(address))
            held = max(held, _descriptors(server.pid))
            for each in attacks:
                each.close()
            deadline = time.monotonic() + 60  # a safety net: the server lets them go at once
            while _descriptors(server.pid) > idle + SETTLED and time.monotonic() < deadline:
                time.sleep(0.05)
            without += _calls_ms(address)  # before and after: drift hits both sides alike
        finally:
            for each in attacks:
                each.close()
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    before = statistics.median(without)
    doors = limit - reserve
    how = (f"{attack} idle connections with no token, half on each door, from "
           f"{len(sources)} addresses; caps: operator port "
           f"{operator_cap}, web {web_cap}, {per_address} per address")
    return [
        Row(SECTION, f"descriptors held under {attack} idle connections", held, "descriptors",
            "the limit", limit, held / limit, f"< limit - reserve/2 ({limit - reserve // 2})",
            held < limit - reserve // 2,
            note=f"{how}; {idle} held idle, {left} attackers left open, dealt with in "
                 f"{settled_s:.1f} s; the doors may hold {doors} (limit {limit} - reserve "
                 f"{reserve}), the rest is the arena's own"),
        Row(SECTION, "operator call (new connection), no attack", before, "ms",
            note=f"ListTournaments, median of {2 * CALLS}: half before the attack, half after"),
        Row(SECTION, f"operator call (new connection), under {attack} idle connections", during,
            "ms", "no attack", before, during / before,
            note=f"ListTournaments from 127.0.0.1, median of {CALLS}, the attack held open"),
    ]


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
