"""Scripted deals for the games' tests: a match whose shuffles give the decks a test wants.

A game draws all its randomness from the :class:`~arena.games.base.Rng` its ``start`` is
given; here that is a :class:`StackedRng`, which hands out prepared decks and numbers
instead, so a test can set up any position by ordinary play from a known deal. Only tests
need this, so it lives with them, not in the games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from arena.games.base import Game, Options, Rng

State = TypeVar("State")


class StackedRng(Rng):
    """An :class:`Rng` for scripted games: each shuffle yields the next given order.

    ``orders`` are the decks as the test wants them after each shuffle, in the
    order the game shuffles; each must hold exactly the cards being shuffled.
    ``numbers`` answer :meth:`below` in turn (0 once they run out).
    """

    def __init__(self, orders: Sequence[Sequence[Any]], numbers: Sequence[int] = ()) -> None:
        super().__init__(0)
        self._orders = [list(o) for o in orders]
        self._numbers = list(numbers)

    def shuffle(self, items: list[Any]) -> None:
        if not self._orders:
            raise AssertionError("the scripted game shuffled more often than it stacked decks")
        order = self._orders.pop(0)
        if sorted(order) != sorted(items):
            raise AssertionError("a stacked deck must hold exactly the cards being shuffled")
        items[:] = order

    def below(self, n: int) -> int:
        value = self._numbers.pop(0) if self._numbers else 0
        if not 0 <= value < n:
            raise AssertionError(f"stacked number {value} is not below {n}")
        return value


def new_stacked(game: Game[State, Any, Any], players: int, orders: Sequence[Sequence[Any]],
                options: Options | None = None, numbers: Sequence[int] = ()) -> State:
    """A match of ``game`` whose shuffles give ``orders`` (see :class:`StackedRng`)."""
    return game.start(players, StackedRng(orders, numbers), game.parse_options(players, options))
