"""A finished match's win-probability graph: after every decision, each seat's chance to finish
first, estimated **from the full deal** by rollouts of the game's heuristic bot.

**What it estimates.** Step ``N`` of a match is its state after its ``N``-th decision (step 0:
the deal, before any decision), as the replay numbers its steps: the true state, every card
where it is, the match's log replayed from its deal (:func:`arena.match.replay.steps`). From
it, ``K`` rollouts play the match to its end, as the reference search bot (``bots/search.py``)
plays its rollouts: every seat played by the game's bundled heuristic bot (its
:data:`~bots.search.PLANS`), told only what that seat would observe; random legal moves in a
game without one. Each seat's chance is the share of the rollouts it finishes first in: ranks
as the referee gives them (a seat that has faulted ranks last), a first place shared by ``k``
seats counting ``1/k`` to each. The last step is the match's end: its own ranks, exactly.

It is **from the full deal**, not from any seat's view: it knows every hand. What it does not
know is what nobody knows yet, and that is what the rollouts vary: the deals still to come
(each rollout draws the game's generator anew, as the reference bot's sampler draws a
sample's future deals) and, unlike the reference bot, the moves. The heuristic bots are
deterministic, and from the full deal the reference bot's own source of variety (the deals
it samples for the cards it cannot see) is gone: without more, every rollout of a one-deal
game would play the same. So each move of a rollout is a random legal one with probability
:data:`EPSILON` (always, for a seat that has faulted: the referee's fallback plays it from
its fault on).

**Deterministic.** Rollout ``k`` draws its numbers from the match's id and ``k``, the same at
every step (common random numbers: the change from one step to the next is the decision's,
not the dice's): a step's chances depend on the match alone.

**The cap.** A graph costs at most ``cap_s`` CPU seconds (:func:`time.process_time`, reading
the log included; default :data:`DEFAULT_CAP_S`). ``K`` is :data:`MAX_ROLLOUTS` for a match of
up to 100 decisions, ``3200 / decisions`` for a longer one, and never below
:data:`MIN_ROLLOUTS` (:func:`rollouts_for`). The steps are computed coarse to fine: the end
(free), the start, then again and again the middle of the gap between two computed steps
whose chances differ most (the largest change of any seat's chance, plus the gap's share of
the match: long gaps and big swings first), until every step is computed or the cap is
reached; a step not computed lies on the straight line between its computed neighbours. So
a short match is computed step by step, and a long one at the steps that matter most; the
cap only decides how far down that order it gets. A step whose rollouts the cap cuts short
counts for nothing; a match whose start and end do not fit in the cap has no graph (its
error says so). The chances are kept to 4 decimals.

Who may compute it, and when: only once the match is finished and no other rotation of its
duplicate deal is pending or running, by :mod:`arena.app.visibility`'s rule (the graph shows
what the full view shows). The background worker is :mod:`arena.app.graph_worker`.
"""

from __future__ import annotations

import heapq
import itertools
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.app.matches import Hidden
from arena.app.visibility import Refusal, Sight, hidden_full_views, refusal
from arena.errors import ArenaError, ErrorKind
from arena.games import get_game
from arena.games.base import Game, OptionValue, Rng
from arena.games.sampling import future_rng
from arena.match.protocol import MatchStart
from arena.match.referee import ranks_after_faults
from arena.match.replay import ReplayError, read_log, steps
from arena.storage.store import MatchInfo, MatchStatus, Store, StoredGraph
from arena.wire.messages import LogError
from bots.search import PLANS, bot_class
from sdk.bot import Bot

DEFAULT_CAP_S = 2.0
"""CPU seconds a match's graph may take, unless told otherwise (``--graph-cpu``)."""
MAX_ROLLOUTS = 32
MIN_ROLLOUTS = 8
ROLLOUT_DECISIONS = 3200
"""Rollouts per step computed: this over the match's decisions, within
[:data:`MIN_ROLLOUTS`, :data:`MAX_ROLLOUTS`]."""
EPSILON = 0.1
"""The share of a rollout's moves that are random legal ones rather than the heuristic's."""
SWINGS = 3
"""The swings a graph marks: its largest changes of a seat's chance."""
CLOCK_EVERY = 8
"""Moves of a rollout between two readings of the CPU clock."""
WALK_CLOCK_EVERY = 8
"""Steps of the log's replay between two readings of the CPU clock."""
BATCH = 500
"""Matches asked about at once."""


