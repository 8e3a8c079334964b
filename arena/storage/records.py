"""What the store gives back: frozen dataclasses (table objects never leave the storage
package), and the values a caller gives it to write (a schedule, a match's result, a
submitted version's code).

Statuses and faults are :class:`TournamentStatus`, :class:`MatchStatus` and
:class:`~arena.match.faults.Fault`: ``StrEnum`` members, so they equal their plain strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from arena import rating
from arena.games.base import Situation
from arena.match.faults import Fault
from arena.storage.tables import MatchStatus, TournamentStatus


@dataclass(frozen=True)
class BotInfo:
    id: int
    name: str
    version: str
    command: str
    remote: bool
    removed: bool
    created_at: datetime
    folder: str | None = None  # a managed bot's working directory
    content_hash: str | None = None  # a submitted version: the SHA-256 of its code's archive
    games: tuple[str, ...] | None = None  # a submitted version: the games it plays
    author_id: int | None = None  # the author whose bot it is (None: the operator's)
    validated: tuple[str, ...] | None = None  # the games its validation played (None: none)

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def submitted(self) -> bool:
        return self.content_hash is not None

    @property
    def kind(self) -> str:
        """How the arena runs it, as every list names it: ``remote`` (it connects with its
        token), ``submitted`` (its archived code, in the sandbox) or ``managed`` (a command
        the operator registered)."""
        return "remote" if self.remote else "submitted" if self.submitted else "managed"


@dataclass(frozen=True)
class AuthorInfo:
    """Someone who submits bots (``arena author add``); the token's hash never leaves the store."""

    id: int
    name: str
    created_at: datetime
    bots: tuple[str, ...] = ()  # the names of the author's bots


@dataclass(frozen=True)
class SubmittedCode:
    """What the store keeps of a submitted version's code: its canonical archive."""

    sha256: str
    archive: bytes
    files: int
    size: int


@dataclass(frozen=True)
class ScheduledMatch:
    """One match of a schedule: its position, its seed, the bot in each seat, and which of
    each bot's processes plays it (its lane)."""

    index: int
    seed: int
    seat_bot_ids: tuple[int, ...]
    lane: int = 0


@dataclass(frozen=True)
class TournamentInfo:
    id: int
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    repetitions: int
    settings: dict[str, Any]
    bot_ids: tuple[int, ...]
    bots: tuple[str, ...]  # name@version, in bot_ids order
    status: TournamentStatus
    created_at: datetime
    finished_at: datetime | None
    total: int
    finished: int


@dataclass(frozen=True)
class MatchToRun:
    """A match still to play: everything the runner needs to start it."""

    id: int
    tournament_id: int | None
    index: int
    game: str
    options: dict[str, Any]
    seed: int
    seat_bot_ids: tuple[int, ...]
    lane: int = 0  # which of each bot's processes plays it


@dataclass(frozen=True)
class MatchResult:
    """What a finished match reports, one entry per seat (fault "" for none).

    A fault is a :class:`~arena.match.faults.Fault` or its value as a plain string;
    the store refuses any other string."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    faults: tuple[Fault | str, ...]
    log: bytes | None = None
    started_at: datetime | None = None
    duration_s: float | None = None
    peers: tuple[str | None, ...] = ()  # per seat: the connection a remote bot played over
    reasons: tuple[str, ...] = ()  # per seat: why it faulted ("" for none), as the log has it
    node: str | None = None  # where it was played, and its logs (None: this machine)
    first_to_act: int | None = None  # the seat of the first decision (None: none was taken)
    situations: tuple[Situation, ...] = ()  # the game's own conditions (Game.situations)


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    bot_id: int
    bot: str  # name@version
    score: float | None
    rank: int | None
    fault: Fault
    peer: str | None = None  # the connection a remote bot played the seat over


@dataclass(frozen=True)
class MatchInfo:
    id: int
    tournament_id: int | None
    index: int
    game: str
    options: dict[str, Any]
    seed: int
    status: MatchStatus
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    duration_s: float | None
    finish_seq: int | None
    seats: tuple[SeatInfo, ...]
    log: bytes | None = field(default=None, repr=False)  # only from get_match
    # where it was played, when an executor played it elsewhere: the node and where its logs
    # are (None: the machine that ran it; always None from the browsing queries, which read
    # no column stored after the log)
    node: str | None = None


@dataclass(frozen=True)
class Rotation:
    """A match of a deal still to play (pending or running): one seat rotation of the deal,
    ``lane`` its number from 0. ``sealed``: it started with every seat a bot the arena ran in
    its sandbox (False before it starts); ``remote``: its seats whose bots are remote, each
    as (seat, name@version)."""

    match_id: int
    lane: int
    status: MatchStatus
    sealed: bool
    remote: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class LeaderboardRow:
    game: str
    bot_id: int
    name: str
    version: str
    mu: float
    sigma: float
    conservative: float
    matches: int
    wins: int
    faults: int
    pool: str = ""  # the rating pool: the game's name for its standard rules (see Game.pool)

    def __post_init__(self) -> None:
        if not self.pool:
            object.__setattr__(self, "pool", self.game)

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def win_share(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True)
class HistoryPoint:
    match_id: int
    finish_seq: int
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return rating.conservative(self.mu, self.sigma)


# ---------------------------------------------------------------- browsing values (the web pages)


@dataclass(frozen=True)
class FaultInfo:
    """A seat that faulted: which match, which seat, the fault and why (``reason``: as the
    referee logged it; None for a match played before reasons were kept)."""

    match_id: int
    seat: int
    fault: Fault
    game: str
    tournament_id: int | None
    finished_at: datetime | None
    reason: str | None = None


@dataclass(frozen=True)
class HeadToHead:
    """A bot against one opponent over the rated matches of a rating pool in which both took a
    seat (a bot in two seats counts its better one): how often it placed above, below and
    level with the opponent, and the sum of its ranks in those matches. The counts add up:
    the tallies of two spans of matches are the tally of both."""

    pool: str
    opponent_id: int
    wins: int
    losses: int
    ties: int
    rank_sum: int

    @property
    def n(self) -> int:
        return self.wins + self.losses + self.ties


@dataclass(frozen=True)
class HistorySample:
    """At most a given number of a bot's rating history points in a pool, spread evenly over
    the arena's rated matches from its first to its last (both among them)."""

    pool: str
    total: int  # the bot's rated matches in the pool
    points: tuple[HistoryPoint, ...]


__all__ = [
    "AuthorInfo", "BotInfo", "FaultInfo", "HeadToHead", "HistoryPoint", "HistorySample",
    "LeaderboardRow", "MatchInfo", "MatchResult", "MatchToRun", "Rotation", "ScheduledMatch",
    "SeatInfo", "SubmittedCode", "TournamentInfo",
]
