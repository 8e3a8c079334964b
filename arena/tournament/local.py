"""The local executor: every match on this machine, over the referee's own gRPC service.

Managed bots run in the sandbox (:mod:`arena.players.sandbox`) unless the
operator turns it off, with their memory, processes and CPU limited by control
groups where the machine has them; each reaches the referee through a Unix
socket of its own, which admits its token only and caps its connections and
calls. They are started once, kept for all their matches and restarted before a
match when they crashed. A managed bot has a process per *lane*: a match's lane
(the seat rotation of a duplicated deal) says which plays it, so that no process
of a bot sees a deal twice. Lane 0 of every bot is started with the executor and
the first matches wait for it; the other lanes are then started one process at a
time in the background, while matches are played, so that their start takes the
CPU the matches leave idle. A match whose lane is not attending yet starts it (if
the background has not) and waits for it before its start timeout runs.

The limits are the bot's, not a lane's: every lane of a bot (and every restart of
one) runs in a group inside one parent group per bot and executor
(:class:`~arena.players.cgroups.BotBudget`), which holds them, so a bot with four
lanes and ``--bot-memory 512MB`` has 512 MB for all four together. An executor plays
one tournament run on one machine, so that is the bot as a whole there (a node of a
Ray cluster runs an executor of its own, each with the tournament's limits).

Remote bots connect to ``RunSettings.listen`` (TLS when a certificate is
given) with their own token. Before the first match every bot gets time to
attend; afterwards a remote bot that is not attending when one of its matches
starts has the start timeout to come back, and is otherwise a no-show in that
match.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.match.referee import MatchReport
from arena.net.bot_service import BotServer, MatchHost, MatchSpec
from arena.net.tls import check_tls_files
from arena.players import cgroups, sandbox
from arena.players.cgroups import BotBudget
from arena.players.process import BotProcess
from arena.tournament.errors import BotsDidNotStart, RemoteBotsAbsent, TournamentError
from arena.tournament.executor import Entrant, Executor, MatchJob
from arena.tournament.settings import RunSettings
from arena.wire.messages import LogEntry
from arena.wire.tokens import digest

MANAGED_START_GRACE_S = 30.0
"""How long managed bots may take to start and attend before the first match (at least)."""

Notice = Callable[[str], None]


@dataclass
class _Bot:
    """A bot as this executor runs it: managed (a process it starts) or remote (it connects
    by itself; the host knows it by its token's hash)."""

    name: str
    token_hash: str
    process: BotProcess | None
    starting: asyncio.Lock = field(default_factory=asyncio.Lock)
    fresh: bool = False  # a lane spawned with the executor, not yet waited for

    async def ensure_running(self) -> None:
        if self.process is not None:
            async with self.starting:  # two matches at once restart a crashed bot once
                await self.process.ensure_running()  # restarts a bot that crashed earlier

    def settled(self, host: MatchHost) -> bool:
        """Attending, or a managed bot whose process has ended (nothing to wait for)."""
        return host.attending(self.token_hash) or (self.process is not None and not self.process.alive)


def _how_it_ended(process: BotProcess) -> str:
    """How a bot that did not start ended, in words fit for anyone: its exit code, never
    what it printed (a tournament's note is public; the log is its author's)."""
    ended = process.process
    code = None if ended is None else ended.returncode
    if code is None:
        return "it did not connect in time"
    return f"killed by signal {-code}" if code < 0 else f"exit code {code}"


@dataclass(frozen=True)
class BotUsage:
    """What a managed bot used of its limits as a whole (see :meth:`LocalExecutor.bot_usage`)."""

    memory_limit_mb: int | None  # None: not limited
    memory_peak: int | None  # bytes, the most all its processes held at once (None: not known)
    oom_kills: int  # its processes the kernel killed for memory
    processes: int | None  # its processes and threads now (None: not known, or none run)


class LocalExecutor(Executor):
    """Plays matches in this process's event loop, with bot processes on this machine.

    ``settings`` gives where remote bots connect (``listen``, TLS files), how long
    to wait for them (``wait_for_remote_s``) and the start timeout; the clocks of
    each match and the limits of each bot come with the jobs and entrants. Bot
    output goes to ``data_dir/logs``. The TLS files are checked at once.
    """

    def __init__(self, data_dir: Path, settings: RunSettings, notice: Notice | None = None,
                 hidden: Sequence[Path] = ()) -> None:
        self._hidden = tuple(p.resolve() for p in (data_dir, *hidden))  # never shown to a bot
        self._log_dir = data_dir / "logs"
        self._settings = settings
        self._say: Notice = notice or (lambda _: None)
        self._tls: tuple[str, str] | None = None
        if settings.listen is not None and (settings.tls_cert or settings.tls_key):
            if not (settings.tls_cert and settings.tls_key):
                raise TournamentError("TLS needs both a certificate and a key")
            check_tls_files(settings.tls_cert, settings.tls_key)
            self._tls = (settings.tls_cert, settings.tls_key)
        self._host: MatchHost | None = None
        self._servers: list[BotServer] = []
        self._bots: dict[tuple[int, int], _Bot] = {}  # by bot id and lane
        self._closed_start_s = 0.0  # bot_start_s of the processes stopped by close()
        self._waited_s = 0.0  # matches waiting for a lane still starting
        self._sockets: Path | None = None  # the folder of the managed bots' sockets
        self._warming: asyncio.Task[None] | None = None  # starts the lanes past the first
        self._journals: dict[int, list[LogEntry]] = {}  # the log so far of each match in play
        self._budgets: dict[str, BotBudget] = {}  # each managed bot's limits, by its name

    async def start(self, entrants: Sequence[Entrant]) -> None:
        if self._host is not None:
            raise RuntimeError("the executor was started already")
        settings, say = self._settings, self._say
        remote = [e for e in entrants if e.remote]
        if remote and settings.listen is None:
            names = ", ".join(e.name for e in remote)
            raise TournamentError(f"remote bots ({names}) need an address to connect to: "
                                  "give --listen HOST:PORT")
        managed = [e for e in entrants if not e.remote]
        if managed:
            self._sockets = Path(tempfile.mkdtemp(prefix="arena-bots-"))  # this user's only
        contained = self._containment(managed)  # before anything starts: it may refuse
        host = self._host = MatchHost()
        if settings.listen is not None:
            outside = await BotServer.start(host, settings.listen, self._tls)
            self._servers.append(outside)
            shown = settings.listen.rsplit(":", 1)[0]
            say(f"listening for remote bots on {shown}:{outside.port}"
                + (" (TLS)" if outside.tls else " (plain text, no TLS)"))
        for entrant in entrants:
            if entrant.token_hash is not None:
                self._bots[entrant.bot_id, 0] = _Bot(entrant.name, entrant.token_hash, None)
                host.admit_hash(entrant.token_hash)
            else:
                budget = self._budget(entrant, contained)
                for lane in range(entrant.lanes):
                    await self._start_lane(entrant, lane, contained, budget)
        for (_, lane), bot in self._bots.items():
            bot.fresh = bot.process is not None and lane > 0
        first = [b for b in self._bots.values() if b.process is not None and not b.fresh]
        await asyncio.gather(*(bot.ensure_running() for bot in first))
        # Before the first match every bot gets time to attend: a managed bot slower to
        # start than the start timeout (a busy machine) or a remote bot still connecting
        # would otherwise be a no-show in its first matches. The other lanes start in the
        # background from now on, and a match waits for its own (see play).
        await self._wait_for(first, max(settings.start_timeout_s, MANAGED_START_GRACE_S))
        silent = [b for b in first if not host.attending(b.token_hash)]
        if silent and not settings.keep_going:
            await asyncio.sleep(0.2)  # the last of its output reaches its log
            raise BotsDidNotStart("; ".join(
                f"bot {b.name} did not start: {b.process.last_words()}" for b in silent
                if b.process is not None) + " (nothing was played; fix the bot, or pass "
                "--keep-going to play on, its seats no-shows)",
                public="; ".join(f"bot {b.name} did not start ({_how_it_ended(b.process)})"
                                 for b in silent if b.process is not None)
                + " (nothing was played; its author reads why with `arena bot log`)")
        self._warming = asyncio.create_task(self._warm_lanes())
        remote_bots = [b for b in self._bots.values() if b.process is None]
        absent = [b for b in remote_bots if not b.settled(host)]
        for bot in remote_bots:  # connected while the managed bots started
            if bot not in absent:
                say(f"remote bot {bot.name} connected")
        if settings.wait_for_remote_s > 0 and absent:
            say(f"waiting up to {settings.wait_for_remote_s:g} s for remote bots: "
                + ", ".join(b.name for b in absent))
            absent = await self._wait_for(absent, settings.wait_for_remote_s,
                                          lambda b: say(f"remote bot {b.name} connected"))
            if absent:
                raise RemoteBotsAbsent(f"remote bots did not connect within "
                                       f"{settings.wait_for_remote_s:g} s: "
                                       f"{', '.join(b.name for b in absent)}")

    def _containment(self, managed: Sequence[Entrant]) -> dict[str, Any]:
        """How the managed bots are contained (a sandbox, cgroups), said in a line or two;
        a :class:`TournamentError` when the sandbox is asked for and cannot run."""
        if not managed:
            return {}
        say = self._say
        found = cgroups.detect()
        cgroups.sweep(found)  # groups of an arena that was killed, and anything left in them
        limits = managed[0].limits
        say(limits.describe(found.controllers, found.label)
            + (f" [cgroups: {found.why_not}]" if found.why_not else ""))
        contained: dict[str, Any] = {"cgroups": found}
        if not self._settings.sandbox:
            say("sandbox: off (--no-sandbox): managed bots run as this user and can see, signal "
                "and read what it can")
            return contained
        check = sandbox.check()
        if not check.works:
            raise TournamentError(f"cannot sandbox managed bots: {check.why_not}; "
                                  f"{check.remedy}, or pass --no-sandbox to run them uncontained")
        hidden = self._hidden + ((self._sockets,) if self._sockets else ())
        say(f"sandbox: {check.version}: each managed bot sees only its folder and the runtime, "
            "no network, no other process")
        contained["sandbox"] = sandbox.Sandbox(hidden=hidden)
        return contained

    def _budget(self, entrant: Entrant, contained: dict[str, Any]) -> BotBudget | None:
        """The limits of a managed bot as a whole, shared by all its lanes (None: no cgroups)."""
        support: cgroups.CgroupSupport = contained["cgroups"]
        if not support.controllers:
            return None
        whole, _ = entrant.limits.split(support.controllers)
        budget = self._budgets[entrant.name] = BotBudget(
            support, entrant.name, memory_mb=whole.memory_mb, processes=whole.processes,
            cpus=whole.cpus)
        return budget

    async def _start_lane(self, entrant: Entrant, lane: int, contained: dict[str, Any],
                          budget: BotBudget | None) -> None:
        """The process of a managed bot that plays its matches of ``lane``, with a socket
        and a token of its own, its limits the bot's ``budget`` (all its lanes together)."""
        host, sockets = self._host, self._sockets
        assert host is not None and entrant.command is not None and sockets is not None
        name = entrant.name if lane == 0 else f"{entrant.name}.lane{lane}"
        socket = sockets / f"{entrant.bot_id}-{lane}.sock"
        process = BotProcess(name, entrant.command, f"unix:{socket}", self._log_dir,
                             limits=entrant.limits,
                             folder=Path(entrant.folder) if entrant.folder else None,
                             deps=Path(entrant.deps) if entrant.deps else None,
                             budget=budget, **contained)
        bot = self._bots[entrant.bot_id, lane] = _Bot(name, digest(process.token), process)
        self._servers.append(await BotServer.for_bot(host, socket, bot.token_hash))
        host.admit_hash(bot.token_hash)

    async def _warm_lanes(self) -> None:
        """Start the lanes past the first, one process at a time, each once the one before
        attends (or has had the grace to): started all at once, with the first lanes, they
        took the CPU the first matches wait for."""
        for _, bot in sorted(((lane, b) for (_, lane), b in self._bots.items() if b.fresh),
                             key=lambda pair: pair[0]):
            await bot.ensure_running()
            await self._wait_for([bot], max(self._settings.start_timeout_s, MANAGED_START_GRACE_S))

    def _seat_bot(self, match_id: int, bot_id: int, lane: int) -> _Bot:
        """The process (or remote bot, which has one lane only) playing ``bot_id``'s seat."""
        bot = self._bots.get((bot_id, lane)) or self._bots.get((bot_id, 0))
        if bot is None or (bot.process is not None and (bot_id, lane) not in self._bots):
            raise TournamentError(f"match {match_id} seats bot {bot_id} in lane {lane}, which "
                                  "the executor was not started with")
        return bot

    async def play(self, job: MatchJob) -> MatchReport:
        host = self._host
        if host is None:
            raise RuntimeError("the executor was not started")
        seat_bots = [self._seat_bot(job.match_id, e.bot_id, job.lane) for e in job.seats]
        for bot in seat_bots:
            await bot.ensure_running()
        # A lane not attending yet since the executor's start is waited for (it is no
        # no-show), and the wait counted as start-up time.
        fresh = [b for b in seat_bots if b.fresh]
        if fresh:
            began = time.perf_counter()
            await self._wait_for(fresh, max(job.clocks.start_timeout_s, MANAGED_START_GRACE_S))
            for bot in fresh:
                bot.fresh = False
            self._waited_s += time.perf_counter() - began
        spec = MatchSpec(match_id=str(job.match_id), game=job.game, players=job.players,
                         seed=job.seed, options=dict(job.options),
                         seat_token_hashes=tuple(b.token_hash for b in seat_bots),
                         seat_names=tuple(entrant.name for entrant in job.seats),
                         settings=job.clocks)

        async def is_alive(seat: int) -> bool:
            process = seat_bots[seat].process
            if process is None:  # a remote bot: alive while it attends
                return host.attending(seat_bots[seat].token_hash)
            return await process.is_alive()

        def ended(seat: int) -> Awaitable[None] | None:
            # a managed bot whose process ends before it takes its seat is a no-show at once
            # (one that dies at every start, or is refused its folder, would hold each of its
            # matches up to the start timeout)
            process = seat_bots[seat].process
            return None if process is None else process.ended()

        journal = self._journals[job.match_id] = []
        try:
            report = await host.play(spec, is_alive, journal, ended)
        finally:
            del self._journals[job.match_id]
        if report.peers:  # where remote bots played from; a managed bot's socket says nothing
            report.peers = tuple(peer if bot.process is None else None
                                 for peer, bot in zip(report.peers, seat_bots, strict=True))
        return report

    def live_log(self, match_id: int) -> Sequence[LogEntry] | None:
        return self._journals.get(match_id)

    @property
    def sealed(self) -> bool:
        return self._settings.sandbox  # it starts no managed bot uncontained unless told so

    async def close(self) -> None:
        if self._warming is not None:
            self._warming.cancel()
            await asyncio.gather(self._warming, return_exceptions=True)
            self._warming = None
        bots, self._bots = self._bots, {}
        servers, self._servers = self._servers, []
        if self._host is not None:
            for bot in bots.values():
                self._host.dismiss_hash(bot.token_hash)
        await asyncio.gather(*(b.process.stop() for b in bots.values() if b.process is not None),
                             return_exceptions=True)
        for budget in self._budgets.values():  # gone with the last lane; anything left, now
            with contextlib.suppress(OSError):  # (close never raises; a sweep takes the rest)
                await asyncio.to_thread(budget.close)
        self._closed_start_s += sum(b.process.start_seconds for b in bots.values()
                                    if b.process is not None)
        for server in servers:
            await server.stop(grace=1.0)
        if self._sockets is not None:
            shutil.rmtree(self._sockets, ignore_errors=True)
            self._sockets = None

    def bot_usage(self) -> dict[str, BotUsage]:
        """What each managed bot used of its limits as a whole, all its lanes together, so far
        (also after :meth:`close`), by name; empty without cgroups."""
        return {name: BotUsage(b.memory_mb, b.memory_peak(), b.oom_kills(),
                               b.processes_now())
                for name, b in self._budgets.items()}

    @property
    def lane_wait_s(self) -> float:
        """Seconds matches waited for a lane's process to attend, after the start."""
        return self._waited_s

    @property
    def bot_start_s(self) -> float:
        return self._closed_start_s + self._waited_s + sum(
            b.process.start_seconds for b in self._bots.values() if b.process is not None)

    async def _wait_for(self, bots: Sequence[_Bot], wait_s: float,
                        arrived: Callable[[_Bot], None] | None = None) -> list[_Bot]:
        """Wait up to ``wait_s`` until every bot is settled; those still absent."""
        host = self._host
        assert host is not None
        absent = [b for b in bots if not b.settled(host)]
        deadline = time.monotonic() + wait_s
        while absent and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
            for bot in [b for b in absent if b.settled(host)]:
                absent.remove(bot)
                if arrived is not None:
                    arrived(bot)
        return absent
