"""(1) Engine speed: random play in process, no referee, no transport; RLCard Bridge as reference."""

from __future__ import annotations

import random
import time
from typing import Any

from arena.games import get_game
from benchmarks.common import Row, timed_loop


def _random_matches(game_name: str, players: int, seconds: float, *,
                    observe: bool) -> tuple[int, int, float]:
    """Complete random matches for ``seconds``: (matches, decisions, elapsed)."""
    game = get_game(game_name)
    options = game.parse_options(players)
    policy = random.Random(1)
    seeds = iter(range(1_000_000_000))

    def one() -> int:
        state = game.new(players, next(seeds), options)
        decisions = 0
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state)
            if observe:
                game.observe(state, seat)
            game.apply(state, policy.choice(legal))
            decisions += 1
        return decisions

    return timed_loop(one, seconds)


def king_hands_per_match() -> int:
    game = get_game("king")
    options = game.parse_options(4)
    state: Any = game.new(4, 0, options)
    return len(state.hand_kinds)


def rlcard_bridge(seconds: float) -> tuple[int, int, float]:
    """RLCard's Bridge environment with four random agents: (games, decisions, elapsed)."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("bridge", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def one() -> int:
        trajectories, _ = env.run(is_training=False)
        return sum(len(t) // 2 for t in trajectories)  # state, action, state, ... per player

    return timed_loop(one, seconds)


def _add(a: tuple[int, int, float], b: tuple[int, int, float]) -> tuple[int, int, float]:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def run(quick: bool) -> list[Row]:
    seconds = 2.0 if quick else 8.0
    rounds = 4
    slice_s = seconds / rounds
    rows: list[Row] = []
    # reference and subject in alternating slices, so drift in the machine's load hits both
    bridge = king = king_obs = (0, 0, 0.0)
    for _ in range(rounds):
        bridge = _add(bridge, rlcard_bridge(slice_s))
        king = _add(king, _random_matches("king", 4, slice_s, observe=False))
        king_obs = _add(king_obs, _random_matches("king", 4, slice_s / 2, observe=True))
    bridge_gps = bridge[0] / bridge[2]
    hands = king_hands_per_match()
    ref = "RLCard Bridge games/s"
    rows.append(Row("1 engine", "RLCard Bridge (random agents) games/s", bridge_gps, "games/s",
                    note=f"{bridge[1] / bridge[2]:,.0f} decisions/s incl. bidding; "
                         "env.run builds observations"))
    for label, (m, _, e), note in (
            ("King hands/s (random play)", king,
             f"{hands} hands/match; to_act/legal_actions/apply only"),
            ("King hands/s, observe() every decision", king_obs,
             "as RLCard, which builds a state at every step")):
        hps = m * hands / e
        rows.append(Row("1 engine", label, hps, "hands/s", ref, bridge_gps, hps / bridge_gps,
                        ">= 3x", hps / bridge_gps >= 3, note))
    results = {"king": king}
    for name, players in (("kill", 4), ("face-card-kill-card", 4), ("serial-killer", 4),
                          ("kings-corner", 4), ("knives", 5)):
        results[name] = _random_matches(name, players, seconds / 8, observe=False)
    for name, (m, d, e) in results.items():
        rows.append(Row("1 engine", f"{name}: matches/s", m / e, "matches/s",
                        note=f"{d / e:,.0f} decisions/s, {d / max(m, 1):,.0f} decisions/match"))
    return rows


if __name__ == "__main__":
    started = time.perf_counter()
    for row in run(quick=True):
        print(row)
    print(f"{time.perf_counter() - started:.1f} s")
