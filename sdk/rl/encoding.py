"""A seat's observation as a vector of numbers, of one fixed length per game and table size,
built from the structured observation the referee sends (``Game.observe``), field by field:

- a number: itself; a yes/no: 1 or 0;
- a card: one slot per card of the deck (the cards in the order of their codes), 1 for it;
- an enum: one slot per member, 1 for it;
- something that may be absent: a slot (1: present), then its own slots (zeros when absent);
- a tuple of cards (a hand, a trick, a pile): one slot per card of the deck, 1 for each card
  in it, then how many it holds;
- any other tuple (one value per seat, a history of tricks or calls): as many items as
  :data:`LENGTHS` keeps (by default one per seat), each in its own slots, then how many
  there are (a history longer than that keeps its last items, which the layout says);
- a record inside (a trick, a call, a result): its fields in turn.

:attr:`Encoder.slots` lists the slots with their offsets: ``docs/rl.md`` prints them per game
(:mod:`sdk.rl.layout`).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from arena.games.base import Game
from arena.games.tricks import PerCard

Write = Callable[[Any, list[int], list[float], int], None]
"""A field's writer: its value, the positions and numbers written so far (only the numbers
that are not 0: the vector is filled from them at once), where the field starts."""

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
        # a card's place in the deck: by identity (the deck's own objects, where a game keeps
        # one deck for all its matches), else by value (a game that deals new cards)
        self._card = PerCard(deck, {card: i for i, card in enumerate(deck)}.__getitem__)
        self._lengths = LENGTHS.get(game.name, {})
        self.slots: list[Slot] = []
        self._write = self._record(game.observation_type, "")
        self.size = sum(s.width for s in self.slots)

    def encode(self, observation: Any) -> np.ndarray:
        """The observation's numbers (float32)."""
        positions: list[int] = []
        numbers: list[float] = []
        self._write(observation, positions, numbers, 0)
        vector = np.zeros(self.size, np.float32)
        vector[positions] = numbers
        return vector

    # -- building the writers, and the slots they fill, once

    def _slot(self, name: str, width: int, meaning: str) -> None:
        offset = sum(s.width for s in self.slots)
        self.slots.append(Slot(offset, width, name, meaning))

    def _record(self, kind: type, prefix: str) -> Write:
        hints = typing.get_type_hints(kind)
        start = self._end()
        writers = []
        for f in dataclasses.fields(kind):
            at = self._end() - start
            writers.append((f.name, at, self._field(hints[f.name], f"{prefix}{f.name}",
                                                    kind.__name__)))

        def write(value: Any, positions: list[int], numbers: list[float], base: int) -> None:
            for name, at, field in writers:
                field(getattr(value, name), positions, numbers, base + at)
        return write

    def _end(self) -> int:
        return self.slots[-1].offset + self.slots[-1].width if self.slots else 0

    def _field(self, hint: Any, name: str, owner: str) -> Write:
        if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
            (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
            self._slot(name + "?", 1, "1 if present")
            return _optional(self._field(inner, name, owner))
        if hint is bool or hint is int:
            self._slot(name, 1, "yes 1, no 0" if hint is bool else "the number")
            return _number
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            members = list(hint)
            self._slot(name, len(members), "one of " + ", ".join(m.name.lower() for m in members))
            return _one_hot(PerCard(members, {m: i for i, m in enumerate(members)}.__getitem__))
        if isinstance(hint, type) and self.deck and isinstance(self.deck[0], hint):
            self._slot(name, len(self.deck), "the card")
            return _one_hot(self._card)
        if typing.get_origin(hint) is tuple:
            item = typing.get_args(hint)[0]
            if isinstance(item, type) and self.deck and isinstance(self.deck[0], item):
                self._slot(name, len(self.deck), "1 for each card in it")
                self._slot(f"{name}#", 1, "how many cards")
                return _last(_cards(self._card, len(self.deck)))
            kept = self._lengths.get(f"{owner}.{name.rsplit('.', 1)[-1]}",
                                     self._lengths.get(name.rsplit(".", 1)[-1], self.players))
            if item is int or item is bool:  # one number each: written in one go
                for i in range(kept):
                    self._slot(f"{name}[{i}]", 1, "yes 1, no 0" if item is bool else "the number")
                self._slot(f"{name}#", 1, f"how many (at most {kept} kept: the last)")
                return _scalars(kept)
            before = len(self.slots)
            one = self._field(item, f"{name}[i]", owner)
            width = sum(s.width for s in self.slots[before:])
            del self.slots[before:]
            for i in range(kept):
                self._field(item, f"{name}[{i}]", owner)
            self._slot(f"{name}#", 1, f"how many (at most {kept} kept: the last)")
            frozen = dataclasses.is_dataclass(item) or typing.get_origin(item) is tuple
            return _last(_items(one, width, kept, remember=frozen))
        if dataclasses.is_dataclass(hint):
            return self._record(typing.cast(type, hint), f"{name}.")
        raise TypeError(f"{self.game.name}: cannot encode {name} of type {hint}")


def _number(value: Any, positions: list[int], numbers: list[float], at: int) -> None:
    if value:
        positions.append(at)
        numbers.append(float(value))


def _one_hot(place: Callable[[Any], int]) -> Write:
    def write(value: Any, positions: list[int], numbers: list[float], at: int) -> None:
        positions.append(at + place(value))
        numbers.append(1.0)
    return write


def _cards(place: Callable[[Any], int], width: int) -> Write:
    def write(value: Any, positions: list[int], numbers: list[float], at: int) -> None:
        if value:
            positions.extend([at + place(card) for card in value])
            numbers.extend([1.0] * len(value))
            positions.append(at + width)
            numbers.append(float(len(value)))
    return write


def _optional(present: Write) -> Write:
    def write(value: Any, positions: list[int], numbers: list[float], at: int) -> None:
        if value is not None:
            positions.append(at)
            numbers.append(1.0)
            present(value, positions, numbers, at + 1)
    return write


def _scalars(kept: int) -> Write:
    def write(value: Any, positions: list[int], numbers: list[float], at: int) -> None:
        shown = value[-kept:] if len(value) > kept else value
        for i, number in enumerate(shown):
            if number:
                positions.append(at + i)
                numbers.append(float(number))
        if value:
            positions.append(at + kept)
            numbers.append(float(len(value)))
    return write


def _last(write: Write) -> Write:
    """``write`` for a tuple, remembering the numbers of the last one it wrote (and where):
    a game hands on the same tuple step after step until it changes (a history of tricks,
    shared by every seat's view), and a tuple never changes. One tuple only, so that nothing
    grows for the garbage collector to walk."""
    last: list[Any] = [None, -1, [], []]  # the tuple, where, its positions, its numbers

    def remembered(value: Any, positions: list[int], numbers: list[float], at: int) -> None:
        if value is not last[0] or at != last[1]:
            mine: list[int] = []
            values: list[float] = []
            write(value, mine, values, at)
            last[:] = [value, at, mine, values]
        positions.extend(last[2])
        numbers.extend(last[3])
    return remembered


REMEMBERED = 4096
"""Items of a history remembered per tuple (a history repeats its items step after step)."""


def _items(one: Write, width: int, kept: int, *, remember: bool) -> Write:
    """The items of a tuple, each with ``one``; ``remember``: the items are frozen records or
    tuples (a trick, a call, a seat's cards), whose numbers are remembered by identity,
    holding the item (so that its id is not reused meanwhile)."""
    seen: dict[int, tuple[Any, list[int], list[float]]] = {}

    def write(value: Any, positions: list[int], numbers: list[float], at: int) -> None:
        shown = value[-kept:] if len(value) > kept else value
        for i, item in enumerate(shown):
            start = at + i * width
            if not remember:
                one(item, positions, numbers, start)
                continue
            hit = seen.get(id(item))
            if hit is None or hit[0] is not item:
                mine: list[int] = []
                values: list[float] = []
                one(item, mine, values, 0)
                if len(seen) >= REMEMBERED:
                    seen.clear()
                hit = seen[id(item)] = (item, mine, values)
            positions.extend([start + p for p in hit[1]])
            numbers.extend(hit[2])
        if value:
            positions.append(at + kept * width)
            numbers.append(float(len(value)))
    return write


__all__ = ["LENGTHS", "Encoder", "Slot"]
