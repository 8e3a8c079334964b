"""Reinforcement learning on the arena's games: PettingZoo AEC environments over the
referee's own engine (``pip install -e '.[rl]'``: pettingzoo, numpy and pyarrow)::

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
layout. The encoding and the action space need numpy only: a trained bot uses them to see
as its environment did, without PettingZoo.
"""

from __future__ import annotations

from typing import Any

try:
    import numpy  # noqa: F401
except ImportError as missing:
    raise ImportError(f"sdk.rl needs the rl extra: pip install -e '.[rl]' "
                      f"(pettingzoo and numpy; {missing})") from None


def rank_reward(rank: int, players: int) -> float:
    """A seat's reward at the end of a match: 1 for the first, -1 for the last, evenly
    between."""
    return 1.0 - 2.0 * (rank - 1) / (players - 1)


try:
    import pettingzoo  # noqa: F401
except ImportError as missing:
    _WITHOUT_ENVIRONMENTS: str | None = (
        f"sdk.rl's environments need the rl extra: pip install -e '.[rl]' (pettingzoo and "
        f"numpy; {missing})")
else:
    _WITHOUT_ENVIRONMENTS = None
    # imported here, before ``env`` below is defined: the function, not the module
    # sdk.rl.env, is this package's ``env``
    from sdk.rl.env import ArenaEnv


def env(game: str, players: int | None = None, render_mode: str | None = None,
        **options: Any) -> ArenaEnv:
    """The AEC environment of ``game`` (its arena name: ``kill``, ``king``...)."""
    if _WITHOUT_ENVIRONMENTS is not None:
        raise ImportError(_WITHOUT_ENVIRONMENTS)
    return ArenaEnv(game, players, render_mode, **options)


__all__ = ["ArenaEnv", "env", "rank_reward"]
