"""Samplers of what a seat cannot see, one module per game, found by game name.

A module here, named as its game's module, defines ``KNOWLEDGE``, a subclass of
:class:`arena.games.sampling.base.Knowledge` for its game. :func:`knowledge` makes one
for a seat of a match; the SDK's forward model (:mod:`sdk.search`) is built on it.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from functools import cache
from typing import Any

from arena.errors import ErrorKind
from arena.games import GAME_MODULES, all_games, get_game, module_name
from arena.games.base import OptionError, OptionValue
from arena.games.sampling.base import Knowledge, future_rng
from arena.games.sampling.deals import GroupedDeal, deal_uniform


def knowledge(game: str, players: int, seat: int,
              options: Mapping[str, OptionValue] | None = None) -> Knowledge[Any, Any]:
    """A fresh :class:`Knowledge` of ``seat`` in a match of ``game`` (options parsed here)."""
    rules = get_game(game)
    parsed = rules.parse_options(players, options)
    name = module_name(rules)
    if name not in _written():
        raise OptionError(f"{game} has no sampler yet", kind=ErrorKind.NOT_FOUND)
    module = importlib.import_module(f"arena.games.sampling.{name}")
    made: Knowledge[Any, Any] = module.KNOWLEDGE(players, seat, parsed)
    return made


def samplers() -> tuple[str, ...]:
    """The names of the games that have a sampler, in the registry's order."""
    return tuple(game.name for game in all_games().values() if module_name(game) in _written())


@cache
def _written() -> frozenset[str]:
    """The game modules with a sampler module of the same name here."""
    return frozenset(name for name in GAME_MODULES
                     if importlib.util.find_spec(f"arena.games.sampling.{name}") is not None)


__all__ = ["GroupedDeal", "Knowledge", "deal_uniform", "future_rng", "knowledge", "samplers"]
