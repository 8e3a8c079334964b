"""The conformance suite every game must pass (pure: no pytest, no I/O).

Each check raises ``AssertionError`` with a message that names the game, the
seed and the step, so a failure can be replayed. ``tests/match/test_conformance.py``
runs them over every registered game.

* :func:`random_game` — random play through the referee (in-process seats, the
  referee's own match loop) ends with a valid outcome; legal actions are
  never empty before the end; every card is conserved at every step; typed
  values only.
* :func:`determinism` — same seed and same actions give the same event log.
* :func:`hidden_information` — at any step, re-dealing what a seat cannot see
  leaves that seat's observation, its legal actions and the events it is shown
  (but for cards the action reveals) unchanged; and the public view (a
  spectator's) too, with the public events: what one seat cannot see, no
  spectator sees. The public view's cards are in every seat's observation.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.base import Game, IllegalActionError, InvalidActionError, Tagged
from arena.match.links import LocalLink, Player
from arena.match.referee import MatchSettings, run_match

MAX_STEPS = 200_000
# No clocks (the random policy answers at once), and events ride on decisions.
UNTIMED = MatchSettings(move_timeout_s=0.0, start_timeout_s=0.0, event_delay_s=3600.0)


@dataclass
class Trace:
    """A finished random game: its actions and its full tagged event log."""

    players: int
    seed: int
    options: dict[str, Any]
    actions: list[Any]
    events: list[Tagged]
    steps: int


def _policy(seed: int) -> random.Random:
    return random.Random(f"policy-{seed}")


class _RandomPlayer(Player):
    """A seat that picks uniformly among the legal actions (all seats share one generator)."""

    def __init__(self, policy: random.Random) -> None:
        self.policy = policy

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return self.policy.choice(legal_actions)


class _Checks:
    """The per-step checks, run by the referee's watch as the match is played."""

    def __init__(self, game: Game[Any, Any, Any], players: int, seed: int, check: bool) -> None:
        self.game, self.players, self.check = game, players, check
        self.where = f"{game.name} players={players} seed={seed}"
        self.initial: Counter[Any] = Counter()
        self.actions: list[Any] = []
        self.events: list[Tagged] = []
        self.steps = 0
        self.state: Any = None

    def begun(self, state: Any, events: Sequence[Tagged]) -> None:
        self.state = state  # the referee's own, changed in place as the match goes
        self.initial = Counter(self.game.cards_in_play(state))
        self.events.extend(events)

    def deciding(self, state: Any, seat: int, legal: Sequence[Any]) -> None:
        game, where = self.game, self.where
        self.steps += 1
        assert self.steps <= MAX_STEPS, f"{where}: no end after {MAX_STEPS} steps"
        assert 0 <= seat < self.players, f"{where}: to_act {seat} is not a seat"
        assert legal, f"{where} step {self.steps}: no legal action while the game is live"
        assert game.outcome(state) is None, f"{where}: outcome before the end"
        if self.check:
            for action in legal:
                assert isinstance(action, game.action_types), f"{where}: {action!r} is untyped"
            obs = game.observe(state, seat)
            assert isinstance(obs, game.observation_type), f"{where}: untyped observation"

    def applied(self, state: Any, seat: int, action: Any, events: Sequence[Tagged]) -> None:
        game, where = self.game, self.where
        self.actions.append(action)
        for tagged in events:
            assert isinstance(tagged, Tagged), f"{where}: apply returned an untagged event"
            assert isinstance(tagged.event, game.event_types), (
                f"{where}: {tagged.event!r} is not one of the game's event types")
            if tagged.visible_to is not None:
                assert all(0 <= s < self.players for s in tagged.visible_to), f"{where}: bad seat tag"
        self.events.extend(events)
        if self.check:
            now = Counter(game.cards_in_play(state))
            # as dicts: Counter's own == walks both in Python, dict's in C (neither has zeros)
            assert dict.__eq__(now, self.initial), \
                f"{where} step {self.steps}: cards not conserved: {now - self.initial} " \
                f"appeared, {self.initial - now} vanished"


