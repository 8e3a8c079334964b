"""Tournaments, the command side: the request to create one (its defaults written once) and
the use cases that create, queue, cancel, void and resume one.

``arena tournament run|create`` and the operator service's ``CreateTournament`` each decode
their input into a :class:`TournamentRequest` and call :func:`create`; every check of the
request is :mod:`arena.tournament.setup`'s (and the game's, the store's), made once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from arena.errors import ArenaError, ErrorKind
from arena.players.limits import DEFAULT_LIMIT_TEXTS, LimitTexts, ResourceLimits
from arena.storage.store import Store, TournamentInfo, TournamentStatus
from arena.tournament import Plan, RunSettings
from arena.tournament import create_tournament as write_tournament
from arena.tournament.formats import ROUND_ROBIN, parse_sprt
from arena.tournament.settings import DEFAULTS


@dataclass(frozen=True, kw_only=True)
class TournamentRequest:
    """A tournament to create, as asked: bots by label (``NAME`` or ``NAME@VERSION``), the
    options and limits as text. Every default is here (the clocks', the limits' and
    ``parallel``'s from :data:`arena.tournament.settings.DEFAULTS`)."""

    game: str
    bots: Sequence[str]
    players: int | None = None  # the game's default
    repetitions: int = 1
    format: str = ROUND_ROBIN
    field: Sequence[str] = ()
    sets: int | None = None
    sprt: str | None = None  # e.g. elo0=0,elo1=10
    options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    seed: int | None = None  # a random one
    deals: str | None = None  # duplicate unless a remote bot takes part
    deals_from_seed: bool = False
    parallel: int = DEFAULTS.parallel
    move_timeout_s: float = DEFAULTS.move_timeout_s
    start_timeout_s: float = DEFAULTS.start_timeout_s
    time_bank_s: float = DEFAULTS.time_bank_s
    event_delay_s: float = DEFAULTS.event_delay_s
    limits: LimitTexts = DEFAULT_LIMIT_TEXTS
    public_notes: bool = DEFAULTS.public_notes

    def plan(self) -> Plan:
        return Plan(kind=self.format, field=list(self.field), sets=self.sets,
                    sprt=None if self.sprt is None else parse_sprt(self.sprt))

    def settings(self) -> RunSettings:
        """How it is played (what is saved with it; a run adds where and how it runs)."""
        return RunSettings(self.parallel, self.move_timeout_s, self.start_timeout_s,
                           self.time_bank_s, event_delay_s=self.event_delay_s,
                           limits=ResourceLimits.from_texts(self.limits),
                           public_notes=self.public_notes)


def create(store: Store, request: TournamentRequest, settings: RunSettings | None = None, *,
           notice: Callable[[str], None] | None = None, queued: bool = False,
           check_size: Callable[[int], None] | None = None) -> TournamentInfo:
    """Write the tournament ``request`` asks for, every match pending; ``settings``: the
    request's own with how this run plays it (``arena tournament run``); ``queued``: for the
    server's scheduler (``arena serve``) to play. ``notice`` hears what an operator's choice
    allows bots to do; ``check_size`` the number of its matches, before anything is written."""
    tournament_id = write_tournament(
        store, request.game, request.bots, request.players, request.repetitions, request.seed,
        request.options, settings or request.settings(), deals=request.deals,
        deals_from_seed=request.deals_from_seed, notice=notice, plan=request.plan(),
        queued=queued, check_size=check_size)
    return store.get_tournament(tournament_id)


def cancel(store: Store, tournament_id: int) -> int:
    """Void a tournament's unfinished matches (its finished ones keep counting); how many."""
    return store.cancel_tournament(tournament_id)


def void(store: Store, tournament_id: int) -> int:
    """Take a tournament out of the ratings (every match void, ratings rebuilt); how many of
    its finished matches no longer count."""
    return store.void_tournament(tournament_id)


class NothingToResume(ArenaError):
    """A tournament cancelled or voided: it is never played again."""

    kind = ErrorKind.CONFLICT


def resumable(store: Store, tournament_id: int) -> TournamentInfo:
    """Tournament ``tournament_id``, checked for a resume (``arena tournament resume``, here or
    on a server): one cancelled or voided has nothing left to play (:class:`NothingToResume`);
    an unknown one: :class:`~arena.storage.store.NotFoundError`."""
    tournament = store.get_tournament(tournament_id)
    if tournament.status.closed:
        raise NothingToResume(f"tournament {tournament_id} was {tournament.status}: it has "
                              "nothing left to play")
    return tournament


def requeue(store: Store, tournament_id: int) -> TournamentInfo:
    """Resume a tournament on a server (``arena tournament resume --arena``, the operator
    service's ``ResumeTournament``): checked as :func:`resumable`, then queued for the
    server's scheduler, which plays what is left of it with its saved settings (the caller
    leaves alone one the scheduler plays now). One with nothing left to play stays as it is.
    The tournament as it is now."""
    tournament = resumable(store, tournament_id)
    if tournament.status.ended:
        return tournament
    store.set_tournament_status(tournament_id, TournamentStatus.QUEUED)
    return store.get_tournament(tournament_id)


__all__ = ["NothingToResume", "TournamentRequest", "cancel", "create", "requeue", "resumable",
           "void"]
