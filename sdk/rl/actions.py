"""A fixed discrete action space per game: every action the game can offer at a table of a
given size, in a fixed order, so that an action is an index and the legal ones a mask.

The catalogue is built from each action type's fields and the values each field can take
(:data:`DOMAINS`): a card field takes every card of the game's deck (in the order of their
codes), an enum field every member, an optional one ``None`` too, a seat every seat, and
the games' other numbers (graves, piles, hand positions) their own ranges. Combinations the
rules never offer stay in the catalogue, never legal: the space is the same at every step.
``tests/sdk/test_rl.py`` plays random games of every game and size and checks that every
legal action met is in it.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from arena.games.base import Game

Domain = Callable[["Table"], Sequence[Any]]


@dataclasses.dataclass(frozen=True)
class Table:
    """What a field's values depend on: the game, the number of seats, the deck."""

    game: Game[Any, Any, Any]
    players: int
    deck: tuple[Any, ...]


def _seats(table: Table) -> Sequence[int]:
    return range(table.players)


def _upto(n: int) -> Domain:
    return lambda _table: range(n)


def _bank_subsets(table: Table) -> Sequence[Any]:
    """Knives' ``Reveal``: none, one or two of the bank's cards, in either order."""
    return [(), *((c,) for c in table.deck), *itertools.permutations(table.deck, 2)]


DOMAINS: Mapping[str, Mapping[str, Domain]] = {
    # By game, then "Type.field" or "field": the values of an int (or tuple) field. Card,
    # suit and enum fields need none: their type says.
    "kill": {"target": _seats, "recipient": _seats, "hand_index": _upto(5),
             "give_index": _upto(5), "keep_index": _upto(5)},
    "serial-killer": {"grave": _upto(6), "target": _seats},
    "king": {"n": _upto(9)},
    "kings-corner": {"pile": _upto(8), "corner": _upto(8), "side": _upto(8), "src": _upto(8),
                     "dst": _upto(8)},
    "knives": {"Reveal.cards": _bank_subsets},
}


def deck_of(game: Game[Any, Any, Any], players: int, options: Mapping[str, Any]) -> tuple[Any, ...]:
    """Every card of the game at this table, in the order of their codes."""
    state = game.new(players, 0, dict(options))
    return tuple(sorted(set(game.cards_in_play(state)), key=lambda card: str(card.code)))


class Catalogue:
    """The actions of ``game`` at a table of ``players``, by index (:attr:`actions`), and
    the index of each (:meth:`index`)."""

    def __init__(self, game: Game[Any, Any, Any], players: int, deck: tuple[Any, ...]) -> None:
        table = Table(game, players, deck)
        domains = DOMAINS.get(game.name, {})
        found: list[Any] = []
        for kind in game.action_types:
            hints = typing.get_type_hints(kind)
            values = [_values(table, domains, kind.__name__, f.name, hints[f.name])
                      for f in dataclasses.fields(kind)]
            found.extend(kind(*combination) for combination in itertools.product(*values))
        self.actions: tuple[Any, ...] = tuple(found)
        self._index = {action: i for i, action in enumerate(self.actions)}
        if len(self._index) != len(self.actions):
            raise ValueError(f"{game.name}: two actions of the catalogue are equal")
        # the games offer the same action objects again and again (one Play per card...):
        # found by identity first, without hashing a dataclass field by field
        self._seen: dict[int, tuple[Any, int]] = {}

    def __len__(self) -> int:
        return len(self.actions)

    def describe(self, index: int) -> str:
        """``action INDEX (the action)``, or what is wrong with the index."""
        if 0 <= index < len(self.actions):
            return f"action {index} ({self.actions[index]!r})"
        return f"action {index} (the space holds 0 to {len(self.actions) - 1})"

    def indices(self, actions: Iterable[Any]) -> list[int]:
        """The index of each of ``actions`` (:meth:`index`, found by identity inline)."""
        seen, index = self._seen, self.index
        found = []
        for action in actions:
            hit = seen.get(id(action))
            found.append(hit[1] if hit is not None and hit[0] is action else index(action))
        return found

    def index(self, action: Any) -> int:
        """The index of ``action``; KeyError for an action the catalogue lacks."""
        hit = self._seen.get(id(action))
        if hit is not None and hit[0] is action:
            return hit[1]
        found = self._index[action]
        if len(self._seen) >= 4 * len(self.actions):  # actions made afresh: forget, bounded
            self._seen.clear()
        self._seen[id(action)] = (action, found)  # held: its id is not reused meanwhile
        return found


def _values(table: Table, domains: Mapping[str, Domain], kind: str, name: str,
            hint: Any) -> Sequence[Any]:
    domain = domains.get(f"{kind}.{name}") or domains.get(name)
    if domain is not None:
        return domain(table)
    return _typed(hint, table.deck, f"{table.game.name}: {kind}.{name}")


def _typed(hint: Any, deck: tuple[Any, ...], where: str) -> Sequence[Any]:
    """The values of a field of type ``hint`` that needs no domain of its own."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(members) != 1:
            raise TypeError(f"{where}: cannot enumerate {hint}")
        return [None, *_typed(members[0], deck, where)]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return list(hint)
    if deck and isinstance(hint, type) and isinstance(deck[0], hint):
        return deck
    if hint is bool:
        return [False, True]
    raise TypeError(f"{where}: no domain for a field of type {hint} (add one to DOMAINS)")


__all__ = ["DOMAINS", "Catalogue", "Table", "deck_of"]
