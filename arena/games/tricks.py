"""Trick-taking machinery shared by the trick games (King, Knives).

Generic over the card type: a game passes how to read a card's suit and its
power inside a suit, and keeps its own twists (forced cards, a Joker, Ghost
rule, Thief lead, the follow-suit rule) on top of these pieces:

* :func:`winner_index` — the winning card of a trick, trumps in priority order;
* :class:`TrickInProgress` — the trick on the table and who plays next;
* :class:`PerCard` — a value made once per card of a deck (an event, an action), for the
  hot path of a search that plays millions of cards.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

C = TypeVar("C")
S = TypeVar("S", bound=Hashable)
V = TypeVar("V")


class PerCard(Generic[C, V]):
    """``make(card)`` for every card of ``deck``, made once and found by the card's identity
    (the deck's own objects, which must live as long as the table does: a game's module-level
    deck, the objects in play); a card made afresh (decoded from the wire, dealt anew) gets
    ``make(card)`` made then."""

    __slots__ = ("_made", "_make")

    def __init__(self, deck: Sequence[C], make: Callable[[C], V]) -> None:
        self._made = {id(card): make(card) for card in deck}
        self._make = make

    def __call__(self, card: C) -> V:
        made = self._made.get(id(card))
        return self._make(card) if made is None else made


class PerPair(Generic[C, V]):
    """:class:`PerCard` for an ordered pair of two different cards of ``deck``: ``make(a, b)``
    made once per pair, found by the cards' identities; a pair holding a card made afresh
    gets ``make(a, b)`` made then."""

    __slots__ = ("_made", "_make")

    def __init__(self, deck: Sequence[C], make: Callable[[C, C], V]) -> None:
        self._made = {(id(a), id(b)): make(a, b) for a in deck for b in deck if a is not b}
        self._make = make

    def __call__(self, a: C, b: C) -> V:
        made = self._made.get((id(a), id(b)))
        return self._make(a, b) if made is None else made


def winner_index(cards: Sequence[C], led: S | None, suit_of: Callable[[C], S],
                 power: Callable[[C], int], trumps: Sequence[S] = ()) -> int:
    """Index in ``cards`` (play order) of the card that wins the trick.

    The highest card of the first suit of ``trumps`` (in priority order) that
    was played wins; if none was, the highest card of the ``led`` suit. Ties in
    power cannot happen between distinct cards of one suit.
    """
    for suit in (*trumps, led):
        if suit is None:
            continue
        best = -1
        best_power = 0
        for i, card in enumerate(cards):
            if suit_of(card) == suit:
                p = power(card)
                if best < 0 or p > best_power:
                    best, best_power = i, p
        if best >= 0:
            return best
    raise ValueError("no card of the led suit or a trump in the trick")


@dataclass
class TrickInProgress(Generic[C]):
    """The trick on the table: who led, and the cards played so far in order."""

    leader: int
    players: int
    seats: list[int] = field(default_factory=list)
    cards: list[C] = field(default_factory=list)

    @property
    def next_seat(self) -> int:
        """The seat to play next (clockwise from the leader)."""
        return (self.leader + len(self.cards)) % self.players

    @property
    def complete(self) -> bool:
        return len(self.cards) == self.players

    def add(self, seat: int, card: C) -> None:
        self.seats.append(seat)
        self.cards.append(card)
