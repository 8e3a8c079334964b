"""The doors of `arena serve` under attack, for real: a real server process with a low
descriptor limit, a tournament of real bots in the real sandbox on it, thousands of idle
connections with no token from the test, wrong tokens from one address, and a machine where
the sandbox cannot run.

The attackers come from other loopback addresses (127.0.0.2, 127.0.1.x: Linux routes all of
127/8 to loopback) than the honest clients (127.0.0.1), so that the per-address caps and the
eviction of the heaviest address's connections are what is tested.
"""

from __future__ import annotations

import json
import os
import re
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import grpc
import httpx
import pytest

from arena.match.faults import Fault
from arena.net.doors import Door, IntervalLog
from arena.service.auth import Throttle
from arena.storage.store import Store
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from benchmarks.doors import H2_PREFACE, SLOW_REQUEST, Attack
from tests.helpers import GAME, arena, cli, fault_reasons
from tests.served import OPERATOR, Served, eventually, remote

LIMIT = 2048  # the server's descriptor limit, soft and hard: it cannot raise it
DOORS = re.compile(r"doors: operator port (\d+) connections, web (\d+), (\d+) per address on "
                   r"each; descriptors: limit (\d+), (\d+) kept for the arena")


@dataclass(frozen=True)
class Caps:
    operator: int
    web: int
    per_address: int
    limit: int
    reserve: int


def _served(db: Path, stderr: Path, *extra: str, env: dict[str, str] | None = None) -> Served:
    """`arena serve` with a descriptor limit of :data:`LIMIT`, stderr to a file (its size is
    checked), once it has said its doors' caps."""
    served = Served(db, *extra, env=env, descriptors=LIMIT, stderr=stderr)
    served.said(DOORS, timeout=60)
    return served


def _caps(served: Served) -> Caps:
    return Caps(*(int(n) for n in served.said(DOORS).groups()))


def _descriptors(served: Served) -> int:
    return len(os.listdir(f"/proc/{served.process.pid}/fd"))


def _door_descriptors(served: Served) -> int:
    """The server's descriptors of connections through its doors: the accepted ones on the
    public ports, and the relay's to the gRPC server behind it, both ends."""
    pid = served.process.pid
    web_port = int(served.web.rsplit(":", 1)[1]) if served.web else -1
    table = _tcp_sockets(pid)
    mine = []
    for name in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue
        found = re.fullmatch(r"socket:\[(\d+)\]", target)
        if found is not None and found.group(1) in table:
            mine.append(table[found.group(1)])
    listening = {local for local, _, state in mine if state == "0A"}
    backend = listening - {served.port, web_port}
    assert len(backend) == 1, mine  # the gRPC server behind the operator port's door
    doors = {served.port, web_port, *backend}
    return sum(1 for local, remote, state in mine
               if state != "0A" and (local in doors or remote in backend))


def _tcp_sockets(pid: int) -> dict[str, tuple[int, int, str]]:
    """The TCP sockets of ``pid``'s network namespace: inode -> (local port, remote port,
    state as the kernel writes it: 0A is LISTEN)."""
    found = {}
    for table in ("tcp", "tcp6"):
        with open(f"/proc/{pid}/net/{table}") as rows:
            next(rows)
            for row in rows:
                fields = row.split()
                local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
                found[inode] = (int(local.rsplit(":", 1)[1], 16), int(remote.rsplit(":", 1)[1], 16),
                                state)
    return found


def _listening(pid: int) -> set[int]:
    """The TCP ports ``pid`` listens on."""
    table = _tcp_sockets(pid)
    ports = set()
    for name in os.listdir(f"/proc/{pid}/fd"):
        with suppress(OSError):
            found = re.fullmatch(r"socket:\[(\d+)\]", os.readlink(f"/proc/{pid}/fd/{name}"))
            if found is not None and table.get(found.group(1), (0, 0, ""))[2] == "0A":
                ports.add(table[found.group(1)][0])
    return ports


