from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Rank(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RANK_JOKER: _ClassVar[Rank]
    RANK_ACE: _ClassVar[Rank]
    RANK_TWO: _ClassVar[Rank]
    RANK_THREE: _ClassVar[Rank]
    RANK_FOUR: _ClassVar[Rank]
    RANK_FIVE: _ClassVar[Rank]
    RANK_SIX: _ClassVar[Rank]
    RANK_SEVEN: _ClassVar[Rank]
    RANK_EIGHT: _ClassVar[Rank]
    RANK_NINE: _ClassVar[Rank]
    RANK_TEN: _ClassVar[Rank]
    RANK_JACK: _ClassVar[Rank]
    RANK_QUEEN: _ClassVar[Rank]
    RANK_KING: _ClassVar[Rank]

class Suit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SUIT_NONE: _ClassVar[Suit]
    SUIT_SPADES: _ClassVar[Suit]
    SUIT_HEARTS: _ClassVar[Suit]
    SUIT_DIAMONDS: _ClassVar[Suit]
    SUIT_CLUBS: _ClassVar[Suit]
RANK_JOKER: Rank
RANK_ACE: Rank
RANK_TWO: Rank
RANK_THREE: Rank
RANK_FOUR: Rank
RANK_FIVE: Rank
RANK_SIX: Rank
RANK_SEVEN: Rank
RANK_EIGHT: Rank
RANK_NINE: Rank
RANK_TEN: Rank
RANK_JACK: Rank
RANK_QUEEN: Rank
RANK_KING: Rank
SUIT_NONE: Suit
SUIT_SPADES: Suit
SUIT_HEARTS: Suit
SUIT_DIAMONDS: Suit
SUIT_CLUBS: Suit

class Card(_message.Message):
    __slots__ = ("rank", "suit", "copy")
    RANK_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    COPY_FIELD_NUMBER: _ClassVar[int]
    rank: Rank
    suit: Suit
    copy: int
    def __init__(self, rank: _Optional[_Union[Rank, str]] = ..., suit: _Optional[_Union[Suit, str]] = ..., copy: _Optional[int] = ...) -> None: ...

class Cards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...
