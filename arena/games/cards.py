"""Standard playing cards, shared by every game that uses the French deck.

Every physical card is distinct: two packs shuffled together give two ``7H``
that differ in ``copy`` (``7H`` and ``7H#1``); the two Jokers are ``X1`` and
``X2`` (copies 0 and 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Rank(IntEnum):
    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        return _RANK_CODES[self]

    @property
    def is_face(self) -> bool:
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)


class Suit(IntEnum):
    NONE = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3
    CLUBS = 4

    @property
    def code(self) -> str:
        return "-SHDC"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_RANK_CODES = {r: c for r, c in zip(Rank, "XA23456789TJQK", strict=True)}
_CODE_RANKS = {c: r for r, c in _RANK_CODES.items()}
_CODE_SUITS = {s.code: s for s in Suit if s is not Suit.NONE}
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
RANKS = tuple(r for r in Rank if r is not Rank.JOKER)


@dataclass(frozen=True, order=True)
class Card:
    """A physical card: rank, suit (``NONE`` for Jokers) and which copy it is."""

    rank: Rank
    suit: Suit
    copy: int = 0

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is Suit.NONE):
            raise ValueError("a Joker has no suit and only a Joker has no suit")

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    @property
    def code(self) -> str:
        if self.is_joker:
            return f"X{self.copy + 1}"
        base = self.rank.code + self.suit.code
        return base if self.copy == 0 else f"{base}#{self.copy}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, code: str) -> Card:
        """``"7H"``, ``"TS#1"``, ``"X2"`` -> Card; raises ValueError on anything else."""
        text = code.strip().upper()
        if len(text) == 2 and text[0] == "X" and text[1] in "12":
            return cls(Rank.JOKER, Suit.NONE, int(text[1]) - 1)
        base, _, copy = text.partition("#")
        if len(base) != 2 or base[0] not in _CODE_RANKS or base[1] not in _CODE_SUITS:
            raise ValueError(f"not a card: {code!r}")
        if copy and not copy.isdigit():
            raise ValueError(f"not a card: {code!r}")
        return cls(_CODE_RANKS[base[0]], _CODE_SUITS[base[1]], int(copy or 0))


def cards(codes: str) -> list[Card]:
    """``cards("7H AS X1")`` -> the cards, in order (for tests and scripted deals)."""
    return [Card.parse(c) for c in codes.split()]


def standard_deck(packs: int = 1, jokers: int = 0) -> list[Card]:
    """``packs`` 52-card packs in a fixed order, then ``jokers`` Jokers."""
    deck = [Card(rank, suit, pack) for pack in range(packs) for suit in SUITS for rank in RANKS]
    deck.extend(Card(Rank.JOKER, Suit.NONE, i) for i in range(jokers))
    return deck