def play_random(game: Game[Any, Any, Any], players: int, seed: int,
                options: dict[str, Any] | None = None, *, check: bool = True) -> Trace:
    """Play one game through the referee with uniformly random legal actions, checking
    the engine at every step as it goes (the referee's ``watch``)."""
    opts = game.parse_options(players, options)
    checks = _Checks(game, players, seed, check)
    policy = _policy(seed)
    links = [LocalLink(_RandomPlayer(policy), threaded=False) for _ in range(players)]

    async def ready(link: LocalLink) -> LocalLink:
        return link

    report = asyncio.run(run_match(
        game_name=game.name, players=players, seed=seed, options=dict(opts),
        links=[ready(link) for link in links], settings=UNTIMED, watch=checks))
    where = checks.where
    assert not any(report.faults), f"{where}: a seat faulted: {report.faults}"
    state = checks.state
    outcome = game.outcome(state)
    assert outcome is not None, f"{where}: over but no outcome"
    assert not game.legal_actions(state), f"{where}: legal actions after the end"
    assert len(outcome.ranks) == players and len(outcome.scores) == players, \
        f"{where}: outcome must have one entry per seat"
    assert report.ranks == outcome.ranks, f"{where}: the referee reported other ranks"
    ranks = outcome.ranks
    assert min(ranks) == 1, f"{where}: nobody ranked first: {ranks}"
    for r in ranks:
        assert 1 <= r <= players, f"{where}: rank {r} out of range"
        assert r == 1 + sum(1 for o in ranks if o < r), f"{where}: not competition ranks {ranks}"
    return Trace(players, seed, opts, checks.actions, checks.events, checks.steps)


def random_game(game: Game[Any, Any, Any], seed: int, players: int | None = None,
                options: dict[str, Any] | None = None) -> Trace:
    """The shared random-play check (players default: cycle over the allowed counts)."""
    if players is None:
        span = game.max_players - game.min_players + 1
        players = game.min_players + seed % span
    return play_random(game, players, seed, options)


def _played(game: Game[Any, Any, Any], seed: int, players: int | None,
            options: dict[str, Any] | None, trace: Trace | None) -> Trace:
    """``trace`` (a game already played by :func:`random_game` with these arguments), or
    that game played now."""
    if trace is None:
        return random_game(game, seed, players, options)
    assert trace.seed == seed and (players is None or trace.players == players), \
        f"{game.name}: the trace given is of seed {trace.seed} with {trace.players} players"
    return trace


def determinism(game: Game[Any, Any, Any], seed: int, players: int | None = None,
                options: dict[str, Any] | None = None, *, trace: Trace | None = None) -> None:
    """Same seed and actions replay to the identical event log and outcome. ``trace``: the
    first play, if :func:`random_game` has played it already (the second is played here)."""
    first = _played(game, seed, players, options, trace)
    opts = game.parse_options(first.players, first.options)
    state = game.new(first.players, seed, opts)
    replayed: list[Tagged] = list(game.opening_events(state))
    for action in first.actions:
        replayed.extend(game.apply(state, action))
    assert replayed == first.events, f"{game.name} seed={seed}: replay gave other events"
    second = random_game(game, seed, players, options)
    assert second.actions == first.actions and second.events == first.events, \
        f"{game.name} seed={seed}: the same seed played differently"


def _cards_in(value: Any) -> set[Any]:
    """Every card-like value inside a dataclass / tuple tree (leaves with a rank or code)."""
    cards: set[Any] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        shape = _SHAPES.get(kind)
        if shape is None:
            shape = _SHAPES[kind] = _shape(kind)
        if shape == "card":
            cards.add(item)
        elif shape == "items":
            stack.extend(item)
        else:
            stack.extend(getattr(item, name) for name in shape)
    return cards


_SHAPES: dict[type, str | tuple[str, ...]] = {}
"""What :func:`_cards_in` does with a value of each type, worked out once per type: keep it
(``"card"``), look into its ``"items"``, or into the dataclass fields named (none: pass it by)."""


def _shape(kind: type) -> str | tuple[str, ...]:
    if dataclasses.is_dataclass(kind):
        names = tuple(f.name for f in dataclasses.fields(kind))
        return "card" if hasattr(kind, "code") or "code" in names else names
    if issubclass(kind, (tuple, list, frozenset, set)):
        return "items"
    return ()


