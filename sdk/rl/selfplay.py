"""Self-play: ``n`` matches of one game in this process, stepped together, one policy playing
every seat, in arrays a learner takes as they are::

    from sdk.rl.selfplay import SelfPlay

    games = SelfPlay("king", 64, seed=1)
    for _ in range(10_000):
        batch = games.observe()                     # the seat to act in each match
        actions = my_policy(batch.observations, batch.masks)
        ended = games.step(actions)                 # rank rewards of the matches that ended
        # each match that ended is dealt again at once: n matches are always under way

A match is an :class:`~sdk.rl.env.ArenaEnv` (the same observations, masks and rewards);
``SelfPlay`` skips PettingZoo's agent loop, which a batch does not need.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

from sdk.rl.env import ArenaEnv, rank_rewards


@dataclasses.dataclass(frozen=True)
class Batch:
    """The decision each match waits for: ``observations`` (n, size) of the seats to act,
    ``masks`` (n, actions) of their legal actions, ``seats`` (n,) which seat acts."""

    observations: np.ndarray
    masks: np.ndarray
    seats: np.ndarray


@dataclasses.dataclass(frozen=True)
class Ended:
    """The matches a step ended (their indices), with every seat's reward (len, players)."""

    matches: np.ndarray
    rewards: np.ndarray


class SelfPlay:
    """``n`` matches of ``game`` (options as keywords, as :func:`sdk.rl.env` takes them),
    dealt from ``seed``."""

    def __init__(self, game: str, n: int, players: int | None = None, seed: int | None = None,
                 **options: Any) -> None:
        if n < 1:
            raise ValueError(f"self-play needs at least one match, not {n}")
        deals = random.Random(seed)
        self.envs = [ArenaEnv(game, players, **options) for _ in range(n)]
        for env in self.envs:
            env.reset(seed=deals.getrandbits(63))
        first = self.envs[0]
        self.game, self.players = first.game, first.players
        self.size, self.actions = first.encoder.size, len(first.catalogue)
        self.played = 0  # matches ended so far

    def observe(self) -> Batch:
        observations = np.zeros((len(self.envs), self.size), np.float32)
        masks = np.zeros((len(self.envs), self.actions), np.int8)
        seats = np.zeros(len(self.envs), np.int64)
        for i, env in enumerate(self.envs):
            seat = self.game.to_act(env.state)
            assert seat is not None  # a match that ends is dealt again at once
            seats[i] = seat
            observations[i] = env.numbers(seat)
            masks[i, env.legal()] = 1
        return Batch(observations, masks, seats)

    def step(self, actions: np.ndarray | list[int]) -> Ended:
        """Play one action in each match (an index of the action space, legal there; one
        that is not is a ValueError, and no match changes); the matches that ended are dealt
        again."""
        if len(actions) != len(self.envs):
            raise ValueError(f"{len(actions)} actions for {len(self.envs)} matches")
        chosen = [int(action) for action in actions]
        for i, (env, index) in enumerate(zip(self.envs, chosen, strict=True)):
            if (refused := env.refusal(index)) is not None:  # all first: a refused step
                raise ValueError(f"match {i}: {refused}")  # changes nothing
        ended: list[int] = []
        rewards: list[list[float]] = []
        for i, (env, index) in enumerate(zip(self.envs, chosen, strict=True)):
            env.play(env.catalogue.actions[index])
            outcome = self.game.outcome(env.state)
            if outcome is not None:
                ended.append(i)
                rewards.append(rank_rewards(outcome))
                env.reset()
                self.played += 1
        return Ended(np.asarray(ended, np.int64),
                     np.asarray(rewards, np.float32).reshape(len(ended), self.players))


__all__ = ["Batch", "Ended", "SelfPlay"]
