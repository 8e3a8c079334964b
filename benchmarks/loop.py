"""Loop stall: how long ``arena serve``'s event loop is blocked while it serves heavy reads
beside a match on a 50 ms move clock.

One event loop runs the operator service, the web app and the scheduler's match clocks:
a read that runs on it (a store query, a report built) holds every clock. A fresh ``arena
serve`` (sandboxed bots, web app) over a SQLite file of :data:`MATCHES` finished matches
(``benchmarks.fill``) plays a tournament of two random bots on a :data:`MOVE_CLOCK_S` move
clock; once a match is in play, :data:`READS` heavy reads go off at once (lists of 10,000
matches and tournament reports over the operator service, tournament pages of the web app).
The server's :mod:`arena.service.loop_watch` (``ARENA_LOOP_WATCH``) gives the longest stall
while they are served: its CPU time (the loop thread's, load-proof) and its wall time.
The test ``tests/service/test_loop_stall.py`` plays the same scenario (:func:`play`).

The reference, :data:`BEFORE`, is the same run at commit b52b884, before the operator
service's store reads and token lookups went to worker threads (79929fb, 1778d53). The seats
that faulted meanwhile, per 100 matches, have theirs at feac4d8 (:data:`BEFORE_FAULTS`),
before those reads went to reader processes (:mod:`arena.service.reads`).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path

import grpc
import httpx

from arena.service import loop_watch
from arena.storage.store import Store
from arena.v1 import arena_pb2 as pb
from arena.v1 import arena_pb2_grpc as pb_grpc
from benchmarks.common import Row
from benchmarks.feeds import TOKEN, _Server
from benchmarks.fill import fill

GAME = "face-card-kill-card"
MATCHES = 10_000
READS = 20
MOVE_CLOCK_S = 0.05
QUIET = 6
"""Matches of the tournament played before the reads go off: the control. On a machine
shared with other work the system preempts the server and the bots for longer than the
clock whatever the loop does (at a load of 20 on 2 cores seats time out without any read);
the loop's own stalls are the CPU figure."""
REPETITIONS = 500
"""More matches than the reads outlast: the tournament is cancelled once they have answered."""
BOTS = ("clock-a", "clock-b")
TARGET_MS = 20.0
BEFORE_CPU_MS, BEFORE_WALL_MS = 2001.0, 23576.0
BEFORE_LOAD = "28.3, 2026-11-26"
"""The longest stall during the reads at b52b884, this benchmark run there with the watch's
hook added uncommitted: CPU and wall ms, and the load average then (4 of the 7 lists and 4
of the 7 reports were cancelled; 1 seat faulted meanwhile, none in the 7 matches before)."""
BEFORE_FAULTS, BEFORE_FAULTS_LOAD = 47.2, "9.5 to 11.5, 2026-11-26"
"""Seats that faulted per 100 matches finished while the reads were served at feac4d8 (the
reads in worker threads of the server: 50 seats in 106 matches over four runs), and the load
average then."""


def seed(db: Path) -> list[int]:
    """:data:`MATCHES` finished matches in ``db``, and the two bots of the match to play; the
    ids of the filled tournaments."""
    fill(db, MATCHES, say=lambda *_: None, all_finished=True)
    with Store(str(db)) as store:
        for n, name in enumerate(BOTS):
            store.add_bot(name, f"python -m bots.random_bot --seed {n}")
        return [t.id for t in store.list_tournaments()]


@dataclass(frozen=True)
class Outcome:
    tournament: int
    began: float  # time.time() as the reads went off
    ended: float  # and once all had answered
    answered: Counter[str]  # reads answered, by kind
    finished_meanwhile: int  # matches of the tournament that finished while the reads were served
    quiet: int  # matches finished before the reads went off (the control) ...
    quiet_faults: int  # ... and their seats that faulted
    faults_meanwhile: int  # seats that faulted in the matches finished while the reads were served
    in_play: bool  # the tournament still had matches to play as the reads ended
    load: float  # the machine's load average (1 minute) as the reads ended


async def _reads(address: str, token: str, web: str, tournaments: list[int]) -> Counter[str]:
    """:data:`READS` heavy reads at once; what answered, by kind (and what failed: ``failed
    KIND``; before the reads went off the loop, lists of 10,000 were cancelled)."""
    auth = (("authorization", f"Bearer {token}"),)
    answered: Counter[str] = Counter()
    async with grpc.aio.insecure_channel(address, options=[
            ("grpc.max_receive_message_length", 64 * 1024 * 1024)]) as channel, \
            httpx.AsyncClient(base_url=web, timeout=120) as client:
        stub = pb_grpc.OperatorServiceStub(channel)

        async def matches() -> None:
            found = await stub.ListMatches(pb.ListMatchesRequest(limit=10_000), metadata=auth,
                                           timeout=120)
            assert len(found.matches) == 10_000
            answered["ListMatches of 10,000"] += 1

        async def report(tournament: int) -> None:
            found = await stub.GetTournament(pb.GetTournamentRequest(tournament_id=tournament),
                                             metadata=auth, timeout=120)
            assert found.report_json
            answered["GetTournament"] += 1

        async def page(path: str) -> None:
            response = await client.get(path)
            response.raise_for_status()
            answered["web page"] += 1

        async def failing(kind: str, call: Awaitable[None]) -> None:
            try:
                await call
            except (grpc.RpcError, httpx.HTTPError):
                answered[f"failed {kind}"] += 1

        calls = []
        for n in range(READS):
            tournament = tournaments[n % len(tournaments)]
            calls.append(failing("ListMatches", matches()) if n % 3 == 0 else
                         failing("GetTournament", report(tournament)) if n % 3 == 1 else
                         failing("web page", page(f"/tournaments/{tournament}" if n % 2 else
                                                  f"/api/tournaments/{tournament}/matches")))
        await asyncio.gather(*calls)
    return answered