@contextmanager
def _more_descriptors() -> Iterator[None]:
    """This test process may hold thousands of attacking sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 20_000)
    if wanted < 6_000:
        pytest.skip(f"the attack needs 6000 descriptors in this process (hard limit {hard})")
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _attackers(heavy: int, addresses: int, spread: int) -> list[str]:
    """``heavy`` connections from 127.0.0.2, then ``spread`` from each of ``addresses``
    addresses 127.0.1.x."""
    return ["127.0.0.2"] * heavy + [f"127.0.1.{i}" for i in range(1, addresses + 1)
                                    for _ in range(spread)]


def _bot_folder(where: Path, name: str) -> Path:
    folder = where / name
    folder.mkdir(parents=True)
    (folder / "arena-bot.toml").write_text(
        f'name = "{name}"\ncommand = "python -m bots.random_bot"\ngames = ["{GAME}"]\n')
    return folder


def _timed_list(served: Served) -> float:
    """An operator call over a new connection, and how long it took."""
    start = time.perf_counter()
    with grpc.insecure_channel(served.address) as channel:
        listed = pb_grpc.OperatorServiceStub(channel).ListTournaments(
            pb.ListTournamentsRequest(), timeout=60, metadata=(("authorization", f"Bearer {OPERATOR}"),))
    assert listed is not None
    return time.perf_counter() - start


@pytest.mark.usefixtures("sandboxed")
def test_thousands_of_idle_connections_leave_the_arena_serving(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "heuristic", "--command", "python -m bots.face_card_kill_card", db=db)
    author = cli("author", "add", "ann", db=db).stdout.splitlines()[2].strip()
    served = _served(db, tmp_path / "stderr.txt")
    caps = _caps(served)
    assert (caps.limit, caps.reserve) == (LIMIT, 512)
    assert caps.operator * 3 + caps.web <= caps.limit - caps.reserve
    attacks: list[Attack] = []
    try:
        before = _timed_list(served)
        with _more_descriptors():
            spread = caps.per_address + 8
            addresses = 1 + max(caps.operator, caps.web) // caps.per_address  # more than fills a door
            operator = Attack(served.port, H2_PREFACE, _attackers(1000, addresses, spread))
            attacks.append(operator)
            web_port = int(served.web.rsplit(":", 1)[1])
            web = Attack(web_port, SLOW_REQUEST, _attackers(1000, addresses, spread))
            attacks.append(web)
            eventually("the operator port to deal with the attack",
                       lambda: operator.settled(caps.operator, answering=True))
            eventually("the web to deal with the attack",
                       lambda: web.settled(caps.web, answering=False))
            # the attack filled both doors: the operator port's connections reached gRPC
            assert len(operator.answered) >= caps.operator
            assert len(web.open) == caps.web, (len(web.open), caps.web)
            held = _door_descriptors(served)
            assert caps.web < held <= caps.limit - caps.reserve, held
            peak = _descriptors(served)

            # under attack, from 127.0.0.1: the web answers, the operator queues a tournament
            # of real bots with a 100 ms move clock (and a bank of 5 s per seat and match, so
            # that only lateness adding up to that, not a loaded machine's hiccup, is a
            # timeout), an author submits a bot
            home = httpx.get(f"{served.web}/api/home", timeout=60)
            assert home.status_code == 200 and home.json()["version"] == 1
            during = _timed_list(served)
            queued = json.loads(remote(
                served, OPERATOR, "tournament", "create", "--game", GAME, "--bot", "random",
                "--bot", "heuristic", "-n", "3", "--move-timeout", "0.1", "--time-bank", "5",
                "--parallel", "2", "--json").stdout)["tournament"]
            sent = json.loads(remote(served, author, "bot", "submit",
                                     str(_bot_folder(tmp_path, "ann-bot")), "--json").stdout)
            assert sent["submission"]["author"] == "ann"

            def finished() -> bool:
                operator.poll(0)
                web.poll(0)
                nonlocal peak
                peak = max(peak, _descriptors(served))
                with Store(str(db)) as store:
                    return store.get_tournament(queued["id"]).status == "finished"

            eventually("the tournament to finish under attack", finished, timeout=600)
            # still held, the whole tournament long, but for the one connection the door
            # closed (the heaviest address's oldest) to let the honest request in
            assert len(web.open) == caps.web - 1
            assert peak < caps.limit - caps.reserve // 2, peak  # the arena kept its reserve
            with Store(str(db)) as store:
                matches = store.tournament_matches(queued["id"])
                info = store.get_tournament(queued["id"])
            assert info.finished == info.total == len(matches) == queued["total"] > 0
            assert all(m.status == "finished" for m in matches)
            assert [s.fault for m in matches for s in m.seats if s.fault != Fault.NONE] == [], (
                fault_reasons(db), (tmp_path / "stderr.txt").read_text()[-2000:])
            assert "ann-bot@" in remote(served, OPERATOR, "bot", "list").stdout
    finally:
        for attack in attacks:
            attack.close()
        served.stop()
    errors = (tmp_path / "stderr.txt").read_text()
    assert "Traceback" not in errors and len(errors) < 4096, errors
    assert "connections refused" in errors  # said, once a while, with a count
    print(f"operator call: {before * 1000:.1f} ms before the attack, {during * 1000:.1f} ms "
          f"during it; door descriptors {held}, peak {peak} of {caps.limit}")


class Forwarder:
    """A TCP forwarder on 127.0.0.1 whose connections reach ``target`` from ``source``: a
    client behind it is another address to the server."""

    def __init__(self, source: str, target: tuple[str, int]) -> None:
        self.source, self.target = source, target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target, source_address=(self.source, 0))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (a, b):
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()


def _code(address: str, token: str) -> tuple[grpc.StatusCode, str]:
    with grpc.insecure_channel(address) as channel:
        try:
            pb_grpc.OperatorServiceStub(channel).ListBots(
                pb.ListBotsRequest(), timeout=30, metadata=(("authorization", f"Bearer {token}"),))
        except grpc.RpcError as err:
            assert isinstance(err, grpc.Call)
            return err.code(), err.details() or ""
    return grpc.StatusCode.OK, ""


def test_wrong_tokens_from_one_address_shut_it_out_and_no_other(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    author = cli("author", "add", "ann", db=db).stdout.splitlines()[2].strip()
    served = _served(db, tmp_path / "stderr.txt", "--no-web")
    other = Forwarder("127.0.0.2", ("127.0.0.1", served.port))
    behind = f"127.0.0.1:{other.port}"
    try:
        assert _code(behind, OPERATOR)[0] == grpc.StatusCode.OK  # the way works
        for attempt in range(10):
            assert _code(behind, f"guessed-token-{attempt:04d}")[0] == grpc.StatusCode.UNAUTHENTICATED
        for token in (OPERATOR, author, "guessed-token-again"):  # right tokens too: no look-up
            code, details = _code(behind, token)
            assert code == grpc.StatusCode.RESOURCE_EXHAUSTED, (code, details)
            assert re.fullmatch(r"too many wrong tokens from your address: try again in \d+ s",
                                details), details
        # nor is there a way around the door: the gRPC server behind it, on its loopback port,
        # refuses every call, the operator's token or not
        listening = _listening(served.process.pid) - {served.port}
        assert len(listening) == 1, listening  # the gRPC server behind the operator port's door
        around = f"127.0.0.1:{listening.pop()}"
        for token in (OPERATOR, author, "guessed-token-around"):
            assert _code(around, token) == (grpc.StatusCode.PERMISSION_DENIED,
                                            "calls come through the arena's port, not around it")
        # 127.0.0.1 is another address: its wrong token is one failure, its right ones work
        assert _code(served.address, "guessed-token-here")[0] == grpc.StatusCode.UNAUTHENTICATED
        assert _code(served.address, OPERATOR)[0] == grpc.StatusCode.OK
        assert _code(served.address, author)[0] == grpc.StatusCode.OK
    finally:
        other.close()
        served.stop()
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


def _refusing_bwrap(tmp_path: Path) -> dict[str, str]:
    """A PATH with Python and a bwrap that cannot make namespaces (as in a container)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(sys.executable, bin_dir / "python")
    refusing = bin_dir / "bwrap"
    refusing.write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo 'bubblewrap 0.8.0' && exit 0\n"
                        "echo 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    refusing.chmod(0o755)
    return {"PATH": str(bin_dir)}