def hidden_information(game: Game[Any, Any, Any], seed: int, seat: int | None = None,
                       players: int | None = None, options: dict[str, Any] | None = None,
                       *, budget: int | None = None, offset: int = 0,
                       trace: Trace | None = None) -> int:
    """Check the hidden-information property along one random game.

    At every step (or, with a ``budget``, at about that many steps spread evenly
    over the game, starting ``offset`` steps in), for ``seat`` (default: each seat in turn), the
    state is copied with everything the seat cannot see re-dealt. Then:

    * the seat's observation of both states is equal;
    * if the seat is to act, its legal actions are equal;
    * when the next action (legal in both) reveals no new card to the seat in
      either state (most actions), it shows the seat the very same events in
      both. An action that legitimately reveals cards (they appear in the
      seat's observation afterwards, or face up for every seat) may show
      different cards in the two states, so such steps are not compared; nor
      are steps with one of the game's ``revealing_events``;
    * the public view (:meth:`~arena.games.base.Game.spectate`) of both states is
      equal, is of the game's ``public_view_type``, and holds no card missing from
      any seat's observation; the public events of the next action are compared
      as the seat's are (when it reveals no new card to the public).

    Returns how many event comparisons had a re-deal that really moved a card,
    so that a test can insist the property was exercised, not passed vacuously.
    ``trace``: the random game, if :func:`random_game` has played it already.
    """
    trace = _played(game, seed, players, options, trace)
    n = trace.players
    opts = game.parse_options(n, trace.options)
    state = game.new(n, seed, opts)
    rng = random.Random(f"redeal-{seed}")
    every = max(1, -(-len(trace.actions) // budget)) if budget else 1
    where = f"{game.name} players={n} seed={seed}"
    compared = 0
    # the cards each seat has seen named in an event so far (the public view may show them)
    named: list[set[Any]] = [set() for _ in range(n)]
    _note(named, game.opening_events(state))
    for step, action in enumerate(trace.actions):
        viewer = seat if seat is not None else step % n
        if step % every == offset % every:
            other = game.redeal_hidden(state, viewer, rng)
            moved_now = int(game.cards_in_play(other) != game.cards_in_play(state))
            at = f"{where} step {step} seat {viewer}"
            before = game.observe(state, viewer)
            assert game.observe(other, viewer) == before, \
                f"{at}: the observation depends on cards the seat cannot see"
            public = game.spectate(state)
            _check_public(game, state, n, public, at, named)
            assert game.spectate(other) == public, \
                f"{at}: the public view depends on cards seat {viewer} cannot see"
            if game.to_act(state) == viewer:
                assert list(game.legal_actions(other)) == list(game.legal_actions(state)), \
                    f"{at}: legal actions depend on cards the seat cannot see"
            if action in game.legal_actions(other):
                seen_before = _cards_in(before)
                tagged_a = game.apply(state, action)
                _note(named, tagged_a)
                tagged_b = game.apply(other, action)
                shown_a = _shown(game, state, viewer, tagged_a) - seen_before
                shown_b = _shown(game, other, viewer, tagged_b) - seen_before
                revealing = any(isinstance(t.event, game.revealing_events)
                                for t in (*tagged_a, *tagged_b))
                if not shown_a and not shown_b and not revealing:
                    events_a = [t.event for t in tagged_a if t.visible(viewer)]
                    events_b = [t.event for t in tagged_b if t.visible(viewer)]
                    assert events_a == events_b, \
                        f"{at}: the seat's events depend on cards it cannot see:\n" \
                        f"{events_a}\n{events_b}"
                    compared += moved_now
                seen_public = _cards_in(public)
                public_a = [t.event for t in tagged_a if t.visible_to is None]
                public_b = [t.event for t in tagged_b if t.visible_to is None]
                if not revealing and not _public_shown(game, state, public_a) - seen_public \
                        and not _public_shown(game, other, public_b) - seen_public:
                    assert public_a == public_b, \
                        f"{at}: the public events depend on cards seat {viewer} cannot " \
                        f"see:\n{public_a}\n{public_b}"
                continue
        _note(named, game.apply(state, action))
    return compared


def _note(named: list[set[Any]], tagged: list[Tagged]) -> None:
    for seat, seen in enumerate(named):
        seen.update(_cards_in([t.event for t in tagged if t.visible(seat)]))


def _shown(game: Game[Any, Any, Any], state: Any, seat: int, tagged: list[Tagged]) -> set[Any]:
    """Cards the action legitimately revealed to ``seat``: in its observation after
    the action, or in an event shown to every seat."""
    shown = _cards_in(game.observe(state, seat))
    shown |= _cards_in([t.event for t in tagged if t.visible_to is None])
    return shown


def _public_shown(game: Game[Any, Any, Any], state: Any, events: list[Any]) -> set[Any]:
    """Cards an action legitimately revealed to the public: in the public view after it,
    or in its public events."""
    return _cards_in(game.spectate(state)) | _cards_in(events)


def _check_public(game: Game[Any, Any, Any], state: Any, players: int, public: Any,
                  at: str, named: Sequence[set[Any]]) -> None:
    """The public view is typed, shows no card that some seat cannot see (in its observation,
    or ``named[seat]``: seen in an event, as a revealed hand still held), and, when it is
    the default one, agrees with every seat's observation on the fields they share (so it
    holds nothing of seat 0's own)."""
    assert isinstance(public, game.public_view_type), f"{at}: untyped public view"
    shown = _cards_in(public)
    # the default public view (part of seat 0's observation) must be what every seat sees;
    # a game's own may mean something else by a name (unseen by the spectator, not the seat)
    shared = [f.name for f in dataclasses.fields(game.public_view_type)
              if f.name in {o.name for o in dataclasses.fields(game.observation_type)}] \
        if type(game).spectate is Game.spectate else []
    for seat in range(players):
        seen = game.observe(state, seat)
        differ = [name for name in shared if getattr(seen, name) != getattr(public, name)]
        assert not differ, f"{at}: the public view's {differ} differ from seat {seat}'s " \
                           "observation of them (seat-dependent, or private)"
        hidden = shown - _cards_in(seen) - named[seat]
        assert not hidden, f"{at}: the public view shows {sorted(map(str, hidden))}, " \
                           f"which seat {seat} cannot see"


def illegal_actions_rejected(game: Game[Any, Any, Any], seed: int, *,
                             trace: Trace | None = None) -> None:
    """A value that is not an action, or an action not legal now, is refused cleanly.

    The well-formed but illegal action is one the game itself played at another
    moment: the first state along a random game where one of its actions is not
    legal, or else the finished game (where no action is legal). So the check is
    never skipped, whatever the game's actions. ``trace``: the random game, if
    :func:`random_game` has played it already.
    """
    trace = _played(game, seed, None, None, trace)
    opts = game.parse_options(trace.players, trace.options)
    state = game.new(trace.players, seed, opts)
    _refuses(game, state, "not an action", InvalidActionError, trace.players)
    kinds = list(dict.fromkeys(trace.actions))  # each distinct action the game played, in order
    for action in trace.actions:
        legal = game.legal_actions(state)
        illegal = next((a for a in kinds if a not in legal), None)
        if illegal is not None:
            _refuses(game, state, illegal, IllegalActionError, trace.players)
            return
        game.apply(state, action)
    assert game.is_over(state), f"{game.name} seed={seed}: the replayed game did not end"
    _refuses(game, state, kinds[0], IllegalActionError, trace.players)


def _refuses(game: Game[Any, Any, Any], state: Any, action: Any, error: type[Exception],
             players: int) -> None:
    """``apply`` raises ``error`` for ``action`` and leaves every seat's view as it was."""
    before = [game.observe(state, s) for s in range(players)]
    try:
        game.apply(state, action)
    except error:
        pass
    else:
        raise AssertionError(f"{game.name}: {action!r} was accepted (expected {error.__name__})")
    assert [game.observe(state, s) for s in range(players)] == before, \
        f"{game.name}: a refused action changed the state"
