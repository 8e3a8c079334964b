"""The games as reinforcement-learning environments (:mod:`sdk.rl`): steps per CPU second.

Per game, a random agent plays every seat through PettingZoo's AEC loop (``env.last()``, an
action drawn from the mask with :mod:`random` as the Bridge loop draws, ``env.step``),
matches dealt again as they end; and the same through :class:`sdk.rl.selfplay.SelfPlay`, 64
matches at once. The references, in the same run and the same loop: RLCard's Bridge
environment (the engine reference of section 1; ``env.step`` builds the next seat's state),
and PettingZoo's own classic card environments built on RLCard (Leduc and Texas Hold'em, Gin
Rummy), which need ``pygame`` as well as ``rlcard`` (``pip install -e '.[bench]'``; without
them the rows say so). Reference and subject in alternating slices, so that a drift in the
machine's load hits both.
"""

from __future__ import annotations

import functools
import importlib
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from arena.games import all_games
from benchmarks.common import Row

ROUNDS = 3
TARGET = 1.0  # King and Knives: at least RLCard Bridge's steps per second
CLASSIC = ("leduc_holdem_v4", "texas_holdem_v4", "gin_rummy_v4")


def _aec_steps(make: Callable[[], Any], seconds: float) -> tuple[int, float]:
    """Steps of a PettingZoo AEC environment ``make`` builds, random masked actions, for
    ``seconds`` of this process's CPU time: (steps, seconds)."""
    env = make()  # any PettingZoo AEC environment (pettingzoo ships no types)
    env.reset(seed=1)
    moves = random.Random(1)  # as the Bridge loop draws (numpy's Generator.choice: 7 us a draw)
    steps, began = 0, time.process_time()
    while time.process_time() - began < seconds:
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        env.step(int(moves.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return steps, time.process_time() - began


def _selfplay_steps(game: str, seconds: float) -> tuple[int, float]:
    from sdk.rl.selfplay import SelfPlay

    games = SelfPlay(game, 64, seed=1)
    moves = random.Random(1)
    steps, began = 0, time.process_time()
    while time.process_time() - began < seconds:
        batch = games.observe()
        games.step([int(moves.choice(np.flatnonzero(mask))) for mask in batch.masks])
        steps += len(batch.masks)
    return steps, time.process_time() - began


def _bridge_steps(seconds: float) -> tuple[int, float]:
    """RLCard's Bridge environment, random legal actions: (steps, seconds)."""
    import rlcard

    env = rlcard.make("bridge", config={"seed": 1})
    moves = random.Random(1)
    steps, began = 0, time.process_time()
    while time.process_time() - began < seconds:
        state, _ = env.reset()
        while not env.is_over() and time.process_time() - began < seconds:
            state, _ = env.step(moves.choice(list(state["legal_actions"])))
            steps += 1
    return steps, time.process_time() - began


def _classic(name: str) -> Callable[[], Any] | None:
    try:
        module = importlib.import_module(f"pettingzoo.classic.{name}")
    except ImportError:
        return None
    return module.env  # type: ignore[no-any-return]


def _add(a: tuple[int, float], b: tuple[int, float]) -> tuple[int, float]:
    return a[0] + b[0], a[1] + b[1]


def run(quick: bool) -> list[Row]:
    from sdk import rl

    seconds = 0.5 if quick else 2.0
    try:
        importlib.import_module("rlcard")
        bridge: tuple[int, float] | None = (0, 0.0)
    except ImportError:
        bridge = None
    games = list(all_games())
    ours = {name: (0, 0.0) for name in games}
    batched = {name: (0, 0.0) for name in games}
    for _ in range(ROUNDS):
        if bridge is not None:
            bridge = _add(bridge, _bridge_steps(seconds))
        for name in games:
            ours[name] = _add(ours[name], _aec_steps(functools.partial(rl.env, name), seconds))
            batched[name] = _add(batched[name], _selfplay_steps(name, seconds / 2))
    rows: list[Row] = []
    reference = bridge[0] / bridge[1] if bridge is not None else None
    rows.append(Row("rl", "RLCard Bridge env, steps/s", reference or 0.0, "steps/s",
                    note="random legal actions; env.step builds the next seat's state"
                    if reference else "rlcard not installed: pip install -e '.[bench]'"))
    for name in CLASSIC:
        make = _classic(name)
        if make is None:
            rows.append(Row("rl", f"PettingZoo {name}, steps/s", 0.0, "steps/s",
                            note="not installed: it needs rlcard and pygame"))
            continue
        done = (0, 0.0)
        for _ in range(ROUNDS):
            done = _add(done, _aec_steps(make, seconds))
        rows.append(Row("rl", f"PettingZoo {name}, steps/s", done[0] / done[1], "steps/s",
                        note="the same AEC loop as ours"))
    for name in games:
        rate = ours[name][0] / ours[name][1]
        aimed = name in ("king", "knives") and reference is not None
        rows.append(Row("rl", f"{name}: env steps/s (AEC loop)", rate, "steps/s",
                        "RLCard Bridge env" if reference else "", reference,
                        rate / reference if reference else None,
                        f">= {TARGET:g}x" if aimed else "",
                        rate / reference >= TARGET if aimed and reference else None,
                        "env.last(), a masked random action, env.step"))
        together = batched[name][0] / batched[name][1]
        rows.append(Row("rl", f"{name}: SelfPlay steps/s (64 matches)", together, "steps/s",
                        f"{name} AEC loop", rate, together / rate,
                        note="sdk.rl.selfplay: the seats to act of 64 matches in arrays"))
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
