"""Fast enough to search: samples, copies and playouts per CPU second; OpenSpiel's Hearts as reference.

A search bot (PIMC, IS-MCTS) spends its time drawing full states from its seat's knowledge,
copying them and playing them forward. Per game, from mid-game positions of random matches
(several seeds, the decision halfway through each match), this measures per CPU second:

(a) a copy of the true state and a random playout to the end of the current hand (the deal
    of a game scored over several hands, else the match), through ``Game.clone`` and
    ``Game.step`` as :class:`sdk.search.ForwardModel` calls them (``play``: a legal action,
    not checked again);
(b) samples: ``Knowledge.sample`` from the seat's knowledge, fed the very events the seat
    was sent (games without a sampler say so);
(c) a sample, a copy of it and a random playout to the end of the hand: one determinization
    of a search, the figure comparable with OpenSpiel's;
(d) the reference search bot's rounds (:mod:`bots.search`: a deal sampled, every legal
    action rolled out on it by the game's rollout policy), and the rollouts they hold; a
    decision at the bot's default budget gets a tenth of a second's worth.

The reference, in the same run and in alternating slices: OpenSpiel's Hearts (the
``open-spiel`` wheel, ``pip install -e '.[bench]'``), driven from Python, from positions 70
moves in (the deal, the passing and five cards of play): ``resample_from_infostate`` plus a
random playout to the end of the hand, resamples alone, and ``clone`` plus a playout.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.games import all_games
from arena.games.base import Game, Tagged
from arena.games.sampling import Knowledge, knowledge, samplers
from arena.match.protocol import MatchStart
from benchmarks.common import Row, timed_loop
from bots.search import DEFAULT_BUDGET_S, PLANS, Search
from sdk.search import ForwardModel

SEEDS = 6
OPENSPIEL_MOVES = 70
HAND_ENDS = frozenset({"HandScored", "RoundEnded", "DealEnded"})  # the events that end a deal
TARGET = 0.5  # (c) against OpenSpiel's resample + playout


@dataclass
class Position:
    """A seat's decision halfway through a random match, and what that seat knows of it."""

    state: Any
    seat: int
    observation: Any
    knowledge: Knowledge[Any, Any] | None


