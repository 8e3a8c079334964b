"""Tournaments as the views show them: a list, a report (settings, progress, standings,
crosstable, an SPRT's state), progress alone, and the export of every match.

The standings rate the tournament's matches alone (TrueSkill, in schedule order:
:func:`arena.rating.standings.standings`); the crosstable compares every two of its bots over
the matches they shared. The store keeps both as it rates the tournament's matches
(:meth:`Store.tournament_standings`): a report reads them, it does not rate the tournament
again. At a table of three seats or more, the report adds every pair's presence
(:mod:`arena.rating.presence`: how much one bot at the table changes another's place beyond
what the standings' ratings predict), over the last :data:`PRESENCE_MATCHES` finished
matches. The views turn these records into text or JSON (:mod:`arena.app.documents`,
:mod:`leaderboard.terminal`); no seed ever leaves here in them (deals are secret: a
:class:`~arena.storage.store.TournamentInfo` has one, and the views leave it out).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games import pool_of
from arena.rating.figures import read_match
from arena.rating.presence import Presence, presence
from arena.rating.ratings import DEFAULT
from arena.rating.standings import Played, Seat, Standing
from arena.rating.stats import Comparison, SprtSettings, SprtState
from arena.storage.store import MatchInfo, MatchStatus, Store, TournamentInfo
from arena.tournament.formats import VERSUS, Format, sprt_summary, watch

Counts = Mapping[MatchStatus, int]
"""A tournament's matches by status (a status with none may be missing)."""
PRESENCE_MATCHES = 2_000
"""The finished matches a presence table reads: a tournament's last (what its bots do now)."""


def played(matches: Sequence[MatchInfo]) -> list[Played]:
    """The finished matches, as the standings read them."""
    return [Played(m.id, m.index, tuple(Seat(s.bot_id, s.rank or 0, str(s.fault)) for s in m.seats))
            for m in matches if m.status == "finished"]


# ---------------------------------------------------------------- a tournament's progress


@dataclass(frozen=True)
class Progress:
    """A tournament and how far it has got: its matches by status (``counts``), its format's
    kind and, for a versus with an SPRT, its sets played and decision (``sprt``: what a list
    shows instead of its schedule's cap, :func:`arena.tournament.formats.sprt_summary`)."""

    tournament: TournamentInfo
    counts: Counts
    kind: str
    sprt: Mapping[str, Any] | None


def progress_of(tournament: TournamentInfo, counts: Counts) -> Progress:
    """:class:`Progress` of a tournament read already, with its counts."""
    return Progress(tournament, counts, Format.from_settings(tournament.settings).kind,
                    sprt_summary(tournament.settings, tournament.finished, tournament.players))


def tournament_progress(store: Store, tournament_id: int) -> Progress:
    """How far tournament ``tournament_id`` has got (cheap: for polling while it runs); an
    unknown tournament: :class:`~arena.storage.store.NotFoundError`."""
    tournament = store.get_tournament(tournament_id)
    return progress_of(tournament, store.match_counts([tournament_id]).get(tournament_id, {}))


@dataclass(frozen=True)
class TournamentPage:
    """Some tournaments, newest first, with their progress; ``more``: the list goes on."""

    tournaments: tuple[Progress, ...]
    more: bool

    @property
    def last_id(self) -> int | None:
        """The id to give as ``before`` for the next page (None: empty)."""
        return self.tournaments[-1].tournament.id if self.tournaments else None


def _progress_all(store: Store, tournaments: Sequence[TournamentInfo]) -> list[Progress]:
    counts = store.match_counts([t.id for t in tournaments])
    return [progress_of(t, counts.get(t.id, {})) for t in tournaments]


def tournament_page(store: Store, before: int | None, limit: int) -> TournamentPage:
    """The newest ``limit`` tournaments with an id below ``before`` (None: all)."""
    found = store.tournament_page(before, limit + 1)
    return TournamentPage(tuple(_progress_all(store, found[:limit])), len(found) > limit)