def test_serve_refuses_a_machine_without_the_sandbox_unless_told(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    env = _refusing_bwrap(tmp_path)
    refused = arena("serve", "--port", "0", "--no-web", db=db, env=env, check=False)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        "error: cannot sandbox managed bots: bubblewrap cannot make namespaces here: bwrap: No "
        "permissions to create new namespace; let this user make namespaces (user namespaces "
        "may be turned off, e.g. by sysctl kernel.unprivileged_userns_clone=0 or a container's "
        "seccomp policy), or pass --no-sandbox to run them uncontained"]
    assert not db.exists()  # nothing written: no database, no data folder, no token's hash
    assert [p.name for p in tmp_path.iterdir()] == ["bin"]

    served = _served(db, tmp_path / "stderr.txt", "--no-web", "--no-sandbox", env=env)
    try:
        first = served.lines[:6]
        assert first[0].startswith("operator service listening on 127.0.0.1:")
        assert first[1:5] == [
            "protections:",
            "  sandbox: OFF (--no-sandbox): managed bots run as this user, uncontained",
            first[3], "  builds: wheels only, installed with no network"]
        assert first[3].startswith("  cgroups: ")
        assert _code(served.address, OPERATOR)[0] == grpc.StatusCode.OK  # it serves
    finally:
        served.stop()