def positions(game: Game[Any, Any, Any], players: int, seeds: int) -> list[Position]:
    """The decision halfway through each of ``seeds`` random matches; the seat's knowledge
    (when the game has a sampler) fed every event the seat was sent, as a bot's is."""
    options = game.parse_options(players)
    sampled = game.name in samplers()
    made = []
    for seed in range(seeds):
        length = _decisions(game, players, seed, options)
        state = game.new(players, seed, options)
        policy = random.Random(seed)
        known = [knowledge(game.name, players, s, options) for s in range(players)] if sampled else []

        def send(tagged: list[Tagged], known: list[Knowledge[Any, Any]] = known) -> None:
            for s, seat_knowledge in enumerate(known):
                seat_knowledge.learn([t.event for t in tagged if t.visible(s)])

        send(game.opening_events(state))
        for _ in range(length // 2):
            legal = game.legal_actions(state)
            send(game.apply(state, legal[policy.randrange(len(legal))]))
        seat = game.to_act(state)
        assert seat is not None
        made.append(Position(state, seat, game.observe(state, seat), known[seat] if known else None))
    return made


def _decisions(game: Game[Any, Any, Any], players: int, seed: int, options: Any) -> int:
    state = game.new(players, seed, options)
    policy = random.Random(seed)
    count = 0
    while game.to_act(state) is not None:
        legal = game.legal_actions(state)
        game.apply(state, legal[policy.randrange(len(legal))])
        count += 1
    return count


def playout(game: Game[Any, Any, Any], state: Any, rng: random.Random) -> int:
    """Random legal actions until the current hand (or the match) ends; returns the actions."""
    actions = 0
    # as sdk.search.ForwardModel.play plays a legal action: the game's step, unchecked
    step, legal_actions, to_act = game.step, game.legal_actions, game.to_act
    while to_act(state) is not None:
        legal = legal_actions(state)
        events = step(state, legal[rng.randrange(len(legal))])
        actions += 1
        if any(type(t.event).__name__ in HAND_ENDS for t in events):
            break
    return actions


Slice = Callable[[float], tuple[int, int, float]]


def copies_and_playouts(game: Game[Any, Any, Any], spots: list[Position]) -> Slice:
    """(a): copy a position's true state and play it to the end of the hand."""
    rng = random.Random(1)
    turn = iter(range(1 << 62))

    def one() -> int:
        spot = spots[next(turn) % len(spots)]
        return playout(game, game.clone(spot.state), rng)

    return lambda seconds: timed_loop(one, seconds)


def samples(spots: list[Position]) -> Slice:
    """(b): draw a full state from a position's knowledge."""
    rng = random.Random(2)
    turn = iter(range(1 << 62))

    def one() -> int:
        spot = spots[next(turn) % len(spots)]
        assert spot.knowledge is not None
        spot.knowledge.sample(spot.observation, rng)
        return 0

    return lambda seconds: timed_loop(one, seconds)


def determinizations(game: Game[Any, Any, Any], spots: list[Position]) -> Slice:
    """(c): a sample, a copy of it and a random playout to the end of the hand."""
    rng = random.Random(3)
    turn = iter(range(1 << 62))

    def one() -> int:
        spot = spots[next(turn) % len(spots)]
        assert spot.knowledge is not None
        sample = spot.knowledge.sample(spot.observation, rng)
        return playout(game, game.clone(sample), rng)

    return lambda seconds: timed_loop(one, seconds)


def search_rounds(game: Game[Any, Any, Any], spots: list[Position]) -> Slice:
    """(d): one round of the reference search bot's choice, from a position; returns the
    rollouts it played (one per legal action)."""
    rng = random.Random(5)
    turn = iter(range(1 << 62))
    searches = []
    for spot in spots:
        assert spot.knowledge is not None
        model = ForwardModel(known=(game.name, spot.knowledge))
        match = MatchStart("bench", game.name, game.version, model.seat, model.players, {}, (),
                           0.0, 0.0)
        searches.append((spot, Search.of(model, match), game.legal_actions(spot.state)))

    def one() -> int:
        spot, search, legal = searches[next(turn) % len(searches)]
        search.choose(spot.observation, legal, rng, 0.0, rounds=1)
        return len(legal)

    return lambda seconds: timed_loop(one, seconds)


def openspiel_slices() -> dict[str, Slice] | None:
    """OpenSpiel's Hearts from positions 70 moves in: (resample + playout, resample alone,
    clone + playout) per slice of CPU seconds; ``None`` when the wheel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    hearts = pyspiel.load_game("hearts")
    spots = []
    for seed in range(SEEDS):
        policy = random.Random(seed)
        state = hearts.new_initial_state()
        while state.move_number() < OPENSPIEL_MOVES:
            if state.is_chance_node():
                state.apply_action(policy.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(policy.choice(state.legal_actions()))
        spots.append(state)
    rng = random.Random(4)
    turn = iter(range(1 << 62))

    def play(state: Any) -> int:
        actions = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        return actions

    def resample_and_play() -> int:
        state = spots[next(turn) % len(spots)]
        return play(state.resample_from_infostate(state.current_player(), rng.random))

    def resample() -> int:
        state = spots[next(turn) % len(spots)]
        state.resample_from_infostate(state.current_player(), rng.random)
        return 0

    def clone_and_play() -> int:
        return play(spots[next(turn) % len(spots)].clone())

    def sliced(body: Callable[[], int]) -> Slice:
        return lambda seconds: timed_loop(body, seconds)

    return {"resample+playout": sliced(resample_and_play), "resample": sliced(resample),
            "clone+playout": sliced(clone_and_play)}


Totals = tuple[int, int, float]


def _add(a: Totals, b: Totals) -> Totals:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def run(quick: bool) -> list[Row]:
    seconds = 0.6 if quick else 2.0  # per figure, over the rounds
    rounds = 3
    slice_s = seconds / rounds
    section = "search"
    games = [(game, game.default_players) for game in all_games().values()]
    spots = {game.name: positions(game, players, SEEDS) for game, players in games}
    slices: dict[tuple[str, str], Slice] = {}
    reference = openspiel_slices()
    for name, body in (reference or {}).items():
        slices[("openspiel", name)] = body
    for game, _ in games:
        slices[(game.name, "copy+playout")] = copies_and_playouts(game, spots[game.name])
        if game.name in samplers():
            slices[(game.name, "sample")] = samples(spots[game.name])
            slices[(game.name, "sample+copy+playout")] = determinizations(game, spots[game.name])
            slices[(game.name, "search")] = search_rounds(game, spots[game.name])
    totals: dict[tuple[str, str], Totals] = dict.fromkeys(slices, (0, 0, 0.0))
    for _ in range(rounds):  # every figure in every round: drift in the machine's load hits all
        for key, body in slices.items():
            totals[key] = _add(totals[key], body(slice_s))

    def rate(key: tuple[str, str]) -> float:
        calls, _, elapsed = totals[key]
        return calls / elapsed

    def per_call(key: tuple[str, str]) -> str:
        calls, actions, _ = totals[key]
        return f"{actions / calls:.0f} actions a playout on average"

    rows: list[Row] = []
    ref: dict[str, float] = {}
    if reference is None:
        rows.append(Row(section, "OpenSpiel Hearts", 0.0, "",
                        note="OpenSpiel not installed: pip install -e '.[bench]'"))
    else:
        ref = {name: rate(("openspiel", name)) for name in reference}
        labels = {"resample+playout": "resample_from_infostate + random playout",
                  "resample": "resample_from_infostate alone",
                  "clone+playout": "clone + random playout"}
        for name, label in labels.items():
            rows.append(Row(section, f"OpenSpiel Hearts: {label}", ref[name], "/s CPU",
                            note=f"{OPENSPIEL_MOVES} moves in, {SEEDS} deals"
                                 + (f"; {per_call(('openspiel', name))}" if "playout" in name else "")))
    for game, players in games:
        key = (game.name, "copy+playout")
        value = rate(key)
        clone_ref = ref.get("clone+playout")
        rows.append(Row(section, f"{game.name}: copy + random playout to the hand's end", value,
                        "/s CPU", "OpenSpiel clone + playout" if clone_ref else "", clone_ref,
                        value / clone_ref if clone_ref else None,
                        note=f"{players} players, {SEEDS} matches halfway; {per_call(key)}"))
        if game.name not in samplers():
            rows.append(Row(section, f"{game.name}: samples", 0.0, "", note="no sampler yet"))
            continue
        value = rate((game.name, "sample"))
        resample = ref.get("resample")
        rows.append(Row(section, f"{game.name}: samples", value, "/s CPU",
                        "OpenSpiel resamples" if resample else "", resample,
                        value / resample if resample else None))
        key = (game.name, "sample+copy+playout")
        value = rate(key)
        both = ref.get("resample+playout")
        rows.append(Row(section, f"{game.name}: sample + copy + playout", value, "/s CPU",
                        "OpenSpiel resample + playout" if both else "", both,
                        value / both if both else None, f">= {TARGET}x" if both else "",
                        value / both >= TARGET if both else None, per_call(key)))
        calls, rollouts, elapsed = totals[(game.name, "search")]
        policy = "heuristic" if PLANS[game.name].heuristic else "random"
        rows.append(Row(section, f"{game.name}: search bot rounds", calls / elapsed, "/s CPU",
                        note=f"{rollouts / elapsed:,.0f} {policy} rollouts/s CPU, "
                             f"{rollouts / calls:.1f} actions a decision; "
                             f"{calls / elapsed * DEFAULT_BUDGET_S:.0f} rounds in its default "
                             f"{DEFAULT_BUDGET_S * 1000:.0f} ms"))
    return rows


def _main() -> None:
    started = time.perf_counter()
    for row in run(quick=True):
        print(row)
    print(f"{time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    _main()
