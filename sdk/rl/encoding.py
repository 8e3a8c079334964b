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

The encoder writes an observation type once as Python source (:func:`_compile`), every
offset a constant, into a float32 buffer: no call per field, and the histories a game hands
on unchanged step after step (tricks, calls, results; tuples never change) are copied in
whole from the numbers they had.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from array import array
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from arena.games.base import Game

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
        self._card = _Place(deck)
        self._lengths = LENGTHS.get(game.name, {})
        self.slots: list[Slot] = []
        self._node = self._record(game.observation_type, "")
        self.size = sum(s.width for s in self.slots)
        self._zeros = bytes(4 * self.size)
        self._fill = _compile(self._node, relative=False)

    def encode(self, observation: Any) -> np.ndarray:
        """The observation's numbers (float32)."""
        out = array("f", self._zeros)
        self._fill(observation, out, 0)
        return np.frombuffer(out, np.float32)

    # -- the plan of the numbers, and the slots it fills, once

    def _slot(self, name: str, width: int, meaning: str) -> None:
        offset = sum(s.width for s in self.slots)
        self.slots.append(Slot(offset, width, name, meaning))

    def _record(self, kind: type, prefix: str) -> _Record:
        hints = typing.get_type_hints(kind)
        start = self._end()
        fields = []
        for f in dataclasses.fields(kind):
            at = self._end() - start
            fields.append((f.name, at, self._field(hints[f.name], f"{prefix}{f.name}",
                                                   kind.__name__)))
        return _Record(tuple(fields))

    def _end(self) -> int:
        return self.slots[-1].offset + self.slots[-1].width if self.slots else 0

    def _field(self, hint: Any, name: str, owner: str) -> _Node:
        if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
            (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
            self._slot(name + "?", 1, "1 if present")
            return _Optional(self._field(inner, name, owner))
        if hint is bool or hint is int:
            self._slot(name, 1, "yes 1, no 0" if hint is bool else "the number")
            return _Number()
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            members = list(hint)
            self._slot(name, len(members), "one of " + ", ".join(m.name.lower() for m in members))
            return _OneHot(_Place(members))
        if isinstance(hint, type) and self.deck and isinstance(self.deck[0], hint):
            self._slot(name, len(self.deck), "the card")
            return _OneHot(self._card)
        if typing.get_origin(hint) is tuple:
            item = typing.get_args(hint)[0]
            if isinstance(item, type) and self.deck and isinstance(self.deck[0], item):
                self._slot(name, len(self.deck), "1 for each card in it")
                self._slot(f"{name}#", 1, "how many cards")
                return _Cards(self._card, len(self.deck))
            kept = self._lengths.get(f"{owner}.{name.rsplit('.', 1)[-1]}",
                                     self._lengths.get(name.rsplit(".", 1)[-1], self.players))
            if item is int or item is bool:  # one number each
                for i in range(kept):
                    self._slot(f"{name}[{i}]", 1, "yes 1, no 0" if item is bool else "the number")
                self._slot(f"{name}#", 1, f"how many (at most {kept} kept: the last)")
                return _Scalars(kept)
            before = len(self.slots)
            one = self._field(item, f"{name}[i]", owner)
            width = sum(s.width for s in self.slots[before:])
            del self.slots[before:]
            for i in range(kept):
                self._field(item, f"{name}[{i}]", owner)
            self._slot(f"{name}#", 1, f"how many (at most {kept} kept: the last)")
            frozen = dataclasses.is_dataclass(item) or typing.get_origin(item) is tuple
            return _Items(one, width, kept, frozen)
        if dataclasses.is_dataclass(hint):
            return self._record(typing.cast(type, hint), f"{name}.")
        raise TypeError(f"{self.game.name}: cannot encode {name} of type {hint}")


# -- the plan: what each field writes, from its offset


class _Place:
    """The place of a value among ``values`` (a deck's cards, an enum's members): by
    identity (the objects of the deck, which the table holds), else by value (a card made
    afresh: decoded, deep-copied)."""

    def __init__(self, values: Sequence[Any]) -> None:
        self.values = values
        self.by_value = {value: i for i, value in enumerate(values)}

    def from_(self, offset: int) -> dict[int, int]:
        """Each value's absolute position, by identity, for a field at ``offset``."""
        return {id(value): offset + i for i, value in enumerate(self.values)}


@dataclasses.dataclass(frozen=True)
class _Number:
    """Itself, where not 0."""


@dataclasses.dataclass(frozen=True)
class _OneHot:
    """1 at the value's place."""

    place: _Place


@dataclasses.dataclass(frozen=True)
class _Cards:
    """1 at each card's place, then how many (nothing for none)."""

    place: _Place
    width: int


@dataclasses.dataclass(frozen=True)
class _Optional:
    """1 then the value's own numbers; zeros when absent."""

    inner: _Node


@dataclasses.dataclass(frozen=True)
class _Scalars:
    """The last ``kept`` numbers, then how many (nothing for none)."""

    kept: int


@dataclasses.dataclass(frozen=True)
class _Items:
    """The last ``kept`` items, ``width`` numbers each, then how many (nothing for none).
    ``frozen``: the items are frozen records or tuples, whose numbers are remembered."""

    one: _Node
    width: int
    kept: int
    frozen: bool


@dataclasses.dataclass(frozen=True)
class _Record:
    """Each field (its name, its offset in the record, its plan) in turn."""

    fields: tuple[tuple[str, int, _Node], ...]


_Node = _Number | _OneHot | _Cards | _Optional | _Scalars | _Items | _Record
Fill = Callable[[Any, "array[float]", int], None]
"""A plan compiled: writes a value into a float32 buffer, its numbers from an offset."""


class _Source:
    """The source of one function being written, and the objects its names stand for."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[str, Any] = {}
        self._made = 0

    def fresh(self, stem: str) -> str:
        self._made += 1
        return f"{stem}{self._made}"

    def bind(self, stem: str, value: Any) -> str:
        name = self.fresh(stem)
        self.names[name] = value
        return name

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def _compile(node: _Node, *, relative: bool) -> Fill:
    """``node`` as a function ``fill(value, out, at)``: offsets constants from 0
    (``relative``: from ``at``)."""
    source = _Source()
    _emit(source, node, "value", 0, 1, "at + " if relative else "")
    text = "def fill(value, out, at):\n" + "\n".join(source.lines or ["    pass"]) + "\n"
    exec(compile(text, "<sdk.rl.encoding>", "exec"), source.names)
    return typing.cast(Fill, source.names["fill"])


def _emit(src: _Source, node: _Node, v: str, k: int, depth: int, at: str) -> None:
    """The lines writing ``v`` (a local name) by ``node`` from offset ``k`` (after ``at``)."""
    if isinstance(node, _Number):
        src.line(depth, f"if {v}: out[{at}{k}] = {v}")
    elif isinstance(node, _OneHot):
        _one_hot(src, node.place, v, k, depth, at)
    elif isinstance(node, _Cards):
        # the last tuple met here (by identity) and its numbers: a card seen by every seat
        # (the first dealer's draw, a trick) is the same tuple step after step
        card, last = src.fresh("c"), src.bind("last", [None, None])
        span = f"{at}{k}:{at}{k + node.width + 1}"
        src.line(depth, f"if {v}:")
        src.line(depth + 1, f"if {v} is {last}[0]:")
        src.line(depth + 2, f"out[{span}] = {last}[1]")
        src.line(depth + 1, "else:")
        src.line(depth + 2, f"for {card} in {v}:")
        _one_hot(src, node.place, card, k, depth + 3, at)
        src.line(depth + 2, f"out[{at}{k + node.width}] = len({v})")
        src.line(depth + 2, f"{last}[0], {last}[1] = {v}, out[{span}]")
    elif isinstance(node, _Optional):
        src.line(depth, f"if {v} is not None:")
        src.line(depth + 1, f"out[{at}{k}] = 1.0")
        _emit(src, node.inner, v, k + 1, depth + 1, at)
    elif isinstance(node, _Scalars):
        shown, i, x = src.fresh("s"), src.fresh("i"), src.fresh("x")
        src.line(depth, f"if {v}:")
        src.line(depth + 1, f"{shown} = {v}[-{node.kept}:] if len({v}) > {node.kept} else {v}")
        src.line(depth + 1, f"for {i}, {x} in enumerate({shown}, {k}):")
        src.line(depth + 2, f"if {x}: out[{at}{i}] = {x}")
        src.line(depth + 1, f"out[{at}{k + node.kept}] = len({v})")
    elif isinstance(node, _Items):
        # the last tuple met here and its numbers: a game hands on the same tuple (or a copy
        # of the same items, compared by identity first) step after step until it changes
        # (a history shared by every seat's view); one tuple only
        last = src.bind("last", [None, None])
        build = src.bind("build", _items(node))
        src.line(depth, f"if {v}:")
        src.line(depth + 1, f"if {v} is not {last}[0] and {v} != {last}[0]:")
        src.line(depth + 2, f"{last}[1] = {build}({v})")
        src.line(depth + 2, f"{last}[0] = {v}")
        src.line(depth + 1,
                 f"out[{at}{k}:{at}{k + node.kept * node.width + 1}] = {last}[1]")
    else:
        for name, offset, field in node.fields:
            value = src.fresh("v")
            src.line(depth, f"{value} = {v}.{name}")
            _emit(src, field, value, k + offset, depth, at)


def _one_hot(src: _Source, place: _Place, v: str, k: int, depth: int, at: str) -> None:
    table, by_value, p = src.bind("place", place.from_(k)), src.bind("value", place.by_value), \
        src.fresh("p")
    src.line(depth, f"{p} = {table}.get(id({v}))")
    src.line(depth, f"if {p} is None: {p} = {k} + {by_value}[{v}]")
    src.line(depth, f"out[{at}{p}] = 1.0")


REMEMBERED = 4096
"""Items of a history remembered per tuple (a history repeats its items step after step)."""


def _items(node: _Items) -> Callable[[Sequence[Any]], array[float]]:
    """The numbers of a (non-empty) tuple by ``node``: its last items, then how many; a frozen
    item's numbers remembered by identity, holding the item (so that its id is not reused
    meanwhile)."""
    one, width, kept, frozen = _compile(node.one, relative=True), node.width, node.kept, \
        node.frozen
    zeros, item_zeros = bytes(4 * (kept * width + 1)), bytes(4 * width)
    seen: dict[int, tuple[Any, array[float]]] = {}

    def build(value: Sequence[Any]) -> array[float]:
        numbers = array("f", zeros)
        shown = value[-kept:] if len(value) > kept else value
        for i, item in enumerate(shown):
            start = i * width
            if not frozen:
                one(item, numbers, start)
                continue
            hit = seen.get(id(item))
            if hit is None or hit[0] is not item:
                mine = array("f", item_zeros)
                one(item, mine, 0)
                if len(seen) >= REMEMBERED:
                    seen.clear()
                hit = seen[id(item)] = (item, mine)
            numbers[start:start + width] = hit[1]
        numbers[kept * width] = len(value)
        return numbers
    return build


__all__ = ["LENGTHS", "Encoder", "Slot"]