async def _watched_past(watched: Path, moment: float) -> None:
    """Until the server's watch has written a period that ends after ``moment``."""
    while not (watched.exists() and any(p.ended >= moment for p in loop_watch.Period.read(watched))):
        await asyncio.sleep(0.1)


async def _play(address: str, token: str, web: str, tournaments: list[int],
                watched: Path, time_bank_s: float) -> Outcome:
    auth = (("authorization", f"Bearer {token}"),)
    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.OperatorServiceStub(channel)
        created = await stub.CreateTournament(pb.CreateTournamentRequest(
            game=GAME, bots=list(BOTS), players=2, repetitions=REPETITIONS,
            move_timeout_s=MOVE_CLOCK_S, time_bank_s=time_bank_s,
            parallel=1), metadata=auth, timeout=60)

        async def matches() -> list[pb.MatchInfo]:
            found = await stub.ListMatches(pb.ListMatchesRequest(
                tournament_id=created.id, limit=10_000), metadata=auth, timeout=60)
            return list(found.matches)

        def finished(found: list[pb.MatchInfo]) -> dict[int, int]:
            """The finished matches, and their seats that faulted."""
            return {m.id: sum(1 for s in m.seats if s.fault) for m in found
                    if m.status == "finished"}

        while True:  # the control: QUIET matches played, and one in play (its clock on the loop)
            found = await matches()
            if len(finished(found)) >= QUIET and any(m.status == "running" for m in found):
                break
            await asyncio.sleep(0.05)
        before = finished(found)
        began = time.time()
        answered = await _reads(address, token, web, tournaments)
        ended, load = time.time(), os.getloadavg()[0]
        found = await matches()
        after = finished(found)
        await asyncio.wait_for(_watched_past(watched, ended), 120)  # its stalls, not the cancel's
        await stub.CancelTournament(pb.CancelTournamentRequest(tournament_id=created.id),
                                    metadata=auth, timeout=60)
    meanwhile = [after[m] for m in after.keys() - before.keys()]
    return Outcome(created.id, began, ended, answered, len(meanwhile), len(before),
                   sum(before.values()), sum(meanwhile),
                   any(m.status in ("running", "pending") for m in found), load)


def play(address: str, token: str, web: str, tournaments: list[int], watched: Path,
         time_bank_s: float = 0.0) -> Outcome:
    """On the ``arena serve`` at ``address`` (``web``: its web app) over a database
    :func:`seed` made, its loop watched into ``watched``: a tournament queued (on a
    :data:`MOVE_CLOCK_S` move clock, and a time bank of ``time_bank_s`` per seat and match),
    the reads fired
    once :data:`QUIET` of its matches are over and one is in play, and the tournament
    cancelled once they have all answered and the watch has written its periods past them."""
    return asyncio.run(_play(address, token, web, tournaments, watched, time_bank_s))


def stall_during(watched: Path, outcome: Outcome) -> loop_watch.Period:
    """The longest stalls of the server's loop while the reads were served."""
    return loop_watch.longest(loop_watch.Period.read(watched), outcome.began, outcome.ended)


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as folder:
        db, watched = Path(folder) / "arena.db", Path(folder) / "loop.jsonl"
        tournaments = seed(db)
        server = _Server(db, env={loop_watch.ENV: str(watched)})
        try:
            outcome = play(server.address, TOKEN, server.web, tournaments, watched)
            stall = stall_during(watched, outcome)
        finally:
            server.stop()
    faulted = 100 * outcome.faults_meanwhile / max(1, outcome.finished_meanwhile)
    reads = ", ".join(f"{n} {kind}" for kind, n in sorted(outcome.answered.items()))
    note = (f"{reads} at once, answered in {outcome.ended - outcome.began:.1f} s, beside a {GAME} "
            f"tournament on a {1000 * MOVE_CLOCK_S:.0f} ms move clock: "
            f"{outcome.finished_meanwhile} matches finished meanwhile, "
            f"{outcome.faults_meanwhile} seats of them faulted ({outcome.quiet_faults} in the "
            f"{outcome.quiet} matches before the reads); load average {outcome.load:.1f}; "
            f"before (b52b884, load {BEFORE_LOAD}): {BEFORE_CPU_MS:.0f} ms CPU, "
            f"{BEFORE_WALL_MS:.0f} ms wall")
    return [
        Row("loop", "longest loop stall during the heavy reads, CPU", stall.cpu_ms, "ms",
            "before (b52b884)", BEFORE_CPU_MS or None,
            stall.cpu_ms / BEFORE_CPU_MS if BEFORE_CPU_MS else None,
            f"< {TARGET_MS:.0f} ms", stall.cpu_ms < TARGET_MS, note),
        Row("loop", "longest loop stall during the heavy reads, wall", stall.wall_ms, "ms",
            "before (b52b884)", BEFORE_WALL_MS or None,
            stall.wall_ms / BEFORE_WALL_MS if BEFORE_WALL_MS else None,
            note="wall-clock lateness of the watch's tick: on a loaded machine it counts the "
                 "time the system preempted the server too"),
        Row("loop", "seats faulted during the heavy reads, per 100 matches", faulted, "seats",
            "before (feac4d8, reads in threads)", BEFORE_FAULTS, faulted / BEFORE_FAULTS,
            "0", outcome.faults_meanwhile == 0,
            f"{outcome.faults_meanwhile} seats in {outcome.finished_meanwhile} matches at a load "
            f"of {outcome.load:.1f}; before: load {BEFORE_FAULTS_LOAD}. On a loaded machine "
            "seats time out without any read too (the control: "
            f"{outcome.quiet_faults} in {outcome.quiet} matches)"),
    ]


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
