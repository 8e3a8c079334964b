from arena.v1 import cards_pb2 as _cards_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    END_REASON_UNSPECIFIED: _ClassVar[EndReason]
    END_REASON_SURVIVOR: _ClassVar[EndReason]
    END_REASON_SHOWDOWN: _ClassVar[EndReason]
END_REASON_UNSPECIFIED: EndReason
END_REASON_SURVIVOR: EndReason
END_REASON_SHOWDOWN: EndReason

class Observation(_message.Message):
    __slots__ = ("seat", "players", "dealer", "to_act", "hole_cards", "hole_counts", "face_up", "face_up_totals", "eliminated", "in_game", "stock_size", "face_cards_unseen", "drawn_this_turn", "consecutive_passes", "tiebreak_game", "ace_value")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HOLE_CARDS_FIELD_NUMBER: _ClassVar[int]
    HOLE_COUNTS_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_TOTALS_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    IN_GAME_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    FACE_CARDS_UNSEEN_FIELD_NUMBER: _ClassVar[int]
    DRAWN_THIS_TURN_FIELD_NUMBER: _ClassVar[int]
    CONSECUTIVE_PASSES_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_GAME_FIELD_NUMBER: _ClassVar[int]
    ACE_VALUE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    dealer: int
    to_act: int
    hole_cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    hole_counts: _containers.RepeatedScalarFieldContainer[int]
    face_up: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Cards]
    face_up_totals: _containers.RepeatedScalarFieldContainer[int]
    eliminated: _containers.RepeatedScalarFieldContainer[bool]
    in_game: _containers.RepeatedScalarFieldContainer[bool]
    stock_size: int
    face_cards_unseen: int
    drawn_this_turn: int
    consecutive_passes: int
    tiebreak_game: int
    ace_value: int
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., dealer: _Optional[int] = ..., to_act: _Optional[int] = ..., hole_cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., hole_counts: _Optional[_Iterable[int]] = ..., face_up: _Optional[_Iterable[_Union[_cards_pb2.Cards, _Mapping]]] = ..., face_up_totals: _Optional[_Iterable[int]] = ..., eliminated: _Optional[_Iterable[bool]] = ..., in_game: _Optional[_Iterable[bool]] = ..., stock_size: _Optional[int] = ..., face_cards_unseen: _Optional[int] = ..., drawn_this_turn: _Optional[int] = ..., consecutive_passes: _Optional[int] = ..., tiebreak_game: _Optional[int] = ..., ace_value: _Optional[int] = ...) -> None: ...

class Draw(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Stop(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Action(_message.Message):
    __slots__ = ("draw", "stop")
    DRAW_FIELD_NUMBER: _ClassVar[int]
    STOP_FIELD_NUMBER: _ClassVar[int]
    draw: Draw
    stop: Stop
    def __init__(self, draw: _Optional[_Union[Draw, _Mapping]] = ..., stop: _Optional[_Union[Stop, _Mapping]] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("tiebreak_game", "dealer", "seats", "decks")
    TIEBREAK_GAME_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    tiebreak_game: int
    dealer: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    decks: int
    def __init__(self, tiebreak_game: _Optional[int] = ..., dealer: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., decks: _Optional[int] = ...) -> None: ...

class HoleDealt(_message.Message):
    __slots__ = ("seat", "count")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class HoleSeen(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class Drew(_message.Message):
    __slots__ = ("seat", "card", "face_up_total")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_TOTAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    face_up_total: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., face_up_total: _Optional[int] = ...) -> None: ...

class Eliminated(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class Stopped(_message.Message):
    __slots__ = ("seat", "drawn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    drawn: int
    def __init__(self, seat: _Optional[int] = ..., drawn: _Optional[int] = ...) -> None: ...

class HolesRevealed(_message.Message):
    __slots__ = ("holes",)
    HOLES_FIELD_NUMBER: _ClassVar[int]
    holes: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Cards]
    def __init__(self, holes: _Optional[_Iterable[_Union[_cards_pb2.Cards, _Mapping]]] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("tiebreak_game", "reason", "totals", "winners")
    TIEBREAK_GAME_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    tiebreak_game: int
    reason: EndReason
    totals: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, tiebreak_game: _Optional[int] = ..., reason: _Optional[_Union[EndReason, str]] = ..., totals: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("game_started", "hole_dealt", "hole_seen", "drew", "eliminated", "stopped", "holes_revealed", "game_ended")
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    HOLE_DEALT_FIELD_NUMBER: _ClassVar[int]
    HOLE_SEEN_FIELD_NUMBER: _ClassVar[int]
    DREW_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    STOPPED_FIELD_NUMBER: _ClassVar[int]
    HOLES_REVEALED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    game_started: GameStarted
    hole_dealt: HoleDealt
    hole_seen: HoleSeen
    drew: Drew
    eliminated: Eliminated
    stopped: Stopped
    holes_revealed: HolesRevealed
    game_ended: GameEnded
    def __init__(self, game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., hole_dealt: _Optional[_Union[HoleDealt, _Mapping]] = ..., hole_seen: _Optional[_Union[HoleSeen, _Mapping]] = ..., drew: _Optional[_Union[Drew, _Mapping]] = ..., eliminated: _Optional[_Union[Eliminated, _Mapping]] = ..., stopped: _Optional[_Union[Stopped, _Mapping]] = ..., holes_revealed: _Optional[_Union[HolesRevealed, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ...) -> None: ...