def all_tournaments(store: Store) -> list[Progress]:
    """Every tournament with its progress (``arena tournament list``, ``ListTournaments``)."""
    return _progress_all(store, store.list_tournaments())


def running_tournaments(store: Store) -> list[Progress]:
    """The tournaments running now, with their progress."""
    return _progress_all(store, store.running_tournaments())


# ---------------------------------------------------------------- a tournament's report


@dataclass(frozen=True)
class StandingRow:
    """A bot's standing in a tournament: its ``place`` (1: best), ``bot`` (name@version)."""

    place: int
    bot: str
    standing: Standing


@dataclass(frozen=True)
class CrossCell:
    """The row ``bot`` against the column ``opponent`` over the matches they shared."""

    bot: str
    opponent: str
    cell: Comparison


@dataclass(frozen=True)
class PresenceRow:
    """The presence of ``other`` on ``bot`` (both name@version): :class:`Presence`."""

    bot: str
    other: str
    figure: Presence


@dataclass(frozen=True)
class TournamentPresence:
    """A tournament's presence table: every ordered pair that shared a match, strongest
    evidence first (none at a table of two seats), read from its last ``matches`` finished
    matches."""

    matches: int
    pairs: tuple[PresenceRow, ...]


@dataclass(frozen=True)
class SprtReport:
    """A versus with an SPRT: its settings and its state over its complete sets so far."""

    settings: SprtSettings
    state: SprtState


