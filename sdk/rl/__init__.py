"""Reinforcement learning on the arena's games: PettingZoo AEC environments over the
referee's own engine (``pip install -e '.[rl]'``: pettingzoo and numpy)::

    from sdk import rl

    env = rl.env("kill", target_score=11)      # any game, its options as keywords
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)

See :mod:`sdk.rl.env` (turns, rewards, seeding), :mod:`sdk.rl.encoding` (the numbers of an
observation) and :mod:`sdk.rl.actions` (the action space); ``docs/rl.md`` gives each game's
layout.
"""

from __future__ import annotations

from typing import Any

try:
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as missing:
    raise ImportError(f"sdk.rl needs the rl extra: pip install -e '.[rl]' "
                      f"(pettingzoo and numpy; {missing})") from None

from sdk.rl.env import ArenaEnv, rank_reward


def env(game: str, players: int | None = None, render_mode: str | None = None,
        **options: Any) -> ArenaEnv:
    """The AEC environment of ``game`` (its arena name: ``kill``, ``king``...)."""
    return ArenaEnv(game, players, render_mode, **options)


__all__ = ["ArenaEnv", "env", "rank_reward"]
