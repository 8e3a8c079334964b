"""The doors a stranger can reach (the operator port, the web), each with a lock: a cap on
connections in total and per client address, within a budget of descriptors that always
leaves a reserve to the arena itself.

**The budget.** At start the soft ``RLIMIT_NOFILE`` is raised to the hard one where allowed
(:func:`descriptor_budget`). Of that limit, :data:`RESERVE_SHARE` (at least
:data:`RESERVE_MIN`) is kept for the arena: its database, its bots' sockets, pipes and logs,
its matches. The rest is split between the two doors: the web holds one descriptor per
connection, the operator port three (see the relay below), so a door's cap in connections is
its share divided by that cost. A connection over a cap is closed the moment it is accepted:
the kernel's listen queue, not the arena, holds the ones still waiting.

**Per address.** One address (an IPv6 /64, which one machine usually owns whole) holds at
most :data:`PER_ADDRESS` connections of a door (no more than a quarter of the door). When the
door is full, a newcomer still gets in if some address holds more connections than the
newcomer's would then hold: that address's oldest connection is closed for it. An
attacker who fills the door from a few addresses therefore cannot keep out a client with a
connection or two; one with as many addresses as the door has room is answered only by the
caps (the arena keeps running, its reserve untouched).

**The operator port** is gRPC, which has no per-address cap of its own (only a total,
``grpc.max_allowed_incoming_connections``). So a small asyncio front door (:class:`Relay`)
accepts TCP on the public port, keeps the accounts, and relays bytes, untouched (TLS stays
end to end: nothing is decrypted here), to the gRPC server bound on a loopback port. The
relay's outgoing connection has a local port of its own, which gRPC reports as the call's
peer: :meth:`Relay.client_of` maps it back to the client's address, for the token throttle
(:mod:`arena.service.auth`); a call that did not come through the door has no client, and is
refused. Each relayed connection holds three descriptors: the client's, the relay's
outgoing one and gRPC's end of it.

**The web** keeps uvicorn accepting, so that ``request.client`` stays the real client's
address: :func:`capped_protocol` subclasses the configured HTTP protocol class and keeps the
accounts in its ``connection_made`` / ``connection_lost``.

**Logs.** Refusals and failed accepts (``EMFILE`` and any other accept error) are counted and
said in one line per :data:`LOG_INTERVAL_S` (:class:`IntervalLog`), never a traceback per
attempt; :func:`install_accept_log` turns asyncio's own accept errors into such lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import resource
import socket
import sys
import urllib.parse
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RESERVE_SHARE = 0.25
"""The share of the descriptor limit kept for the arena itself (not for connections)."""
RESERVE_MIN = 256
"""... and never fewer descriptors than this."""
WEB_SHARE = 0.5
"""The web's share of the descriptors left to the doors; the operator port has the rest."""
RELAY_COST = 3
"""Descriptors one operator connection holds: the client's, the relay's, gRPC's end."""
WEB_COST = 1
PER_ADDRESS = 32
"""Connections one address may hold on one door (no more than a quarter of the door)."""
LOG_INTERVAL_S = 10.0
"""Refusals and failed accepts are said once per this interval, with a count."""
BACKLOG = 1024
"""The listen queue of a door: connections the kernel holds while the arena accepts."""
ACCEPT_BATCH = 64
"""Connections asyncio accepts at a time before their protocols run (and refuse what is over
a cap): what a burst can hold beyond the caps, for a moment, out of the reserve."""
BUILDS = "builds: wheels only, installed with no network"
"""What a submitted bot's build may do (said in ``arena serve``'s first lines)."""
ACCEPT_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


@dataclass(frozen=True)
class Budget:
    """The descriptor limit, the reserve kept for the arena, and each door's caps."""

    limit: int
    reserve: int
    operator_total: int
    web_total: int
    per_address: int

    def describe(self) -> str:
        """The caps in one line."""
        return (f"doors: operator port {self.operator_total} connections, web "
                f"{self.web_total}, {self.per_address} per address on each; descriptors: limit "
                f"{self.limit}, {self.reserve} kept for the arena")