@dataclass(frozen=True)
class SetTally:
    """A versus's complete sets so far, from A's side: won (A above B in more of the set's
    rotations than B above A), drawn, lost."""

    wins: int
    draws: int
    losses: int

    @classmethod
    def of(cls, scores: Iterable[float]) -> SetTally:
        scores = list(scores)
        return cls(scores.count(1.0), scores.count(0.5), scores.count(0.0))

    @property
    def sets(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class TournamentReport:
    """Everything ``tournament show`` says: the tournament's :class:`Progress`; its rating
    ``pool``; a gauntlet's or versus's ``challengers`` and ``field`` (name@version); the
    ``sets`` of a versus (None otherwise) and its complete sets' ``tally`` (None for
    another format); ``sprt`` (a versus with an SPRT); the ``standings`` and the
    ``crosstable`` (in standings order); and, when asked for, its ``presence``."""

    progress: Progress
    pool: str
    challengers: tuple[str, ...]
    field: tuple[str, ...]
    sets: int | None
    sprt: SprtReport | None
    standings: tuple[StandingRow, ...]
    crosstable: tuple[CrossCell, ...]
    tally: SetTally | None = None
    presence: TournamentPresence | None = None  # None: not asked for

    @property
    def tournament(self) -> TournamentInfo:
        return self.progress.tournament


def _labels(store: Store, tournament: TournamentInfo,
            bot_ids: Iterable[int]) -> Callable[[int], str]:
    """name@version of a bot of the tournament or of ``bot_ids`` (a ladder seats new versions
    as it plays: its standings may name one the tournament read before did not), ``#ID`` for
    one neither names."""
    labels = dict(zip(tournament.bot_ids, tournament.bots, strict=True))
    missing = {b for b in bot_ids if b not in labels}
    if missing:
        labels.update({bot.id: bot.label for bot in store.bots_by_id(missing)})
    return lambda bot_id: labels.get(bot_id, f"#{bot_id}")


def tournament_report(store: Store, tournament: TournamentInfo,
                      counts: Counts | None = None, *, presence: bool = False) -> TournamentReport:
    """The report of a tournament read already; ``counts``: its matches by status, when the
    caller has them (:meth:`Store.match_counts`). Only a versus reads its matches whole,
    which its sets (and its SPRT) are counted from; ``presence``: with the presence table
    (:func:`tournament_presence`, which reads the last matches)."""
    if counts is None:
        counts = store.match_counts([tournament.id]).get(tournament.id, {})
    fmt = Format.from_settings(tournament.settings)
    rows, table = store.tournament_standings(tournament.id)  # table: in standings order
    label = _labels(store, tournament, [r.bot_id for r in rows])
    sprt = tally = None
    if fmt.kind == VERSUS:
        sets = watch(store.tournament_matches(tournament.id), fmt, tournament.players)
        tally = SetTally.of(sets.scores)
        if fmt.sprt is not None and sets.state is not None:
            sprt = SprtReport(fmt.sprt, sets.state)
    return TournamentReport(
        progress=progress_of(tournament, dict(counts)),
        pool=pool_of(tournament.game, tournament.options),
        challengers=tuple(label(b) for b in fmt.challengers),
        field=tuple(label(b) for b in fmt.field), sets=fmt.sets or None, sprt=sprt,
        standings=tuple(StandingRow(place, label(r.bot_id), r) for place, r in enumerate(rows, 1)),
        crosstable=tuple(CrossCell(label(a), label(b), cell) for (a, b), cell in table.items()),
        tally=tally, presence=_presence(store, tournament, rows, label) if presence else None)


def _presence(store: Store, tournament: TournamentInfo, rows: Sequence[Standing],
              label: Callable[[int], str]) -> TournamentPresence:
    if tournament.players < 3:
        return TournamentPresence(0, ())
    recent = store.last_played(tournament.id, PRESENCE_MATCHES)
    ratings = {r.bot_id: (r.mu, r.sigma) for r in rows}
    figures = presence((read_match((s.bot_id, s.rank, s.fault) for s in m.seats)
                        for m in recent), ratings, DEFAULT)
    return TournamentPresence(len(recent), tuple(PresenceRow(label(f.bot), label(f.other), f)
                                                 for f in figures))


def tournament_presence(store: Store, tournament_id: int) -> TournamentPresence:
    """Tournament ``tournament_id``'s presence table: how much one bot at the table changes
    another's place beyond what the tournament's ratings predict (:mod:`arena.rating.presence`);
    an unknown tournament: :class:`~arena.storage.store.NotFoundError`. Its standings are
    read, not the rest of its report."""
    tournament = store.get_tournament(tournament_id)
    rows, _ = store.tournament_standings(tournament.id)
    return _presence(store, tournament, rows, _labels(store, tournament, [r.bot_id for r in rows]))


def show_tournament(store: Store, tournament_id: int) -> TournamentReport:
    """The report of tournament ``tournament_id`` (``arena tournament show``), with its
    presence table; an unknown tournament: :class:`~arena.storage.store.NotFoundError`."""
    return tournament_report(store, store.get_tournament(tournament_id), presence=True)


# ---------------------------------------------------------------- export


@dataclass(frozen=True)
class TournamentExport:
    """A tournament with its progress and every one of its matches, in schedule order (no
    logs): what ``arena tournament export`` writes."""

    progress: Progress
    matches: tuple[MatchInfo, ...]


def tournament_export(store: Store, tournament_id: int) -> TournamentExport:
    """Every match of tournament ``tournament_id`` with its seats, ranks, scores, faults and
    timing; an unknown tournament: :class:`~arena.storage.store.NotFoundError`."""
    tournament = store.get_tournament(tournament_id)
    matches = store.tournament_matches(tournament_id)
    counts = store.match_counts([tournament_id]).get(tournament_id, {})
    return TournamentExport(progress_of(tournament, counts), tuple(matches))


__all__ = [
    "PRESENCE_MATCHES",
    "Counts",
    "CrossCell",
    "PresenceRow",
    "Progress",
    "SprtReport",
    "StandingRow",
    "TournamentExport",
    "TournamentPage",
    "TournamentPresence",
    "TournamentReport",
    "all_tournaments",
    "played",
    "progress_of",
    "running_tournaments",
    "show_tournament",
    "tournament_export",
    "tournament_page",
    "tournament_presence",
    "tournament_progress",
    "tournament_report",
]
