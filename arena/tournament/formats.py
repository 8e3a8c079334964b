"""Tournament formats: a round-robin, a gauntlet, and a match between two bots (versus).

A format is saved in the tournament's settings (``settings["format"]``), so that a
resume plays it the same way; a tournament saved before formats existed is a
round-robin. A match between two bots is played over duplicate sets (one deal in
every seat rotation) and may stop early when a sequential probability ratio test
(SPRT) decides: :func:`watch` reads the sets, and that test, off the finished matches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from arena.rating.standings import best_ranks
from arena.rating.stats import SprtAccumulator, SprtSettings, SprtState
from arena.storage.store import MatchInfo
from arena.tournament.errors import TournamentError

ROUND_ROBIN, GAUNTLET, VERSUS = "round-robin", "gauntlet", "versus"
KINDS = (ROUND_ROBIN, GAUNTLET, VERSUS)
"""The formats ``arena tournament run --format`` draws a schedule for."""
LADDER = "ladder"
"""A ladder's tournament: its schedule grows as it is played (:mod:`arena.tournament.ladder`)."""


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
        if self.kind not in (*KINDS, LADDER):
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


def set_score(matches: Sequence[Mapping[int, int]], a: int, b: int) -> float:
    """One duplicate set's paired outcome for A against B, from each of its matches' ranks
    by bot id: 1 when A placed above B in more of them than B above A, 0 for the reverse,
    0.5 when even."""
    above = below = 0
    for ranks in matches:
        rank_a, rank_b = ranks.get(a), ranks.get(b)
        if rank_a is not None and rank_b is not None:
            above, below = above + (rank_a < rank_b), below + (rank_a > rank_b)
    return 1.0 if above > below else 0.0 if above < below else 0.5


class SetWatch:
    """A versus match's sets, fed finished matches in any order and read in set order:
    each complete set's outcome goes once into :attr:`scores` and, with ``settings``, into
    the SPRT, up to the first set still incomplete (a set with a void match never is)."""

    def __init__(self, a: int, b: int, per_set: int, settings: SprtSettings | None) -> None:
        self._a, self._b, self._per_set = a, b, per_set
        self._test = SprtAccumulator(settings) if settings is not None else None
        self._waiting: dict[int, Mapping[int, int]] = {}  # by match index: ranks by bot id
        self.scores: list[float] = []
        self.decided: SprtState | None = None  # the test's state at its first decision

    def add(self, index: int, ranks: Mapping[int, int]) -> SprtState | None:
        """One finished match (its ranks by bot id); the decision, once there is one."""
        self._waiting[index] = ranks
        first = len(self.scores) * self._per_set
        while all(i in self._waiting for i in range(first, first + self._per_set)):
            score = set_score([self._waiting.pop(i) for i in range(first, first + self._per_set)],
                              self._a, self._b)
            self.scores.append(score)
            if self._test is not None and self.decided is None:
                self._test.add(score)
                if self._test.decision() is not None:
                    self.decided = self._test.state()
            first += self._per_set
        return self.decided

    @property
    def state(self) -> SprtState | None:
        """The SPRT as of its first decision, else as of the last complete set."""
        return self.decided or (self._test.state() if self._test is not None else None)


def watch(matches: Sequence[MatchInfo], tournament_format: Format, players: int) -> SetWatch:
    """A versus match's sets, fed its finished ``matches``."""
    a, b = tournament_format.pair
    sets = SetWatch(a, b, players, tournament_format.sprt)
    for match in matches:
        if match.status == "finished":
            sets.add(match.index, best_ranks((s.bot_id, s.rank or 0) for s in match.seats))
    return sets


def decision_record(state: SprtState) -> dict[str, Any]:
    """An SPRT's decision as a tournament keeps it (``settings["decided"]``, written when
    the rest of its sets is voided), so that a list shows it without reading its matches."""
    return {"decision": state.decision, "sets": state.n, "llr": state.llr,
            "lower": state.lower, "upper": state.upper, "wins": state.wins,
            "draws": state.draws, "losses": state.losses}


def verdict(decision: str | None, a: str) -> str:
    """A decision in words, A named: ``H1: A is better``, ``H0: A is not better``, or
    ``no decision yet``."""
    return {"H1": f"H1: {a} is better", "H0": f"H0: {a} is not better"}.get(
        decision or "", "no decision yet")


def sprt_summary(settings: Mapping[str, Any], finished: int,
                 players: int) -> dict[str, Any] | None:
    """What a list shows of a versus with an SPRT instead of its schedule's cap: the sets
    played and the decision (``None`` until there is one), from the tournament's settings
    and its finished matches alone (a set is a match in each of its ``players`` seat
    rotations). None for any other tournament."""
    chosen = Format.from_settings(settings)
    if chosen.kind != VERSUS or chosen.sprt is None:
        return None
    decided = settings.get("decided")
    if isinstance(decided, Mapping):
        return {"sets": int(decided.get("sets", 0)), "decision": decided.get("decision"),
                "llr": decided.get("llr"), "lower": decided.get("lower"),
                "upper": decided.get("upper")}
    return {"sets": finished // max(1, players), "decision": None, "llr": None,
            "lower": None, "upper": None}

