from arena.v1 import cards_pb2 as _cards_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Status(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STATUS_UNSPECIFIED: _ClassVar[Status]
    STATUS_ACTIVE: _ClassVar[Status]
    STATUS_FOLDED: _ClassVar[Status]
    STATUS_TRIO: _ClassVar[Status]
    STATUS_KILL_FAILED: _ClassVar[Status]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_TURN_START: _ClassVar[Phase]
    PHASE_DRAWN: _ClassVar[Phase]
    PHASE_GIFT_DISCARD: _ClassVar[Phase]
    PHASE_POST_MOVE: _ClassVar[Phase]
    PHASE_JOKER_DISCARD: _ClassVar[Phase]
    PHASE_MATCH_OVER: _ClassVar[Phase]

class LeaveReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEAVE_REASON_UNSPECIFIED: _ClassVar[LeaveReason]
    LEAVE_REASON_FOLD: _ClassVar[LeaveReason]
    LEAVE_REASON_TRUE_TRIO: _ClassVar[LeaveReason]
    LEAVE_REASON_CLAIMED_TRIO: _ClassVar[LeaveReason]
    LEAVE_REASON_KILL_FAILED: _ClassVar[LeaveReason]

class WinReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WIN_REASON_UNSPECIFIED: _ClassVar[WinReason]
    WIN_REASON_KILL: _ClassVar[WinReason]
    WIN_REASON_TRUE_WIN: _ClassVar[WinReason]
    WIN_REASON_SURVIVOR: _ClassVar[WinReason]
    WIN_REASON_CLAIMED_WIN: _ClassVar[WinReason]

class RoundEnd(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROUND_END_UNSPECIFIED: _ClassVar[RoundEnd]
    ROUND_END_WON: _ClassVar[RoundEnd]
    ROUND_END_TURN_CAP: _ClassVar[RoundEnd]
STATUS_UNSPECIFIED: Status
STATUS_ACTIVE: Status
STATUS_FOLDED: Status
STATUS_TRIO: Status
STATUS_KILL_FAILED: Status
PHASE_UNSPECIFIED: Phase
PHASE_TURN_START: Phase
PHASE_DRAWN: Phase
PHASE_GIFT_DISCARD: Phase
PHASE_POST_MOVE: Phase
PHASE_JOKER_DISCARD: Phase
PHASE_MATCH_OVER: Phase
LEAVE_REASON_UNSPECIFIED: LeaveReason
LEAVE_REASON_FOLD: LeaveReason
LEAVE_REASON_TRUE_TRIO: LeaveReason
LEAVE_REASON_CLAIMED_TRIO: LeaveReason
LEAVE_REASON_KILL_FAILED: LeaveReason
WIN_REASON_UNSPECIFIED: WinReason
WIN_REASON_KILL: WinReason
WIN_REASON_TRUE_WIN: WinReason
WIN_REASON_SURVIVOR: WinReason
WIN_REASON_CLAIMED_WIN: WinReason
ROUND_END_UNSPECIFIED: RoundEnd
ROUND_END_WON: RoundEnd
ROUND_END_TURN_CAP: RoundEnd

class Points(_message.Message):
    __slots__ = ("points",)
    POINTS_FIELD_NUMBER: _ClassVar[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, points: _Optional[_Iterable[int]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "players", "round_index", "starter", "phase", "to_act", "hand", "gift", "drawn", "statuses", "hand_sizes", "immune", "had_turn", "round_points", "totals", "seat_suits", "face_up", "deck_size", "used_size", "turns_completed", "previous_rounds")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ROUND_INDEX_FIELD_NUMBER: _ClassVar[int]
    STARTER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    GIFT_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    IMMUNE_FIELD_NUMBER: _ClassVar[int]
    HAD_TURN_FIELD_NUMBER: _ClassVar[int]
    ROUND_POINTS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    SEAT_SUITS_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    USED_SIZE_FIELD_NUMBER: _ClassVar[int]
    TURNS_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    round_index: int
    starter: int
    phase: Phase
    to_act: int
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    gift: _cards_pb2.Card
    drawn: _cards_pb2.Card
    statuses: _containers.RepeatedScalarFieldContainer[Status]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    immune: _containers.RepeatedScalarFieldContainer[bool]
    had_turn: _containers.RepeatedScalarFieldContainer[bool]
    round_points: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    seat_suits: _containers.RepeatedScalarFieldContainer[_cards_pb2.Suit]
    face_up: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Cards]
    deck_size: int
    used_size: int
    turns_completed: int
    previous_rounds: _containers.RepeatedCompositeFieldContainer[Points]
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., round_index: _Optional[int] = ..., starter: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., gift: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., drawn: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., statuses: _Optional[_Iterable[_Union[Status, str]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., immune: _Optional[_Iterable[bool]] = ..., had_turn: _Optional[_Iterable[bool]] = ..., round_points: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ..., seat_suits: _Optional[_Iterable[_Union[_cards_pb2.Suit, str]]] = ..., face_up: _Optional[_Iterable[_Union[_cards_pb2.Cards, _Mapping]]] = ..., deck_size: _Optional[int] = ..., used_size: _Optional[int] = ..., turns_completed: _Optional[int] = ..., previous_rounds: _Optional[_Iterable[_Union[Points, _Mapping]]] = ...) -> None: ...

class Draw(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ShowTrueWin(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Kill(_message.Message):
    __slots__ = ("target",)
    TARGET_FIELD_NUMBER: _ClassVar[int]
    target: int
    def __init__(self, target: _Optional[int] = ...) -> None: ...

class ClaimJoker(_message.Message):
    __slots__ = ("target",)
    TARGET_FIELD_NUMBER: _ClassVar[int]
    target: int
    def __init__(self, target: _Optional[int] = ...) -> None: ...

class ShowTrio(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Fold(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Reject(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Swap(_message.Message):
    __slots__ = ("hand_index",)
    HAND_INDEX_FIELD_NUMBER: _ClassVar[int]
    hand_index: int
    def __init__(self, hand_index: _Optional[int] = ...) -> None: ...

class Two(_message.Message):
    __slots__ = ("give_index", "keep_index", "recipient")
    GIVE_INDEX_FIELD_NUMBER: _ClassVar[int]
    KEEP_INDEX_FIELD_NUMBER: _ClassVar[int]
    RECIPIENT_FIELD_NUMBER: _ClassVar[int]
    give_index: int
    keep_index: int
    recipient: int
    def __init__(self, give_index: _Optional[int] = ..., keep_index: _Optional[int] = ..., recipient: _Optional[int] = ...) -> None: ...

class Discard(_message.Message):
    __slots__ = ("hand_index",)
    HAND_INDEX_FIELD_NUMBER: _ClassVar[int]
    hand_index: int
    def __init__(self, hand_index: _Optional[int] = ...) -> None: ...

class ClaimWin(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ClaimTrio(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class EndTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Action(_message.Message):
    __slots__ = ("draw", "show_true_win", "kill", "claim_joker", "show_trio", "fold", "reject", "swap", "two", "discard", "claim_win", "claim_trio", "end_turn")
    DRAW_FIELD_NUMBER: _ClassVar[int]
    SHOW_TRUE_WIN_FIELD_NUMBER: _ClassVar[int]
    KILL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_JOKER_FIELD_NUMBER: _ClassVar[int]
    SHOW_TRIO_FIELD_NUMBER: _ClassVar[int]
    FOLD_FIELD_NUMBER: _ClassVar[int]
    REJECT_FIELD_NUMBER: _ClassVar[int]
    SWAP_FIELD_NUMBER: _ClassVar[int]
    TWO_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    CLAIM_WIN_FIELD_NUMBER: _ClassVar[int]
    CLAIM_TRIO_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    draw: Draw
    show_true_win: ShowTrueWin
    kill: Kill
    claim_joker: ClaimJoker
    show_trio: ShowTrio
    fold: Fold
    reject: Reject
    swap: Swap
    two: Two
    discard: Discard
    claim_win: ClaimWin
    claim_trio: ClaimTrio
    end_turn: EndTurn
    def __init__(self, draw: _Optional[_Union[Draw, _Mapping]] = ..., show_true_win: _Optional[_Union[ShowTrueWin, _Mapping]] = ..., kill: _Optional[_Union[Kill, _Mapping]] = ..., claim_joker: _Optional[_Union[ClaimJoker, _Mapping]] = ..., show_trio: _Optional[_Union[ShowTrio, _Mapping]] = ..., fold: _Optional[_Union[Fold, _Mapping]] = ..., reject: _Optional[_Union[Reject, _Mapping]] = ..., swap: _Optional[_Union[Swap, _Mapping]] = ..., two: _Optional[_Union[Two, _Mapping]] = ..., discard: _Optional[_Union[Discard, _Mapping]] = ..., claim_win: _Optional[_Union[ClaimWin, _Mapping]] = ..., claim_trio: _Optional[_Union[ClaimTrio, _Mapping]] = ..., end_turn: _Optional[_Union[EndTurn, _Mapping]] = ...) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ("round_index", "starter", "fixed", "deck_size")
    ROUND_INDEX_FIELD_NUMBER: _ClassVar[int]
    STARTER_FIELD_NUMBER: _ClassVar[int]
    FIXED_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    round_index: int
    starter: int
    fixed: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Cards]
    deck_size: int
    def __init__(self, round_index: _Optional[int] = ..., starter: _Optional[int] = ..., fixed: _Optional[_Iterable[_Union[_cards_pb2.Cards, _Mapping]]] = ..., deck_size: _Optional[int] = ...) -> None: ...

class Dealt(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class UsedPileShuffled(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: int
    def __init__(self, cards: _Optional[int] = ...) -> None: ...

class Drew(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class Rejected(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class Swapped(_message.Message):
    __slots__ = ("seat", "taken", "discarded")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    taken: _cards_pb2.Card
    discarded: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., taken: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., discarded: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class TwoCardExchange(_message.Message):
    __slots__ = ("seat", "recipient", "taken", "shown", "given")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RECIPIENT_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    recipient: int
    taken: _cards_pb2.Card
    shown: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    given: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., recipient: _Optional[int] = ..., taken: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., shown: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., given: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class GiftDiscarded(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class JokerClaimed(_message.Message):
    __slots__ = ("seat", "target", "hand", "success", "joker")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    JOKER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    target: int
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    success: bool
    joker: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., success: _Optional[bool] = ..., joker: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class JokerRefill(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class JokerDiscarded(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class KillAttempt(_message.Message):
    __slots__ = ("seat", "target", "target_hand", "success")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    TARGET_HAND_FIELD_NUMBER: _ClassVar[int]
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    target: int
    target_hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    success: bool
    def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ..., target_hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., success: _Optional[bool] = ...) -> None: ...

class FalseWinShown(_message.Message):
    __slots__ = ("seat", "hand")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class LeftRound(_message.Message):
    __slots__ = ("seat", "reason", "hand", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    reason: LeaveReason
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    points: int
    def __init__(self, seat: _Optional[int] = ..., reason: _Optional[_Union[LeaveReason, str]] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., points: _Optional[int] = ...) -> None: ...

class RoundWon(_message.Message):
    __slots__ = ("seat", "reason", "hand", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    reason: WinReason
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    points: int
    def __init__(self, seat: _Optional[int] = ..., reason: _Optional[_Union[WinReason, str]] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., points: _Optional[int] = ...) -> None: ...

class TurnEnded(_message.Message):
    __slots__ = ("seat", "turns_completed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURNS_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turns_completed: int
    def __init__(self, seat: _Optional[int] = ..., turns_completed: _Optional[int] = ...) -> None: ...

class RoundEnded(_message.Message):
    __slots__ = ("round_index", "reason", "round_points", "totals", "hands")
    ROUND_INDEX_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ROUND_POINTS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    round_index: int
    reason: RoundEnd
    round_points: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Cards]
    def __init__(self, round_index: _Optional[int] = ..., reason: _Optional[_Union[RoundEnd, str]] = ..., round_points: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[_cards_pb2.Cards, _Mapping]]] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("totals", "ranks")
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, totals: _Optional[_Iterable[int]] = ..., ranks: _Optional[_Iterable[int]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("round_started", "dealt", "used_pile_shuffled", "drew", "rejected", "swapped", "two_card_exchange", "gift_discarded", "joker_claimed", "joker_refill", "joker_discarded", "kill_attempt", "false_win_shown", "left_round", "round_won", "turn_ended", "round_ended", "match_ended")
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    USED_PILE_SHUFFLED_FIELD_NUMBER: _ClassVar[int]
    DREW_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    SWAPPED_FIELD_NUMBER: _ClassVar[int]
    TWO_CARD_EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    GIFT_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    JOKER_CLAIMED_FIELD_NUMBER: _ClassVar[int]
    JOKER_REFILL_FIELD_NUMBER: _ClassVar[int]
    JOKER_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    KILL_ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    FALSE_WIN_SHOWN_FIELD_NUMBER: _ClassVar[int]
    LEFT_ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUND_WON_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    ROUND_ENDED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    round_started: RoundStarted
    dealt: Dealt
    used_pile_shuffled: UsedPileShuffled
    drew: Drew
    rejected: Rejected
    swapped: Swapped
    two_card_exchange: TwoCardExchange
    gift_discarded: GiftDiscarded
    joker_claimed: JokerClaimed
    joker_refill: JokerRefill
    joker_discarded: JokerDiscarded
    kill_attempt: KillAttempt
    false_win_shown: FalseWinShown
    left_round: LeftRound
    round_won: RoundWon
    turn_ended: TurnEnded
    round_ended: RoundEnded
    match_ended: MatchEnded
    def __init__(self, round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., dealt: _Optional[_Union[Dealt, _Mapping]] = ..., used_pile_shuffled: _Optional[_Union[UsedPileShuffled, _Mapping]] = ..., drew: _Optional[_Union[Drew, _Mapping]] = ..., rejected: _Optional[_Union[Rejected, _Mapping]] = ..., swapped: _Optional[_Union[Swapped, _Mapping]] = ..., two_card_exchange: _Optional[_Union[TwoCardExchange, _Mapping]] = ..., gift_discarded: _Optional[_Union[GiftDiscarded, _Mapping]] = ..., joker_claimed: _Optional[_Union[JokerClaimed, _Mapping]] = ..., joker_refill: _Optional[_Union[JokerRefill, _Mapping]] = ..., joker_discarded: _Optional[_Union[JokerDiscarded, _Mapping]] = ..., kill_attempt: _Optional[_Union[KillAttempt, _Mapping]] = ..., false_win_shown: _Optional[_Union[FalseWinShown, _Mapping]] = ..., left_round: _Optional[_Union[LeftRound, _Mapping]] = ..., round_won: _Optional[_Union[RoundWon, _Mapping]] = ..., turn_ended: _Optional[_Union[TurnEnded, _Mapping]] = ..., round_ended: _Optional[_Union[RoundEnded, _Mapping]] = ..., match_ended: _Optional[_Union[MatchEnded, _Mapping]] = ...) -> None: ...
