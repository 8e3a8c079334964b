from arena.v1 import cards_pb2 as _cards_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DealEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEAL_END_REASON_UNSPECIFIED: _ClassVar[DealEndReason]
    DEAL_END_REASON_OUT: _ClassVar[DealEndReason]
    DEAL_END_REASON_IMPASSE: _ClassVar[DealEndReason]
    DEAL_END_REASON_TURN_CAP: _ClassVar[DealEndReason]
DEAL_END_REASON_UNSPECIFIED: DealEndReason
DEAL_END_REASON_OUT: DealEndReason
DEAL_END_REASON_IMPASSE: DealEndReason
DEAL_END_REASON_TURN_CAP: DealEndReason

class Observation(_message.Message):
    __slots__ = ("seat", "players", "deal", "dealer", "to_act", "hand", "hand_sizes", "piles", "stock_size", "totals", "moves_this_turn", "consecutive_idle_turns", "turns_this_deal", "target_score")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    PILES_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    MOVES_THIS_TURN_FIELD_NUMBER: _ClassVar[int]
    CONSECUTIVE_IDLE_TURNS_FIELD_NUMBER: _ClassVar[int]
    TURNS_THIS_DEAL_FIELD_NUMBER: _ClassVar[int]
    TARGET_SCORE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    deal: int
    dealer: int
    to_act: int
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    piles: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Cards]
    stock_size: int
    totals: _containers.RepeatedScalarFieldContainer[int]
    moves_this_turn: int
    consecutive_idle_turns: int
    turns_this_deal: int
    target_score: int
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., deal: _Optional[int] = ..., dealer: _Optional[int] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., piles: _Optional[_Iterable[_Union[_cards_pb2.Cards, _Mapping]]] = ..., stock_size: _Optional[int] = ..., totals: _Optional[_Iterable[int]] = ..., moves_this_turn: _Optional[int] = ..., consecutive_idle_turns: _Optional[int] = ..., turns_this_deal: _Optional[int] = ..., target_score: _Optional[int] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("card", "pile")
    CARD_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    pile: int
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., pile: _Optional[int] = ...) -> None: ...

class KingToCorner(_message.Message):
    __slots__ = ("card", "corner")
    CARD_FIELD_NUMBER: _ClassVar[int]
    CORNER_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    corner: int
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., corner: _Optional[int] = ...) -> None: ...

class FillSide(_message.Message):
    __slots__ = ("card", "side")
    CARD_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    side: int
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., side: _Optional[int] = ...) -> None: ...

class MovePile(_message.Message):
    __slots__ = ("src", "dst")
    SRC_FIELD_NUMBER: _ClassVar[int]
    DST_FIELD_NUMBER: _ClassVar[int]
    src: int
    dst: int
    def __init__(self, src: _Optional[int] = ..., dst: _Optional[int] = ...) -> None: ...

class PileToCorner(_message.Message):
    __slots__ = ("src", "corner")
    SRC_FIELD_NUMBER: _ClassVar[int]
    CORNER_FIELD_NUMBER: _ClassVar[int]
    src: int
    corner: int
    def __init__(self, src: _Optional[int] = ..., corner: _Optional[int] = ...) -> None: ...

class EndTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Action(_message.Message):
    __slots__ = ("play", "king_to_corner", "fill_side", "move_pile", "pile_to_corner", "end_turn")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    KING_TO_CORNER_FIELD_NUMBER: _ClassVar[int]
    FILL_SIDE_FIELD_NUMBER: _ClassVar[int]
    MOVE_PILE_FIELD_NUMBER: _ClassVar[int]
    PILE_TO_CORNER_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    play: Play
    king_to_corner: KingToCorner
    fill_side: FillSide
    move_pile: MovePile
    pile_to_corner: PileToCorner
    end_turn: EndTurn
    def __init__(self, play: _Optional[_Union[Play, _Mapping]] = ..., king_to_corner: _Optional[_Union[KingToCorner, _Mapping]] = ..., fill_side: _Optional[_Union[FillSide, _Mapping]] = ..., move_pile: _Optional[_Union[MovePile, _Mapping]] = ..., pile_to_corner: _Optional[_Union[PileToCorner, _Mapping]] = ..., end_turn: _Optional[_Union[EndTurn, _Mapping]] = ...) -> None: ...

