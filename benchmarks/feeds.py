"""Live feeds against the referee: a tournament's matches per minute on a real ``arena serve``,
without spectators and with 400 live-feed attempts held open for the whole run.

Each run is a fresh ``arena serve`` (operator service, scheduler with sandboxed bots, web app)
on a fresh SQLite file, playing a round-robin of three random bots in Face Card / Kill Card
(2 seats, :data:`REPETITIONS` repetitions: 60 matches) on a 100 ms move clock, queued over the
operator service and timed from its creation to its end. In the attacked run, 400 feeds are
asked for before the tournament is queued, 80 on each of five matches that never start, from
50 loopback addresses (8 each: as many as the per-address cap lets one address hold); those
the caps let in (at most :data:`leaderboard.web.replay.MAX_FEEDS` in all) stay open until the
tournament ends. Before the feeds shared one cheap reader per match and had caps, 400 feeds
took a tournament in the same server from 25 matches a minute to 1. Target: the attacked
run keeps at least 0.8x the matches per minute (medians of :data:`PAIRS` alternating pairs),
with no more faults than without it.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import grpc
import httpx

from arena.games import get_game
from arena.storage.store import MatchStatus, Store
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from benchmarks.common import Row

GAME = "face-card-kill-card"
REPETITIONS = 10
ATTEMPTS = 400
MATCHES_ATTACKED = 5
PAIRS = 2
"""Runs without and with the attack, alternating (1 with ``--quick``)."""
ADDRESSES = [f"127.0.0.{i}" for i in range(10, 60)]
TOKEN = "operator-token-of-the-feeds-benchmark"


class _Server:
    """``arena serve`` on free ports over ``db``, with ``env`` over this environment."""

    def __init__(self, db: Path, env: Mapping[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arena", "serve", "--port", "0", "--web-port", "0", "--db",
             str(db)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "COLUMNS": "200", "ARENA_OPERATOR_TOKEN": TOKEN, **(env or {})})
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        if not self.ready.wait(120):
            self.stop()
            raise RuntimeError("arena serve did not start:\n" + "\n".join(self.lines))
        text = "\n".join(self.lines)
        self.address = "127.0.0.1:" + re.findall(r"listening on [^:]+:(\d+)", text)[0]
        self.web = re.findall(r"web app at (http://\S+?)/?$", text, re.M)[0]

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            if "web app at" in line:
                self.ready.set()
        self.ready.set()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


Held = tuple[httpx.Response, AsyncIterator[bytes]]


async def _attack(web: str, match_ids: list[int]) -> tuple[list[Held], list[httpx.AsyncClient],
                                                          Counter[int]]:
    """Ask for :data:`ATTEMPTS` feeds; the accepted ones, held open (with their byte iterator:
    dropped, it would close the connection)."""
    clients = [httpx.AsyncClient(base_url=web, timeout=httpx.Timeout(60, read=None),
                                 transport=httpx.AsyncHTTPTransport(
                                     local_address=address, limits=httpx.Limits(
                                         max_connections=None, max_keepalive_connections=0)))
               for address in ADDRESSES]

    async def one(n: int) -> tuple[int, Held | None]:
        client = clients[n % len(clients)]
        try:
            response = await client.send(client.build_request(
                "GET", f"/api/matches/{match_ids[n % len(match_ids)]}/live"), stream=True)
        except httpx.HTTPError:
            return 0, None  # closed at the door (connections per address)
        if response.status_code == 200:
            raw = response.aiter_raw()
            await anext(raw)  # its first line: the feed is open
            return 200, (response, raw)
        await response.aread()
        await response.aclose()
        return response.status_code, None

    results = await asyncio.gather(*(one(n) for n in range(ATTEMPTS)))
    return [r for _, r in results if r is not None], clients, Counter(c for c, _ in results)


@dataclass(frozen=True)
class _Run:
    rate: float  # matches a minute
    finished: int
    faults: int  # seats with a fault
    cpu_s: float  # the arena serve process's own CPU time (not its bots'), tournament only
    replies: Counter[int]  # feed attempts by reply status (0: closed at the door)


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _play(folder: Path, attacked: bool) -> _Run:
    """One run on a fresh server and database."""
    db = folder / "arena.db"
    with Store(str(db)) as store:
        ids = [store.add_bot(f"random{i}", f"python -m bots.random_bot --seed {i}").id
               for i in range(3)]
        options = dict(get_game(GAME).parse_options(2))
        idle = [store.create_match(GAME, options, 100 + i, ids[:2])
                for i in range(MATCHES_ATTACKED)]  # never played
    server = _Server(db)
    replies: Counter[int] = Counter()

    async def main() -> tuple[float, float, int]:
        nonlocal replies
        held: list[Held] = []
        clients: list[httpx.AsyncClient] = []
        if attacked:
            held, clients, replies = await _attack(server.web, idle)
        try:
            async with grpc.aio.insecure_channel(server.address) as channel:
                stub = pb_grpc.OperatorServiceStub(channel)
                auth = (("authorization", f"Bearer {TOKEN}"),)
                began, cpu = time.perf_counter(), _cpu_s(server.process.pid)
                created = await stub.CreateTournament(pb.CreateTournamentRequest(
                    game=GAME, bots=["random0", "random1", "random2"], players=2,
                    repetitions=REPETITIONS, move_timeout_s=0.1, parallel=2), metadata=auth)
                while True:
                    info = (await stub.GetTournament(pb.GetTournamentRequest(
                        tournament_id=created.id), metadata=auth)).tournament
                    if info.status == "finished":
                        return (time.perf_counter() - began,
                                _cpu_s(server.process.pid) - cpu, info.id)
                    await asyncio.sleep(0.2)
        finally:
            for response, _ in held:
                await response.aclose()
            for client in clients:
                await client.aclose()

    try:
        wall, cpu_s, tid = asyncio.run(main())
    finally:
        server.stop()
    with Store(str(db)) as store:
        matches = store.tournament_matches(tid)
        finished = sum(m.status is MatchStatus.FINISHED for m in matches)
        faults = sum(1 for m in matches for s in m.seats if s.fault)
    return _Run(60 * finished / wall, finished, faults, cpu_s, replies)


def run(quick: bool) -> list[Row]:
    pairs = 1 if quick else PAIRS
    runs: dict[bool, list[_Run]] = {False: [], True: []}
    for n in range(pairs):
        for attack in ((False, True) if n % 2 == 0 else (True, False)):
            with tempfile.TemporaryDirectory(prefix="arena-bench-") as folder:
                runs[attack].append(_play(Path(folder), attacked=attack))
    calm, attacked = runs[False], runs[True]
    rate = {k: statistics.median(r.rate for r in v) for k, v in runs.items()}
    cpu = {k: statistics.median(1000 * r.cpu_s / r.finished for r in v) for k, v in runs.items()}
    faults = {k: sum(r.faults for r in v) for k, v in runs.items()}
    ratio = rate[True] / rate[False]
    replies = attacked[-1].replies
    return [
        Row("feeds", f"round-robin on arena serve, no spectators ({calm[0].finished} matches)",
            rate[False], "matches/min",
            note=f"3 random bots, {GAME}, 100 ms move clock, --parallel 2, sandboxed; median of "
                 f"{pairs} (alternating pairs): {', '.join(f'{r.rate:.0f}' for r in calm)}; "
                 f"{faults[False]} seats faulted"),
        Row("feeds", f"the same with {ATTEMPTS} live-feed attempts held open", rate[True],
            "matches/min", "no spectators", rate[False], ratio, ">= 0.8x",
            ratio >= 0.8 and faults[True] <= faults[False],
            f"runs: {', '.join(f'{r.rate:.0f}' for r in attacked)}; {replies[200]} feeds let in "
            f"and held, {replies[429]} refused (429), {replies[0]} closed at the door; "
            f"{faults[True]} seats faulted; before the caps and the shared reader: 25 -> 1 "
            "matches/min"),
        Row("feeds", "arena serve's own CPU per match, with the feeds held", cpu[True], "ms/match",
            "no spectators", cpu[False], cpu[True] / cpu[False], "<= 1.25x",
            cpu[True] <= 1.25 * cpu[False],
            "the server process alone (not its bots), from the tournament's creation to its "
            "end: what the held feeds cost it, whatever the machine's load"),
    ]


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
