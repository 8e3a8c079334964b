"""A seat's observation as a vector of numbers, of one fixed length per game and table size,
built from the structured observation the referee sends (``Game.observe``), field by field:

- a number: itself; a yes/no: 1 or 0;
- a card: one slot per card of the deck (the cards in the order of their codes), 1 for it;
- an enum: one slot per member, 1 for it;
- something that may be absent: a slot (1: present), then its own slots (zeros when absent);
- a tuple of cards (a hand, a trick, a pile): one slot per card of the deck, 1 for each card
  in it, then how many it holds;
- any other tuple (one value per seat, a history of tricks or calls): :func:`length` items,
  each in its own slots, then how many there are (a history longer than that keeps its last
  items, which the layout says);
- a record inside (a trick, a call, a result): its fields in turn.

:func:`layout` lists the slots with their offsets: ``docs/rl.md`` prints it per game.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from arena.games.base import Game

Write = Callable[[Any, list[float]], None]

LENGTHS: Mapping[str, Mapping[str, int]] = {
    # By game, the items kept of a tuple that is not one value per seat (default: seats).
    "kill": {"previous_rounds": 4},
    "serial-killer": {"graves": 6, "targets": 6, "arrest_order": 8},
    "king": {"first_dealer_draw": 4, "calls": 12, "tricks": 13, "results": 10,
             "Trick.seats": 4, "trick_seats": 4},
    "kings-corner": {"piles": 8},
    "knives": {"calls": 10, "tricks": 6},
}


@dataclasses.dataclass(frozen=True)
class Slot:
    """``width`` numbers from ``offset``: what they hold."""

    offset: int
    width: int
    name: str
    meaning: str


class Encoder:
    """Observations of ``game`` at a table of ``players`` as vectors of :attr:`size` numbers."""

    def __init__(self, game: Game[Any, Any, Any], players: int, deck: tuple[Any, ...]) -> None:
        self.game, self.players, self.deck = game, players, deck
        self._card = {card: i for i, card in enumerate(deck)}
        self._lengths = LENGTHS.get(game.name, {})
        self.slots: list[Slot] = []
        self._write = self._record(game.observation_type, "")
        self.size = sum(s.width for s in self.slots)

    def encode(self, observation: Any) -> list[float]:
        out: list[float] = []
        self._write(observation, out)
        return out

    # -- building the writers, and the slots they fill, once

    def _slot(self, name: str, width: int, meaning: str) -> None:
        offset = sum(s.width for s in self.slots)
        self.slots.append(Slot(offset, width, name, meaning))

    def _record(self, kind: type, prefix: str) -> Write:
        hints = typing.get_type_hints(kind)
        writers = [(f.name, self._field(hints[f.name], f"{prefix}{f.name}", kind.__name__))
                   for f in dataclasses.fields(kind)]

        def write(value: Any, out: list[float]) -> None:
            for name, field in writers:
                field(getattr(value, name), out)
        return write

    def _field(self, hint: Any, name: str, owner: str) -> Write:
        if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
            (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
            self._slot(name + "?", 1, "1 if present")
            before = len(self.slots)
            present = self._field(inner, name, owner)
            return _optional(present, sum(s.width for s in self.slots[before:]))
        if hint is bool or hint is int:
            self._slot(name, 1, "yes 1, no 0" if hint is bool else "the number")
            return _number
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            members = list(hint)
            self._slot(name, len(members), "one of " + ", ".join(m.name.lower() for m in members))
            index = {m: i for i, m in enumerate(members)}
            return _one_hot(index, len(members))
        if isinstance(hint, type) and self.deck and isinstance(self.deck[0], hint):
            self._slot(name, len(self.deck), "the card")
            return _one_hot(self._card, len(self.deck))
        if typing.get_origin(hint) is tuple:
            item = typing.get_args(hint)[0]
            if isinstance(item, type) and self.deck and isinstance(self.deck[0], item):
                self._slot(name, len(self.deck), "1 for each card in it")
                self._slot(f"{name}#", 1, "how many cards")
                return _cards(self._card, len(self.deck))
            kept = self._lengths.get(f"{owner}.{name.rsplit('.', 1)[-1]}",
                                     self._lengths.get(name.rsplit(".", 1)[-1], self.players))
            before = len(self.slots)
            one = self._field(item, f"{name}[i]", owner)
            width = sum(s.width for s in self.slots[before:])
            del self.slots[before:]
            for i in range(kept):
                self._field(item, f"{name}[{i}]", owner)
            self._slot(f"{name}#", 1, f"how many (at most {kept} kept: the last)")
            return _items(one, width, kept)
        if dataclasses.is_dataclass(hint):
            return self._record(typing.cast(type, hint), f"{name}.")
        raise TypeError(f"{self.game.name}: cannot encode {name} of type {hint}")

    def layout(self) -> list[Slot]:
        return list(self.slots)


def _number(value: Any, out: list[float]) -> None:
    out.append(float(value))


def _one_hot(index: Mapping[Any, int], width: int) -> Write:
    def write(value: Any, out: list[float]) -> None:
        row = [0.0] * width
        row[index[value]] = 1.0
        out.extend(row)
    return write


def _cards(index: Mapping[Any, int], width: int) -> Write:
    def write(value: Any, out: list[float]) -> None:
        row = [0.0] * width
        for card in value:
            row[index[card]] = 1.0
        out.extend(row)
        out.append(float(len(value)))
    return write


def _optional(present: Write, width: int) -> Write:
    def write(value: Any, out: list[float]) -> None:
        if value is None:
            out.extend([0.0] * (width + 1))
        else:
            out.append(1.0)
            present(value, out)
    return write


def _items(one: Write, width: int, kept: int) -> Write:
    def write(value: Any, out: list[float]) -> None:
        shown = value[-kept:] if len(value) > kept else value
        for item in shown:
            one(item, out)
        out.extend([0.0] * (width * (kept - len(shown))))
        out.append(float(len(value)))
    return write


__all__ = ["LENGTHS", "Encoder", "Slot"]