class DealStarted(_message.Message):
    __slots__ = ("deal", "dealer", "sides", "hand_sizes", "stock_size")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    deal: int
    dealer: int
    sides: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    stock_size: int
    def __init__(self, deal: _Optional[int] = ..., dealer: _Optional[int] = ..., sides: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., stock_size: _Optional[int] = ...) -> None: ...

class HandDealt(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class Played(_message.Message):
    __slots__ = ("seat", "card", "pile")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    pile: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., pile: _Optional[int] = ...) -> None: ...

class PileMoved(_message.Message):
    __slots__ = ("seat", "src", "dst", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SRC_FIELD_NUMBER: _ClassVar[int]
    DST_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    src: int
    dst: int
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[int] = ..., src: _Optional[int] = ..., dst: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class Drew(_message.Message):
    __slots__ = ("seat", "stock_size")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    stock_size: int
    def __init__(self, seat: _Optional[int] = ..., stock_size: _Optional[int] = ...) -> None: ...

class DrewCard(_message.Message):
    __slots__ = ("seat", "card", "stock_size")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    stock_size: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., stock_size: _Optional[int] = ...) -> None: ...

class TurnEnded(_message.Message):
    __slots__ = ("seat", "moves", "consecutive_idle_turns")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    CONSECUTIVE_IDLE_TURNS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    moves: int
    consecutive_idle_turns: int
    def __init__(self, seat: _Optional[int] = ..., moves: _Optional[int] = ..., consecutive_idle_turns: _Optional[int] = ...) -> None: ...

class DealEnded(_message.Message):
    __slots__ = ("deal", "reason", "out", "penalties", "totals")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    OUT_FIELD_NUMBER: _ClassVar[int]
    PENALTIES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    deal: int
    reason: DealEndReason
    out: int
    penalties: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, deal: _Optional[int] = ..., reason: _Optional[_Union[DealEndReason, str]] = ..., out: _Optional[int] = ..., penalties: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("deals", "totals")
    DEALS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    deals: int
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, deals: _Optional[int] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("deal_started", "hand_dealt", "played", "pile_moved", "drew", "drew_card", "turn_ended", "deal_ended", "match_ended")
    DEAL_STARTED_FIELD_NUMBER: _ClassVar[int]
    HAND_DEALT_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    PILE_MOVED_FIELD_NUMBER: _ClassVar[int]
    DREW_FIELD_NUMBER: _ClassVar[int]
    DREW_CARD_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    DEAL_ENDED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    deal_started: DealStarted
    hand_dealt: HandDealt
    played: Played
    pile_moved: PileMoved
    drew: Drew
    drew_card: DrewCard
    turn_ended: TurnEnded
    deal_ended: DealEnded
    match_ended: MatchEnded
    def __init__(self, deal_started: _Optional[_Union[DealStarted, _Mapping]] = ..., hand_dealt: _Optional[_Union[HandDealt, _Mapping]] = ..., played: _Optional[_Union[Played, _Mapping]] = ..., pile_moved: _Optional[_Union[PileMoved, _Mapping]] = ..., drew: _Optional[_Union[Drew, _Mapping]] = ..., drew_card: _Optional[_Union[DrewCard, _Mapping]] = ..., turn_ended: _Optional[_Union[TurnEnded, _Mapping]] = ..., deal_ended: _Optional[_Union[DealEnded, _Mapping]] = ..., match_ended: _Optional[_Union[MatchEnded, _Mapping]] = ...) -> None: ...
