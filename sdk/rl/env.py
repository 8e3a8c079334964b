"""The games as PettingZoo AEC environments: one agent per seat (``seat_0``, ``seat_1``...),
the referee's own engine (``arena.games``), each seat's observation as the referee builds it
(``Game.observe``) in numbers (:mod:`sdk.rl.encoding`), and a fixed discrete action space
(:mod:`sdk.rl.actions`) whose legal actions are the ``action_mask`` of every observation.

- **Turns**: the seat whose turn it is acts; where a turn is several decisions (draw, then
  discard...), the same agent acts again, as PettingZoo advises for card games.
- **Rewards**: 0 at every step; at the end, from the seat's rank among ``n`` seats,
  ``1 - 2 (rank - 1) / (n - 1)``: 1 for the first, -1 for the last, evenly between (seats
  that tie share a rank, and so a reward). The match's own scores are in ``infos``.
- **Seeding**: ``reset(seed=...)`` deals the same match for the same seed; without a seed
  the environment's generator goes on (random at first).
- **Render**: ``render_mode="human"`` prints, ``"ansi"`` returns, the table as a spectator
  sees it and the view of the seat to act.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.games import get_game
from arena.games.base import Outcome
from sdk.rl import rank_reward
from sdk.rl.spaces import Spaces


def rank_rewards(outcome: Outcome) -> list[float]:
    """Every seat's :func:`rank_reward` at the end of a match."""
    return [rank_reward(rank, len(outcome.ranks)) for rank in outcome.ranks]


class ArenaEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """``game`` (its name) at a table of ``players`` (the game's default when None), with
    ``options`` as ``arena tournament run --option`` takes them (``target_score=11``...)."""

    RENDER_MODES = ("human", "ansi")
    metadata = {"name": "card_arena_v0", "render_modes": list(RENDER_MODES),
                "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self.game = get_game(game)
        self.players = players if players is not None else self.game.default_players
        self.options = dict(self.game.parse_options(
            self.players, {k: str(v).lower() if isinstance(v, bool) else str(v)
                           for k, v in options.items()}))
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(self.RENDER_MODES)}, "
                             f"not {render_mode!r}")
        self.render_mode = render_mode
        self.spaces = Spaces.of(self.game, self.players, self.options)
        self.catalogue, self.encoder = self.spaces.catalogue, self.spaces.encoder
        self.possible_agents = [f"seat_{seat}" for seat in range(self.players)]
        self.agents: list[str] = []
        observed = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (len(self.catalogue),), np.int8)})
        self.observation_spaces = {a: observed for a in self.possible_agents}
        self._actions = len(self.catalogue)
        self.action_spaces = {a: spaces.Discrete(len(self.catalogue))
                              for a in self.possible_agents}
        self._rng = random.Random()
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.state: Any = None
        self._legal_now: list[int] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new(self.players, self._rng.getrandbits(63), dict(self.options))
        self._legal_now = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        seat = self.game.to_act(self.state)
        assert seat is not None, "a match over before its first decision"
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        mask = bytearray(self._actions)  # set a byte at a time, then seen as int8 in place
        if self.game.to_act(self.state) == seat:
            for index in self.legal():
                mask[index] = 1
        return {"observation": self.numbers(seat), "action_mask": np.frombuffer(mask, np.int8)}

    def numbers(self, seat: int) -> np.ndarray:
        """What ``seat`` sees now, as numbers."""
        return self.encoder.encode(self.game.observe(self.state, seat))

    def refusal(self, index: int) -> str | None:
        """Why the action of ``index`` may not be played now (None: it may)."""
        return None if index in self.legal() else f"{self.catalogue.describe(index)} is not " \
            "legal now"

    def legal(self) -> list[int]:
        """The indices of the legal actions now (found once a step)."""
        if self._legal_now is None:
            self._legal_now = self.catalogue.indices(self.game.legal_actions(self.state))
        return self._legal_now

    def play(self, action: Any) -> None:
        """Apply ``action`` (legal: checked by the caller) to the match, past PettingZoo's
        bookkeeping (:mod:`sdk.rl.selfplay` steps matches this way). The game's rules
        (``Game.step``) without ``Game.apply``'s checks: the caller found the action among the
        legal ones."""
        self.game.step(self.state, action)
        self._legal_now = None

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is an action only once it is done")
        index = int(action)
        if (refused := self.refusal(index)) is not None:
            raise ValueError(f"{agent}: {refused}")
        self._cumulative_rewards[agent] = 0.0
        self.play(self.catalogue.actions[index])
        outcome = self.game.outcome(self.state)
        if outcome is None:
            seat = self.game.to_act(self.state)
            assert seat is not None
            self.agent_selection = self.possible_agents[seat]
        else:
            for seat, (agent_of, reward) in enumerate(zip(self.possible_agents,
                                                          rank_rewards(outcome), strict=True)):
                self.rewards[agent_of] = reward
                self.terminations[agent_of] = True
                self.infos[agent_of] = {"rank": outcome.ranks[seat],
                                        "score": outcome.scores[seat]}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.game.to_act(self.state)
        lines = [f"{self.game.name}: the table"]
        lines += _fields(self.game.spectate(self.state))
        if seat is not None:
            lines.append(f"seat {seat} to act sees")
            lines += _fields(self.game.observe(self.state, seat))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _fields(record: Any) -> list[str]:
    return [f"  {f.name}: {_shown(getattr(record, f.name))}"
            for f in dataclasses.fields(record)]


def _shown(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + " ".join(_shown(v) for v in value) + ")"
    if hasattr(value, "code"):
        return str(value.code)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__ + "(" + ", ".join(
            f"{f.name}={_shown(getattr(value, f.name))}" for f in dataclasses.fields(value)) + ")"
    return str(value)


__all__ = ["ArenaEnv", "rank_reward", "rank_rewards"]
