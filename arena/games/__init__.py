"""Game engines: pure rules, one module per game, found by name.

A game module defines ``GAME``, an instance of :class:`arena.games.base.Game`.
The registry below imports the modules listed in ``GAME_MODULES``; nothing else
in the arena names a game.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from typing import Any

from arena.errors import ErrorKind
from arena.games.base import Game, GameError, OptionError

GAME_MODULES = (
    "face_card_kill_card",
    "kill",
    "serial_killer",
    "king",
    "kings_corner",
    "knives",
)


@cache
def _load(module: str) -> Game[Any, Any, Any]:
    game: Game[Any, Any, Any] = importlib.import_module(f"arena.games.{module}").GAME
    return game


@cache
def all_games() -> dict[str, Game[Any, Any, Any]]:
    """Every game by name, in a fixed order."""
    return {game.name: game for game in map(_load, GAME_MODULES)}


def get_game(name: str) -> Game[Any, Any, Any]:
    """The game called ``name``; an :class:`OptionError` naming the known games otherwise.

    Only that game's module is imported: a bot's process, which plays one game, is spared
    the others' (a game's module is named after it, ``-`` as ``_``)."""
    module = _module_of(name)
    if module in GAME_MODULES and (game := _load(module)).name == name:
        return game
    games = all_games()
    if name not in games:
        known = ", ".join(games)
        raise OptionError(f"unknown game {name!r} (known games: {known})", kind=ErrorKind.NOT_FOUND)
    return games[name]


def module_name(game: Game[Any, Any, Any]) -> str:
    """The Python/protobuf identifier of a game: its name with '-' as '_'."""
    return _module_of(game.name)


def _module_of(name: str) -> str:
    return name.replace("-", "_")


def pool_of(game: str, options: Mapping[str, object]) -> str:
    """The rating pool of a match of ``game`` with these options (:meth:`Game.pool`); the
    name alone for a game this arena does not know (a record from elsewhere)."""
    known = all_games().get(game)
    return known.pool(options) if known is not None else game


def base_game(pool: str) -> str:
    """The game of a rating pool: ``kill`` for ``kill`` and ``kill[target_score=11]``."""
    return pool.partition("[")[0]


__all__ = ["Game", "GameError", "OptionError", "all_games", "base_game", "get_game", "module_name",
           "pool_of"]