def rollouts_for(decisions: int) -> int:
    """Rollouts per step computed for a match of ``decisions`` decisions."""
    return max(MIN_ROLLOUTS, min(MAX_ROLLOUTS, ROLLOUT_DECISIONS // max(decisions, 1)))


# ---------------------------------------------------------------- the estimate


class _OutOfTime(Exception):
    """The CPU cap is reached."""


def first_shares(ranks: Sequence[int]) -> tuple[float, ...]:
    """Each seat's share of the first place: 1/k to each of the k seats ranked 1."""
    first = sum(1 for rank in ranks if rank == 1)
    return tuple((1.0 / first if rank == 1 else 0.0) for rank in ranks)


class _Rollouts:
    """The rollouts of one match: its game, a heuristic bot per seat (None: random moves)."""

    def __init__(self, game: Game[Any, Any, Any], players: int, options: dict[str, OptionValue],
                 key: str, deadline: float, clock: Callable[[], float]) -> None:
        self.game, self.players, self.key = game, players, key
        self.deadline, self.clock = deadline, clock
        plan = PLANS.get(game.name)
        kind = bot_class(plan.heuristic) if plan is not None and plan.heuristic else None
        self.bots: list[Bot | None] = []
        for seat in range(players):
            bot = kind() if kind is not None else None
            if bot is not None:
                bot.on_start(MatchStart(key, game.name, game.version, seat, players,
                                        dict(options), (), 0.0, 0.0))
            self.bots.append(bot)

    def chances(self, state: Any, faulted: frozenset[int], rollouts: int) -> tuple[float, ...]:
        """Each seat's chance to finish first from ``state``: exact once the match is over."""
        flags = [seat in faulted for seat in range(self.players)]
        outcome = self.game.outcome(state)
        if outcome is not None:
            return first_shares(ranks_after_faults(outcome, flags))
        total = [0.0] * self.players
        for k in range(rollouts):
            if self.clock() > self.deadline:
                raise _OutOfTime
            shares = self._rollout(state, flags, random.Random(f"{self.key}:{k}"))
            total = [t + s for t, s in zip(total, shares, strict=True)]
        return tuple(t / rollouts for t in total)

    def _rollout(self, start: Any, faulted: list[bool], rng: random.Random) -> tuple[float, ...]:
        game = self.game
        state = game.clone(start)
        if isinstance(getattr(state, "rng", None), Rng):
            state.rng = future_rng(rng)  # the deals to come: nobody knows them yet
        moves = 0
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state)
            bot = self.bots[seat]
            if bot is None or faulted[seat] or rng.random() < EPSILON:
                action = legal[rng.randrange(len(legal))]
            else:
                action = bot.act(game.observe(state, seat), legal)
            game.apply(state, action)
            moves += 1
            if moves % CLOCK_EVERY == 0 and self.clock() > self.deadline:
                raise _OutOfTime
        outcome = game.outcome(state)
        assert outcome is not None
        return first_shares(ranks_after_faults(outcome, faulted))


@dataclass(frozen=True)
class Estimate:
    """A match's graph as computed: ``steps`` (its decisions and its start), the steps
    computed (``evaluated``, ascending) with each seat's ``chances`` there, the ``rollouts``
    per step computed and the CPU seconds it took."""

    steps: int
    rollouts: int
    evaluated: tuple[int, ...]
    chances: tuple[tuple[float, ...], ...]
    cpu_s: float


def estimate(game_name: str, players: int, seed: int, options: dict[str, OptionValue],
             log: bytes, *, key: str, cap_s: float = DEFAULT_CAP_S,
             clock: Callable[[], float] = time.process_time) -> Estimate:
    """Each seat's chance to finish first after each decision of the match whose log's bytes
    are ``log`` (dealt from ``seed``), from the full deal, within ``cap_s`` CPU seconds of
    ``clock`` (reading the log included); ``key`` seeds the rollouts (the match's id). A log
    that does not read: :class:`~arena.wire.messages.LogError`; that does not replay:
    :class:`~arena.match.replay.ReplayError`."""
    began = clock()
    deadline = began + cap_s
    game = get_game(game_name)
    lines = read_log(game.name, log)
    states: list[Any] = []
    faulted: list[frozenset[int]] = []
    seen: set[int] = set()
    for step in steps(game.name, players, seed, options, lines, offered=()):
        seen.update(line.seat for line in step.faults if line.seat is not None)
        states.append(game.clone(step.state))
        faulted.append(frozenset(seen))
        if len(states) % WALK_CLOCK_EVERY == 0 and clock() > deadline:
            count = len(states)
            states.clear()
            lines.clear()
            return Estimate(count, 0, (), (), clock() - began)  # not even its end
    last = len(states) - 1
    k = rollouts_for(last)
    found: dict[int, tuple[float, ...]] = {}
    rollouts = _Rollouts(game, players, options, key, deadline, clock)

    def compute(step: int) -> bool:
        try:
            found[step] = rollouts.chances(states[step], faulted[step], k)
        except _OutOfTime:
            return False
        return True

    def gap(a: int, b: int) -> tuple[float, int, int]:
        change = max((abs(x - y) for x, y in zip(found[a], found[b], strict=True)), default=0.0)
        return (-(change + (b - a) / last), a, b)

    gaps: list[tuple[float, int, int]] = []
    if last >= 0 and compute(last) and last > 0 and compute(0) and last > 1:
        gaps.append(gap(0, last))
    while gaps:
        _, a, b = heapq.heappop(gaps)
        middle = (a + b) // 2
        if not compute(middle):
            break
        for low, high in ((a, middle), (middle, b)):
            if high - low >= 2:
                heapq.heappush(gaps, gap(low, high))
    evaluated = tuple(sorted(found))
    count = len(states)
    states.clear()  # freed within the cap too: a long match's states and log take a while
    lines.clear()
    return Estimate(count, k, evaluated, tuple(found[s] for s in evaluated), clock() - began)


# ---------------------------------------------------------------- reading a graph


def series(graph: StoredGraph) -> list[tuple[float, ...]]:
    """Each step's chances: the steps computed as computed, those between on the straight line
    between their neighbours (none when the graph has fewer than two steps computed)."""
    points = list(zip(graph.evaluated, graph.chances, strict=True))
    if len(points) < 2 or points[0][0] != 0 or points[-1][0] != graph.steps - 1:
        return [points[0][1]] if len(points) == 1 and graph.steps == 1 else []
    out: list[tuple[float, ...]] = [points[0][1]]
    for (a, low), (b, high) in itertools.pairwise(points):
        for step in range(a + 1, b + 1):
            t = (step - a) / (b - a)
            out.append(tuple(x + (y - x) * t for x, y in zip(low, high, strict=True)))
    return out


@dataclass(frozen=True)
class Swing:
    """A large change of a seat's chance: from step ``before`` to step ``step`` (consecutive
    computed steps: ``step`` is the decision that made it when ``before`` is ``step - 1``),
    ``change`` (signed) of ``seat``'s chance."""

    step: int
    before: int
    seat: int
    change: float


def swings(graph: StoredGraph, count: int = SWINGS) -> list[Swing]:
    """The ``count`` largest changes of any seat's chance between two consecutive computed
    steps (the earlier first among equals), in step order."""
    found: list[Swing] = []
    points = list(zip(graph.evaluated, graph.chances, strict=True))
    for (a, low), (b, high) in itertools.pairwise(points):
        seat = max(range(len(low)), key=lambda s: abs(high[s] - low[s]))
        change = high[seat] - low[seat]
        if change:
            found.append(Swing(b, a, seat, change))
    largest = sorted(found, key=lambda s: (-abs(s.change), s.step))[:count]
    return sorted(largest, key=lambda s: s.step)


# ---------------------------------------------------------------- the use cases


class NotFinished(ArenaError):
    """A graph asked of a match that has not finished."""

    kind = ErrorKind.CONFLICT


def deal_over(store: Store, match_ids: Iterable[int]) -> list[int]:
    """Those of ``match_ids`` (finished matches) whose full view the rule shows to anyone
    (:func:`arena.app.visibility.may_show`): no other rotation of their deal is pending or
    running. One query per :data:`BATCH` of them."""
    ids = list(match_ids)
    over: list[int] = []
    for start in range(0, len(ids), BATCH):
        chunk = ids[start:start + BATCH]
        hidden = hidden_full_views(store, chunk)
        over += [m for m in chunk if m not in hidden]
    return over


def _refused(store: Store, match: MatchInfo) -> Refusal | None:
    """Why the graph of ``match`` may not be computed or shown (None: it may): the rule's
    refusal of its full view to anyone, for a finished match."""
    if match.status is not MatchStatus.FINISHED:
        raise NotFinished(f"match {match.id} is {match.status}: its win-probability graph is "
                          "computed once it has finished")
    return refusal(store, match, Sight.FULL)


def made(match: MatchInfo, cap_s: float = DEFAULT_CAP_S) -> StoredGraph:
    """The graph of finished ``match`` (read with its log), computed now; a log that does
    not read or replay gives a graph with its ``error``."""
    try:
        if match.log is None:
            raise ReplayError(f"match {match.id} has no log")
        found = estimate(match.game, len(match.seats), match.seed, dict(match.options),
                         match.log, key=f"match {match.id}", cap_s=cap_s)
    except (ReplayError, LogError) as error:
        return StoredGraph(match.id, 0, 0, (), (), 0.0, error=str(error))
    if found.steps == 0:
        return StoredGraph(match.id, 0, 0, (), (), found.cpu_s, error="its log has no step")
    if len(found.evaluated) < min(2, found.steps):
        return StoredGraph(match.id, 0, 0, (), (), found.cpu_s,
                           error=f"its start and its end take more than {cap_s:g} CPU s")
    return StoredGraph(match.id, found.steps, found.rollouts, found.evaluated,
                       tuple(tuple(round(c, 4) for c in point) for point in found.chances),
                       found.cpu_s)


def compute(store: Store, match_id: int, *, cap_s: float = DEFAULT_CAP_S,
            replace: bool = False) -> StoredGraph:
    """Match ``match_id``'s graph, computed now and kept (or the one kept already, unless
    ``replace``): only once the match is finished (else :class:`NotFinished`) and its deal
    is over, by the secrecy rule (else :class:`~arena.app.matches.Hidden`)."""
    if not replace and (kept := store.win_graph(match_id)) is not None:
        return kept
    match = store.get_match(match_id)
    refused = _refused(store, match)
    if refused is not None:
        raise Hidden(refused)
    graph = made(match, cap_s)
    store.save_graph(graph, replace=replace)  # (unless another worker kept one meanwhile)
    kept = store.win_graph(match_id)
    return kept if kept is not None else graph


@dataclass(frozen=True)
class ShownGraph:
    """A match (its seats, not its log) and its graph as shown: ``graph`` None when there is
    none to show, ``reason`` saying why in one line."""

    match: MatchInfo
    graph: StoredGraph | None
    reason: str | None = None


def shown_graph(store: Store, match_id: int) -> ShownGraph:
    """Match ``match_id``'s graph as shown to anyone: a finished match's, once its deal is
    over (else :class:`~arena.app.matches.Hidden`, the rule's reason), when computed."""
    match, graph = store.graphed_match(match_id)
    if match.status is not MatchStatus.FINISHED:
        return ShownGraph(match, None, f"match {match.id} is {match.status}: its graph is "
                                       "computed once it has finished")
    refused = refusal(store, match, Sight.FULL)
    if refused is not None:
        raise Hidden(refused)
    if graph is None:
        return ShownGraph(match, None, "not computed yet")
    if graph.error is not None:
        return ShownGraph(match, None, f"none: {graph.error}")
    return ShownGraph(match, graph)


__all__ = ["DEFAULT_CAP_S", "EPSILON", "MAX_ROLLOUTS", "MIN_ROLLOUTS", "Estimate", "NotFinished",
           "ShownGraph", "Swing", "compute", "deal_over", "estimate", "first_shares", "made",
           "rollouts_for", "series", "shown_graph", "swings"]