def budget_for(limit: int) -> Budget:
    """The caps that a descriptor ``limit`` allows (see the module's note)."""
    reserve = max(RESERVE_MIN, int(limit * RESERVE_SHARE))
    doors = max(0, limit - reserve)
    web = max(1, int(doors * WEB_SHARE) // WEB_COST)
    operator = max(1, (doors - web * WEB_COST) // RELAY_COST)
    per_address = max(1, min(PER_ADDRESS, min(web, operator) // 4))
    return Budget(limit, reserve, operator, web, per_address)


def descriptor_budget() -> Budget:
    """The soft descriptor limit raised to the hard one where allowed, and the caps it gives."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= target:
        return budget_for(soft if soft != resource.RLIM_INFINITY else target)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    except (ValueError, OSError):
        pass  # not allowed: the caps derive from the limit there is
    return budget_for(soft)


def address_key(host: str) -> str:
    """The address a connection is counted under: an IPv4 address, or an IPv6 /64 (an IPv4
    address mapped into IPv6 counts as that IPv4 address); anything else as given."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def peer_host(peername: Any) -> str:
    """The host of a socket's peer name (``(host, port, ...)``; a Unix socket's: ``unix``)."""
    if isinstance(peername, tuple) and peername:
        return str(peername[0])
    return "unix"


def to_stderr(line: str) -> None:
    """Say ``line`` on stderr, at once (where an :class:`IntervalLog` says its lines unless
    told otherwise)."""
    print(line, file=sys.stderr, flush=True)


class IntervalLog:
    """Counts events by kind and says them in one line per kind per interval, with the count:
    a storm of refusals or failed accepts costs a few lines, never a line (or a traceback)
    each."""

    def __init__(self, say: Callable[[str], None] = to_stderr,
                 interval_s: float = LOG_INTERVAL_S) -> None:
        self._say = say
        self._interval_s = interval_s
        self._counts: dict[str, int] = {}
        self._flushing: asyncio.TimerHandle | None = None

    def note(self, what: str) -> None:
        """One more ``what`` (a phrase such as ``"operator port: refused (over the cap)"``)."""
        self._counts[what] = self._counts.get(what, 0) + 1
        if self._flushing is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.flush()
                return
            self._flushing = loop.call_later(self._interval_s, self.flush)

    def flush(self) -> None:
        """Say what was counted since the last line, and start counting afresh."""
        if self._flushing is not None:
            self._flushing.cancel()
        self._flushing = None
        counts, self._counts = self._counts, {}
        for what, count in counts.items():
            self._say(f"{what}: {count} in the last {self._interval_s:g} s")


def install_accept_log(loop: asyncio.AbstractEventLoop, log: IntervalLog) -> None:
    """Make ``loop``'s failed accepts (asyncio reports ``EMFILE`` and its kind through the
    loop's exception handler, with a traceback each) counted lines of ``log``; every other
    error goes to the handler there was."""
    previous = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        message = str(context.get("message", ""))
        if "accept" in message or (isinstance(error, OSError) and error.errno in ACCEPT_ERRNOS):
            reason = error.strerror if isinstance(error, OSError) and error.strerror else message
            log.note(f"failed accepts ({reason})")
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


class Ticket:
    """One admitted connection: its address, and how to close it to make room."""

    __slots__ = ("close", "key")

    def __init__(self, key: str, close: Callable[[], None]) -> None:
        self.key = key
        self.close = close


class Door:
    """The accounts of one door: open connections per address and in total, under the caps."""

    def __init__(self, name: str, total: int, per_address: int, log: IntervalLog) -> None:
        self.name = name
        self.total = total
        self.per_address = per_address
        self._log = log
        self._open: dict[str, OrderedDict[Ticket, None]] = {}
        self._count = 0

    @property
    def count(self) -> int:
        """Connections open through the door now."""
        return self._count

    def admit(self, host: str, close: Callable[[], None]) -> Ticket | None:
        """A ticket for a new connection from ``host`` (``close`` closes it at once, if its
        room is needed), or None: over a cap, to be closed now (counted in the log)."""
        key = address_key(host)
        held = self._open.get(key)
        mine = 0 if held is None else len(held)
        if mine >= self.per_address:
            self._log.note(f"{self.name}: connections refused (over {self.per_address} "
                           "per address)")
            return None
        if self._count >= self.total and not self._evict_for(mine):
            self._log.note(f"{self.name}: connections refused (all {self.total} in use)")
            return None
        ticket = Ticket(key, close)
        self._open.setdefault(key, OrderedDict())[ticket] = None
        self._count += 1
        return ticket

    def _evict_for(self, mine: int) -> bool:
        """Close the oldest connection of the address holding the most, if it holds more than
        the newcomer's address would with this one (``mine`` + 1): whether room was made."""
        heaviest = max(self._open.values(), key=len, default=None)
        if heaviest is None or len(heaviest) < mine + 2:
            return False
        oldest = next(iter(heaviest))
        self.release(oldest)
        self._log.note(f"{self.name}: connections closed to make room (door full)")
        oldest.close()
        return True

    def release(self, ticket: Ticket) -> None:
        """The connection of ``ticket`` is closed (again: nothing happens)."""
        held = self._open.get(ticket.key)
        if held is None or ticket not in held:
            return
        del held[ticket]
        self._count -= 1
        if not held:
            del self._open[ticket.key]


class _Inbound(asyncio.Protocol):
    """A client's connection to the front door, relayed to the gRPC server once admitted."""

    def __init__(self, relay: Relay) -> None:
        self._relay = relay
        self._transport: asyncio.Transport | None = None
        self._outbound: asyncio.Transport | None = None
        self._ticket: Ticket | None = None
        self._host = ""
        self._closed = False
        self._connecting: asyncio.Task[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._host = peer_host(transport.get_extra_info("peername"))
        self._ticket = self._relay.door.admit(self._host, transport.abort)
        if self._ticket is None:
            self._closed = True
            transport.abort()
            return
        self._transport = transport
        transport.pause_reading()  # until the way to the gRPC server is open
        self._connecting = asyncio.ensure_future(self._connect())

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            outbound, _ = await loop.create_connection(lambda: _Outbound(self), *self._relay.backend)
        except OSError as err:
            self._relay.log.note(f"{self._relay.door.name}: cannot reach the service "
                                 f"({err.strerror or err})")
            self.close()
            return
        if self._closed:
            outbound.abort()
            return
        self._outbound = outbound
        self._relay.origins[outbound.get_extra_info("sockname")[1]] = self._host
        assert self._transport is not None
        self._transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        if self._outbound is not None:
            self._outbound.write(data)

    def eof_received(self) -> bool:
        self.close()
        return False

    def pause_writing(self) -> None:  # the client reads slowly: read no more from gRPC
        if self._outbound is not None:
            self._outbound.pause_reading()

    def resume_writing(self) -> None:
        if self._outbound is not None:
            self._outbound.resume_reading()

    def from_service(self, data: bytes) -> None:
        if self._transport is not None and not self._closed:
            self._transport.write(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.close()

    def close(self) -> None:
        """Close both ends (each flushes what it holds) and give back the ticket."""
        if self._closed:
            return
        self._closed = True
        if self._ticket is not None:
            self._relay.door.release(self._ticket)
        if self._connecting is not None and not self._connecting.done():
            self._connecting.cancel()
        if self._outbound is not None:
            self._relay.origins.pop(self._outbound.get_extra_info("sockname")[1], None)
            self._outbound.close()
        if self._transport is not None:
            self._transport.close()


class _Outbound(asyncio.Protocol):
    """The relay's connection to the gRPC server, for one client."""

    def __init__(self, inbound: _Inbound) -> None:
        self._inbound = inbound

    def data_received(self, data: bytes) -> None:
        self._inbound.from_service(data)

    def pause_writing(self) -> None:  # gRPC reads slowly: read no more from the client
        if self._inbound._transport is not None:
            self._inbound._transport.pause_reading()

    def resume_writing(self) -> None:
        if self._inbound._transport is not None:
            self._inbound._transport.resume_reading()

    def eof_received(self) -> bool:
        self._inbound.close()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._inbound.close()


class Relay:
    """The operator port's front door: accepts on the public socket, keeps :attr:`door`'s
    accounts, and relays bytes to the gRPC server at ``backend`` (a loopback address)."""

    def __init__(self, door: Door, backend: tuple[str, int], log: IntervalLog) -> None:
        self.door = door
        self.backend = backend
        self.log = log
        self.origins: dict[int, str] = {}  # the relay's local port -> the client's address
        self._server: asyncio.Server | None = None

    async def start(self, sock: socket.socket) -> None:
        """Serve on ``sock``, a listening socket (see :func:`listening_socket`)."""
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: _Inbound(self), sock=sock,
                                                backlog=ACCEPT_BATCH)

    def client_of(self, peer: str) -> str | None:
        """The client's address behind a gRPC peer (``ipv4:127.0.0.1:PORT``), or None: the
        call did not come through this door."""
        host, port = split_peer(peer)
        if port is None or host != self.backend[0]:
            return None
        return self.origins.get(port)

    def close(self) -> None:
        """Accept no more; the connections relayed so far end with the gRPC server."""
        if self._server is not None:
            self._server.close()

    async def wait_closed(self, timeout_s: float = 1.0) -> None:
        """Until the relayed connections are gone (for at most ``timeout_s``)."""
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), timeout=timeout_s)


def split_peer(peer: str) -> tuple[str, int | None]:
    """A gRPC peer string (``ipv4:1.2.3.4:5``, ``ipv6:[::1]:5``, ``unix:...``) as its host
    and port (None for a Unix socket or anything else)."""
    scheme, _, rest = peer.partition(":")
    if scheme not in ("ipv4", "ipv6"):
        return scheme or peer, None
    host, _, port = urllib.parse.unquote(rest).rpartition(":")
    try:
        return host.strip("[]"), int(port)
    except ValueError:
        return host.strip("[]"), None


class _Listening(socket.socket):
    """A listening socket whose kernel queue stays :data:`BACKLOG` long. asyncio takes one
    number for two things: the queue (it calls ``listen`` again when it starts serving) and
    how many connections it accepts in a row before any of their protocols runs. Given
    :data:`ACCEPT_BATCH` (so that a burst of connections holds few descriptors before the
    door refuses them), the queue stays long all the same."""

    def listen(self, backlog: int = BACKLOG) -> None:
        super().listen(max(backlog, BACKLOG))


def listening_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: any free port) with a queue of
    :data:`BACKLOG` (serve it with ``backlog=ACCEPT_BATCH``); ``OSError`` if it cannot be
    had (in use, no such address)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = _Listening(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def capped_protocol(base: type[asyncio.Protocol], door: Door) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's HTTP protocol class) with ``door``'s caps: a connection over a cap
    is closed in ``connection_made`` before ``base`` sees it; the server keeps accepting, so
    the peer a request reports is the real client's."""

    class Capped(base):  # type: ignore[valid-type,misc]
        _ticket: Ticket | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            host = peer_host(transport.get_extra_info("peername"))
            abort: Callable[[], None] = getattr(transport, "abort", transport.close)
            self._ticket = door.admit(host, abort)
            if self._ticket is None:
                abort()
                return
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._ticket is None:
                return  # refused: the server never knew of it
            door.release(self._ticket)
            super().connection_lost(exc)

    Capped.__name__ = Capped.__qualname__ = f"Capped{base.__name__}"
    return Capped


__all__ = ["ACCEPT_BATCH", "BACKLOG", "BUILDS", "PER_ADDRESS", "RELAY_COST", "RESERVE_MIN", "RESERVE_SHARE",
           "Budget", "Door", "IntervalLog", "Relay", "Ticket", "address_key", "budget_for",
           "capped_protocol", "descriptor_budget", "install_accept_log", "listening_socket",
           "peer_host", "split_peer", "to_stderr"]