ACCEPTING = '''
import asyncio, resource, sys
from arena.net.doors import IntervalLog, install_accept_log, listening_socket

class Keep(asyncio.Protocol):  # holds every connection: the descriptors run out
    pass

async def main(counted):
    loop = asyncio.get_running_loop()
    if counted:
        install_accept_log(loop, IntervalLog(lambda line: print(line, file=sys.stderr,
                                                                flush=True), interval_s=1.0))
    sock = listening_socket("127.0.0.1", 0)
    await loop.create_server(Keep, sock=sock, backlog=8)
    print(sock.getsockname()[1], flush=True)
    await loop.run_in_executor(None, sys.stdin.read)  # until the test closes stdin

resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))
asyncio.run(main(sys.argv[1] == "counted"))
'''


@pytest.mark.parametrize("counted", [True, False], ids=["counted", "control-uncounted"])
def test_failed_accepts_are_one_counted_line_a_while_not_a_traceback_each(
        tmp_path: Path, counted: bool) -> None:
    """A real event loop out of descriptors: with :func:`install_accept_log` its failed
    accepts are counted lines; the control, without it, shows the traceback asyncio writes
    each time (about once a second) that the test would otherwise see."""
    stderr = tmp_path / "stderr.txt"
    with stderr.open("w") as err:
        process = subprocess.Popen([sys.executable, "-c", ACCEPTING,
                                    "counted" if counted else "plain"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True)
    assert process.stdout is not None and process.stdin is not None
    clients = []
    try:
        port = int(process.stdout.readline())
        for _ in range(200):  # more than its 48 descriptors: the kernel queues the rest
            clients.append(socket.create_connection(("127.0.0.1", port), timeout=30))
        if counted:
            found = eventually("a counted line", lambda: re.search(
                r"failed accepts \(Too many open files\): (\d+) in the last 1 s", stderr.read_text()))
            assert found is not None and int(found.group(1)) >= 1
        else:
            eventually("asyncio's traceback", lambda: "Traceback" in stderr.read_text())
    finally:
        process.stdin.close()
        for client in clients:
            client.close()
        process.wait(timeout=60)
    text = stderr.read_text()
    if counted:
        assert "Traceback" not in text and "out of system resource" not in text, text
    else:
        assert "socket.accept() out of system resource" in text


def test_the_throttle_counts_within_its_window_and_forgets_after_the_block() -> None:
    """The throttle's clock, by hand: failures spread wider than the window never block; ten
    within it do, for the block's length, for that address (an IPv6 /64 counting as one)."""
    now = [0.0]
    throttle = Throttle(failures=10, window_s=60, block_s=60, clock=lambda: now[0])
    for _ in range(30):  # one failure every 7 s: at most nine in any window of 60 s
        throttle.failed("192.0.2.1")
        now[0] += 7
        assert throttle.blocked_for("192.0.2.1") == 0
    for n in range(10):
        assert throttle.blocked_for("2001:db8::1") == 0, n
        throttle.failed(f"2001:db8::{n + 1:x}")  # one /64, ten addresses in it
    assert throttle.blocked_for("2001:db8::ffff") == 60
    assert throttle.blocked_for("2001:db8:0:1::1") == 0  # the next /64 is another address
    now[0] += 59.5
    assert throttle.blocked_for("2001:db8::1") == 0.5
    now[0] += 1
    assert throttle.blocked_for("2001:db8::1") == 0


def test_a_full_door_makes_room_from_the_heaviest_address_only() -> None:
    closed: list[str] = []
    door = Door("test", total=4, per_address=3, log=IntervalLog(lambda _line: None))

    def admit(host: str, name: str) -> bool:
        return door.admit(host, lambda: closed.append(name)) is not None

    assert [admit("10.0.0.1", f"a{i}") for i in range(4)] == [True, True, True, False]  # per address
    assert admit("10.0.0.2", "b0") and door.count == 4  # the door is full now
    assert admit("10.0.0.3", "c0") and closed == ["a0"]  # 10.0.0.1 held 3: its oldest made room
    assert admit("10.0.0.4", "d0") and closed == ["a0", "a1"]  # 2 > the newcomer's 1
    assert not admit("10.0.0.5", "e0")  # 1 each: no address holds more than a newcomer would
    assert not admit("10.0.0.2", "b1")  # nor more than 10.0.0.2 would with a second
    assert closed == ["a0", "a1"] and door.count == 4
