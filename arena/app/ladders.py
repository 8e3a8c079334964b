"""A game's ladder as ``arena ladder show`` and the operator service's ``GetLadder`` show it:
its versions, their ratings in the ladder's pool, and why a suspended one plays no more.
Playing a ladder is :mod:`arena.tournament.ladder`'s."""

from __future__ import annotations

from dataclasses import dataclass

from arena.games import get_game
from arena.storage.store import NotFoundError, Store
from arena.tournament.ladder import LadderRules, find_ladder, ladder_standings


@dataclass(frozen=True)
class LadderVersion:
    """A version on a ladder: its label (name@version), its rating in the ladder's pool, the
    matches it played there, and why it plays no more (None: it plays)."""

    bot: str
    mu: float
    sigma: float
    matches: int
    suspended: str | None

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class LadderView:
    """A game's ladder: its tournament's id and status, its finished matches, and its
    ``versions`` in the order they were entered."""

    id: int
    game: str
    status: str
    matches: int
    versions: tuple[LadderVersion, ...]


def show_ladder(store: Store, game: str) -> LadderView:
    """The ladder of ``game`` (a name or alias); none: :class:`NotFoundError`."""
    name = get_game(game).name
    found = find_ladder(store, name)
    if found is None:
        raise NotFoundError(f"no ladder of {name} in this database: `arena ladder start {name}`")
    tournament = store.get_tournament(found)
    saved = tournament.settings.get("ladder", {})
    rungs = ladder_standings(store, name, saved.get("named", ()), LadderRules.from_saved(saved),
                             tournament.options)
    return LadderView(found, name, str(tournament.status), tournament.finished, tuple(
        LadderVersion(r.bot.label, r.mu, r.sigma, r.matches, r.suspended) for r in rungs))


__all__ = ["LadderVersion", "LadderView", "show_ladder"]
