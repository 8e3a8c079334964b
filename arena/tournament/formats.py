"""Tournament formats: a round-robin, a gauntlet, and a match between two bots (versus).

A format is saved in the tournament's settings (``settings["format"]``), so that a
resume plays it the same way; a tournament saved before formats existed is a
round-robin. A match between two bots is played over duplicate sets (one deal in
every seat rotation) and may stop early when a sequential probability ratio test
(SPRT) decides: :func:`sprt_state` reads that test off the finished matches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from arena.rating.stats import SprtSettings, SprtState, first_decision, sprt
from arena.storage.store import MatchInfo
from arena.tournament.errors import TournamentError

ROUND_ROBIN, GAUNTLET, VERSUS = "round-robin", "gauntlet", "versus"
KINDS = (ROUND_ROBIN, GAUNTLET, VERSUS)


@dataclass(frozen=True)
class Format:
    """How a tournament's schedule was drawn, by bot id.

    ``challengers``: a gauntlet's challengers, or a versus match's A and B (in that order).
    ``field``: who fills the other seats (a gauntlet's field; a versus match's other seats).
    ``sprt``: a versus match's stopping test (None: play every set)."""

    kind: str = ROUND_ROBIN
    challengers: tuple[int, ...] = ()
    field: tuple[int, ...] = ()
    sets: int = 0
    sprt: SprtSettings | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise TournamentError(f"--format must be one of {', '.join(KINDS)}, not {self.kind!r}")

    def saved(self) -> dict[str, Any]:
        return {"kind": self.kind, "challengers": list(self.challengers),
                "field": list(self.field), "sets": self.sets,
                "sprt": None if self.sprt is None else asdict(self.sprt)}

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> Format:
        saved = settings.get("format") or {}
        sprt_saved = saved.get("sprt")
        return cls(kind=saved.get("kind", ROUND_ROBIN),
                   challengers=tuple(saved.get("challengers", ())),
                   field=tuple(saved.get("field", ())), sets=int(saved.get("sets", 0)),
                   sprt=None if sprt_saved is None else SprtSettings(**sprt_saved))

    @property
    def pair(self) -> tuple[int, int]:
        """A versus match's two bots (A, B)."""
        if self.kind != VERSUS or len(self.challengers) != 2:
            raise TournamentError("only a match between two bots has a pair")
        return self.challengers[0], self.challengers[1]


def parse_sprt(text: str) -> SprtSettings:
    """``elo0=0,elo1=10[,alpha=0.05,beta=0.05]`` (commas or spaces) as settings."""
    values: dict[str, float] = {}
    for item in text.replace(",", " ").split():
        key, sep, value = item.partition("=")
        if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
            raise TournamentError(f"--sprt takes elo0=, elo1=, alpha= and beta= (e.g. "
                                  f"'elo0=0,elo1=10'), not {item!r}")
        try:
            values[key] = float(value)
        except ValueError:
            raise TournamentError(f"--sprt {key} must be a number, not {value!r}") from None
    if "elo0" not in values or "elo1" not in values:
        raise TournamentError("--sprt needs at least elo0= and elo1= (e.g. 'elo0=0,elo1=10')")
    try:
        return SprtSettings(elo0=values["elo0"], elo1=values["elo1"],
                            alpha=values.get("alpha", 0.05), beta=values.get("beta", 0.05))
    except ValueError as err:
        raise TournamentError(f"--sprt: {err}") from None


def set_scores(matches: Sequence[MatchInfo], a: int, b: int, per_set: int) -> list[float]:
    """Each complete duplicate set's paired outcome for A against B, in set order, up to
    the first set that is not finished: 1 when A placed above B in more of the set's
    matches than B above A, 0 for the reverse, 0.5 when even."""
    by_set: dict[int, list[MatchInfo]] = {}
    for match in matches:
        by_set.setdefault(match.index // per_set, []).append(match)
    scores: list[float] = []
    for number in range(len(by_set) + 1):
        found = by_set.get(number, [])
        if len(found) < per_set or any(m.status != "finished" for m in found):
            break
        above = below = 0
        for match in found:
            ranks = {seat.bot_id: seat.rank for seat in match.seats}
            rank_a, rank_b = ranks.get(a), ranks.get(b)
            if rank_a is None or rank_b is None or rank_a == rank_b:
                continue
            above, below = above + (rank_a < rank_b), below + (rank_a > rank_b)
        scores.append(1.0 if above > below else 0.0 if above < below else 0.5)
    return scores


def sprt_state(matches: Sequence[MatchInfo], tournament_format: Format,
               players: int) -> SprtState | None:
    """The SPRT of a versus match on its complete sets so far: as of its first decision if
    it has decided, else as of the last complete set (None: the match has no SPRT)."""
    if tournament_format.kind != VERSUS or tournament_format.sprt is None:
        return None
    a, b = tournament_format.pair
    scores = set_scores(matches, a, b, players)
    decided = first_decision(scores, tournament_format.sprt)
    return decided[1] if decided is not None else sprt(scores, tournament_format.sprt)
