"""(2) referee overhead against a bare grpcio ping-pong, and (3) scaling with concurrent matches.

The referee runs in this process with :class:`arena.net.bot_service.MatchHost`; the bots
are trivial raw-gRPC clients (:mod:`benchmarks.trivial_bot`), one process per
seat, started with :class:`arena.players.process.BotProcess`. The ping-pong reference
replays, over a bare grpcio bidirectional stream per seat (one client process
per seat, same client code), exactly the messages a real match sent: each
seat's match start, the same decision requests (with the events riding on them),
the same event messages, the same replies, and each seat's own match end, timed
from the starts to the ends as a match is. Only the opening of the streams is
left out, which a match through the referee pays (the bots open a Play stream
per match).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

from arena.games import get_game
from arena.match.links import Link
from arena.match.referee import MatchReport, MatchSettings, run_match
from arena.net.bot_service import BotServer, MatchHost, MatchSpec, create_server
from arena.players.process import BotProcess
from arena.players.sandbox import Sandbox
from arena.v1 import arena_pb2 as pb
from arena.wire.tokens import digest
from benchmarks.common import InstantLink, Row
from benchmarks.trivial_bot import PINGPONG_METHOD

PINGPONG_SERVICE, PINGPONG_NAME = PINGPONG_METHOD.strip("/").split("/")

GAME = "king"
PLAYERS = 4
SETTINGS = MatchSettings(move_timeout_s=30, start_timeout_s=30)
SAMPLE_MATCHES = 16  # scaling: matches per level and round, at the least


def _options(quick_game: bool) -> dict[str, Any]:
    return dict(get_game(GAME).parse_options(PLAYERS, {"quick": "true"} if quick_game else None))


Journal = list[tuple[int, pb.RefereeMessage]]


async def record_match(seed: int, options: dict[str, Any]) -> tuple[Journal, MatchReport]:
    """A match in process over instant links: what the referee sent, to which seat, in order."""
    journal: Journal = []
    links = [InstantLink(seat, journal=journal) for seat in range(PLAYERS)]

    async def ready(link: InstantLink) -> Link:
        return link

    report = await run_match(game_name=GAME, players=PLAYERS, seed=seed, options=options,
                             links=[ready(link) for link in links], settings=SETTINGS)
    return journal, report


async def in_process_rate(options: dict[str, Any], matches: int) -> tuple[int, float]:
    """Decisions and CPU seconds of ``matches`` referee runs over instant links (no transport)."""
    decisions = 0
    began = time.process_time()
    for seed in range(matches):
        _, report = await record_match(seed, options)
        decisions += report.decisions
    return decisions, time.process_time() - began


# ------------------------------------------------------------------ ping-pong reference

async def pingpong(journal: Journal) -> tuple[int, float]:
    """Replay the recorded traffic over bare streams: (decisions, wall seconds).

    Timed like a match through the referee: from the match starts (sent to every
    seat at once, as the referee sends them) to the match ends, only the streams'
    opening left out. Each seat's end ends its client; a journal without ends (the
    decisions-only reference) gets plain ones after the clock stops.
    """
    streams: dict[int, Any] = {}
    connected = asyncio.Event()
    finished = asyncio.Event()

    async def handler(request_iterator: Any, context: Any) -> None:
        hello = await context.read()
        streams[int(hello.hello.credential)] = context
        if len(streams) == PLAYERS:
            connected.set()
        await finished.wait()

    server = grpc.aio.server()
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(PINGPONG_SERVICE, {
        PINGPONG_NAME: grpc.stream_stream_rpc_method_handler(
            handler, request_deserializer=pb.BotMessage.FromString,
            response_serializer=pb.RefereeMessage.SerializeToString)})])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    clients = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks.trivial_bot", "--pingpong", f"127.0.0.1:{port}", str(s),
        stdin=asyncio.subprocess.DEVNULL) for s in range(PLAYERS)]
    try:
        await asyncio.wait_for(connected.wait(), 30)
        # the referee's order: the starts; per step, the event messages that fell due,
        # then one decision; the ends
        starts = [(seat, m) for seat, m in journal if m.WhichOneof("kind") == "start"]
        ends = [(seat, m) for seat, m in journal if m.WhichOneof("kind") == "end"]
        steps: list[tuple[list[tuple[int, pb.RefereeMessage]], tuple[int, pb.RefereeMessage] | None]]
        steps = []
        pending: list[tuple[int, pb.RefereeMessage]] = []
        for seat, message in journal:
            kind = message.WhichOneof("kind")
            if kind in ("start", "end"):
                continue
            if kind == "decision":
                steps.append((pending, (seat, message)))
                pending = []
            else:
                pending.append((seat, message))
        steps.append((pending, None))
        decisions = 0
        began = time.perf_counter()
        await asyncio.gather(*(streams[s].write(m) for s, m in starts))
        for events, decision in steps:
            if events:
                await asyncio.gather(*(streams[s].write(m) for s, m in events))
            if decision is not None:
                seat, message = decision
                await streams[seat].write(message)
                reply = await streams[seat].read()
                assert reply.choice.decision_id == message.decision.decision_id
                decisions += 1
        await asyncio.gather(*(streams[s].write(m) for s, m in ends))
        elapsed = time.perf_counter() - began
        ended = {seat for seat, _ in ends}
        await asyncio.gather(*(context.write(pb.RefereeMessage(end=pb.MatchEnd()))
                               for seat, context in streams.items() if seat not in ended))
        return decisions, elapsed
    finally:
        finished.set()
        for client in clients:
            try:
                await asyncio.wait_for(client.wait(), 5)
            except TimeoutError:
                client.kill()
                await client.wait()
        await server.stop(grace=1)


# ------------------------------------------------------------------ the referee over gRPC

class Arena:
    """A referee server with one trivial bot process per seat.

    By default one server on a TCP port of 127.0.0.1; with ``address`` (``unix:PATH``) one
    server on that Unix socket; with ``per_bot``, a server per bot on a Unix socket of its
    own (:meth:`BotServer.for_bot`, as a tournament serves managed bots), the bots in
    ``sandbox`` when one is given. ``label`` names the bots (and their logs).
    """

    def __init__(self, tmp: Path, address: str = "127.0.0.1:0", per_bot: bool = False,
                 sandbox: Sandbox | None = None, label: str = "trivial") -> None:
        self.tmp = tmp
        self.host = MatchHost()
        self.servers: list[Any] = []  # grpc.aio.Server or BotServer: both stop(grace=)
        self.bots: list[BotProcess] = []
        self.cpu_s = 0.0  # this (the referee's) process, over all play() calls
        self._address = address
        self._per_bot = per_bot
        self._sandbox = sandbox
        self._label = label

    async def __aenter__(self) -> Arena:
        command = "python -m benchmarks.trivial_bot"
        logs = self.tmp / "logs"
        if self._per_bot:
            for s in range(PLAYERS):
                socket = self.tmp / f"{self._label}{s}.sock"
                bot = BotProcess(f"{self._label}{s}", command, f"unix:{socket}", logs,
                                 sandbox=self._sandbox)
                self.servers.append(await BotServer.for_bot(self.host, socket, digest(bot.token)))
                self.bots.append(bot)
        else:
            server, port = await create_server(self.host, self._address)
            self.servers.append(server)
            target = (self._address if self._address.startswith("unix:")
                      else f"{self._address.rsplit(':', 1)[0]}:{port}")
            self.bots = [BotProcess(f"{self._label}{s}", command, target, logs)
                         for s in range(PLAYERS)]
        for bot in self.bots:
            self.host.admit(bot.token)
        await asyncio.gather(*(bot.ensure_running() for bot in self.bots))
        return self

    async def __aexit__(self, *_exc: object) -> None:
        for bot in self.bots:
            self.host.dismiss(bot.token)
        await asyncio.gather(*(bot.stop() for bot in self.bots), return_exceptions=True)
        for server in self.servers:
            await server.stop(grace=1)

    async def play(self, concurrent: int, options: dict[str, Any],
                   seed: int = 0) -> tuple[int, float]:
        """``concurrent`` matches at once: (total decisions, wall seconds)."""
        tokens = tuple(digest(bot.token) for bot in self.bots)
        names = tuple(bot.name for bot in self.bots)
        specs = [MatchSpec(f"m{seed}-{i}", GAME, PLAYERS, seed + i, options, tokens, names, SETTINGS)
                 for i in range(concurrent)]
        began, cpu = time.perf_counter(), time.process_time()
        reports = await asyncio.gather(*(self.host.play(spec) for spec in specs))
        elapsed = time.perf_counter() - began
        self.cpu_s += time.process_time() - cpu
        faults = [f for r in reports for f in r.faults if f]
        if faults:
            raise RuntimeError(f"benchmark matches had faults: {faults[:5]}")
        return sum(r.decisions for r in reports), elapsed


async def _run(quick: bool, tmp: Path) -> list[Row]:
    options = _options(quick_game=quick)
    rows: list[Row] = []
    journal, report = await record_match(12345, options)
    decisions = [m.decision for _, m in journal if m.WhichOneof("kind") == "decision"]
    sizes_ev = [m.ByteSize() for _, m in journal if m.WhichOneof("kind") == "events"]
    riding = sum(len(d.events) for d in decisions)
    traffic = (f"{report.decisions} decisions/match, decision msg "
               f"{sum(d.ByteSize() for d in decisions) / len(decisions):.0f} B avg carrying "
               f"{riding / len(decisions):.1f} events, {len(sizes_ev)} event msgs"
               + (f" {sum(sizes_ev) / len(sizes_ev):.0f} B avg" if sizes_ev else ""))

    d, cpu = await in_process_rate(options, 2 if quick else 5)
    rows.append(Row("2 referee", "referee in process, instant links (no gRPC)", d / cpu,
                    "decisions/s", note="CPU time; ceiling of the referee's own work"))

    rounds = 3 if quick else 7
    same: list[float] = []  # per round: the ping-pong of the same messages, decisions/s
    only: list[float] = []  # the decisions-only ping-pong
    subject: list[float] = []  # one match through the referee
    ref_d_total = 0
    async with Arena(tmp) as arena:
        await arena.play(1, options, seed=999)  # warm-up: connections, first imports
        arena.cpu_s = 0.0
        for r in range(rounds):  # paired rounds, the order alternating, against load drift
            async def reference() -> None:
                pd, pt = await pingpong(journal)
                same.append(pd / pt)
                od, ot = await pingpong([(s, m) for s, m in journal
                                         if m.WhichOneof("kind") == "decision"])
                only.append(od / ot)

            if r % 2:
                await reference()
            md, mt = await arena.play(1, options, seed=r)
            subject.append(md / mt)
            ref_d_total += md
            if not r % 2:
                await reference()
        # The ratio of each round's pair, then their median: a burst of load on the machine
        # that hits one side of one pair moves one ratio, not the figure.
        paired = sorted(m / p for m, p in zip(subject, same, strict=True))
        ratio = statistics.median(paired)
        pp, pp_only, single = (statistics.median(same), statistics.median(only),
                               statistics.median(subject))
        rows.append(Row("2 referee", "bare grpcio ping-pong, same messages (4 procs)", pp, "decisions/s",
                        note=traffic))
        rows.append(Row("2 referee", "bare grpcio ping-pong, decisions only", pp_only, "decisions/s",
                        note="no event messages: a stricter limit"))
        rows.append(Row("2 referee", "one match through the referee (4 bot procs)", single,
                        "decisions/s", "ping-pong, same messages", pp, ratio, ">= 70%", ratio >= 0.7,
                        f"median of {rounds} paired rounds ({paired[0]:.0%}-{paired[-1]:.0%}); "
                        f"{statistics.median(m / p for m, p in zip(subject, only, strict=True)):.0%}"
                        " of the decisions-only ping-pong"))

        referee_cpu = arena.cpu_s / ref_d_total
        levels = (1, 4, 16) if quick else (1, 4, 16, 64)
        totals = {level: [0, 0.0, 0.0] for level in levels}
        for r in range(2):  # every level in each round, against load drift
            for level in levels:
                # at least SAMPLE_MATCHES matches per level and round (one after another
                # below that), so each level is sampled about as long as the others: a
                # short dip or peak in the machine's load cannot decide a ratio alone
                for batch in range(max(1, SAMPLE_MATCHES // level)):
                    arena.cpu_s = 0.0
                    dd, tt = await arena.play(level, options,
                                              seed=1000 * level + 100 * r + level * batch)
                    totals[level][0] += dd
                    totals[level][1] += tt
                    totals[level][2] += arena.cpu_s
        rates = {level: d / t for level, (d, t, _) in totals.items()}
        for level in levels:
            target = ">= 1.7x" if level == 16 else ""
            ratio = rates[level] / rates[1]
            label = f"{level} concurrent match" + ("es" if level > 1 else "")
            cpu_us = totals[level][2] / totals[level][0] * 1e6
            rows.append(Row("3 scaling", label, rates[level], "decisions/s",
                            "1 match", rates[1], ratio, target,
                            ratio >= 1.7 if level == 16 else None,
                            f"referee process CPU {cpu_us:.0f} us/decision"))
    rows[-len(levels) - 1].note += f"; referee process CPU {referee_cpu * 1e6:.0f} us/decision"
    return rows


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        return asyncio.run(_run(quick, Path(tmp)))


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
