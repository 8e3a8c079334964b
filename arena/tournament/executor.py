"""The executor seam: how a tournament has its matches played.

The run loop (:mod:`arena.tournament.run`) decides *which* match is played
*when*, and writes what comes back; an :class:`Executor` plays one match at a
time when asked, wherever and however it likes. Everything that crosses the
seam is plain, immutable, picklable data: an :class:`Entrant` per bot, a
:class:`MatchJob` per match, and a :class:`~arena.match.referee.MatchReport`
back. No store, process, server or event loop object of the tournament side
goes to the executor, so an executor that plays matches on other machines
(each match on one node, with its bots' processes started on that node) can
implement it without touching scheduling, storage or rating.

The lifecycle, as the run loop drives it:

1. ``await executor.start(entrants)``: once, with every bot of the matches still
   to play: start managed bots, open listeners for remote ones, wait for them to
   attend. It may be cancelled (a stop asked for while bots are still coming); it
   raises :class:`~arena.tournament.errors.RemoteBotsAbsent` when remote bots did
   not come in time (nothing is played then, and the tournament can be resumed),
   or another :class:`~arena.tournament.errors.TournamentError` when the bots
   cannot be played as asked.
2. ``await executor.play(job)``: for each match, up to ``RunSettings.parallel``
   at once. It returns the finished match, whatever the bots did (their faults are
   in the report); it raises only when the match could not be refereed at all.
   A job may be played again after a crash of the arena (it is replayed from its
   seed), never twice in one run.
3. ``await executor.close()``: always, even after a failed or cancelled start:
   stop every bot process and listener. It must not raise.

While a match plays, ``executor.live_log(match_id)`` may give its log so far (the
referee's entries, see :func:`~arena.match.referee.run_match`'s ``journal``), which
the run loop writes to the store now and then for the match's live public view; an
executor that cannot tell (matches played elsewhere) gives None, and its matches are
shown once finished.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.games.base import OptionValue
from arena.match.referee import MatchReport, MatchSettings
from arena.players.limits import ResourceLimits
from arena.wire.messages import LogEntry


@dataclass(frozen=True)
class Entrant:
    """A bot of the tournament, as an executor needs to know it.

    Managed (``command``: the arena starts it, under ``limits``) or remote
    (``token_hash``: it connects by itself with the token its author was given,
    and is known only by that token's SHA-256, hex).
    """

    bot_id: int
    name: str  # name@version: how it is shown in logs and match records
    command: str | None = None
    token_hash: str | None = None
    limits: ResourceLimits = field(default_factory=ResourceLimits)  # for a managed bot's processes
    folder: str | None = None  # a managed bot's working directory (None: the executor's own)
    deps: str | None = None  # a submitted version's installed requirements, if it has any
    content_hash: str | None = None  # a submitted version: the SHA-256 of its stored archive
    lanes: int = 1  # how many processes a managed bot needs: one per lane of its matches

    def __post_init__(self) -> None:
        if (self.command is None) == (self.token_hash is None):
            raise ValueError(f"bot {self.name}: give either a command (managed) or a token hash "
                             "(remote)")

    @property
    def remote(self) -> bool:
        return self.token_hash is not None


@dataclass(frozen=True)
class MatchJob:
    """One match to play: everything an executor needs, as plain data."""

    match_id: int  # the store's id of the match
    index: int  # its position in the tournament's schedule
    game: str
    players: int
    seed: int  # the deal (never shown to a bot)
    options: Mapping[str, OptionValue]  # parsed game options
    seats: tuple[Entrant, ...]  # the bot in each seat, seat 0 first
    clocks: MatchSettings  # move timeout, start timeout, time bank, event delay
    lane: int = 0  # which process of each seated managed bot plays it: never one that saw its deal


class Executor(ABC):
    """Plays a tournament's matches (see the module's docstring for the lifecycle)."""

    @abstractmethod
    async def start(self, entrants: Sequence[Entrant]) -> None:
        """Get ready to play matches among these bots (may be cancelled; see above)."""

    @abstractmethod
    async def play(self, job: MatchJob) -> MatchReport:
        """Play one match to its end and report it."""

    def live_log(self, match_id: int) -> Sequence[LogEntry] | None:
        """The log so far of a match being played (read in the run loop's event loop; it
        ends on a whole step), or None when this executor cannot tell."""
        return None

    @abstractmethod
    async def close(self) -> None:
        """Stop everything :meth:`start` and :meth:`play` started; always called, never raises."""

    @property
    def bot_start_s(self) -> float:
        """Seconds spent starting bot processes so far (``RunSummary.bot_start_s``)."""
        return 0.0

    @property
    def sealed(self) -> bool:
        """Whether every managed bot it plays runs in the arena's sandbox (no network: nothing a
        spectator sees reaches it). A match whose every seat is such a bot starts *sealed*
        (:mod:`arena.app.visibility` may show its hands live); an executor that cannot say so
        gives False."""
        return False
