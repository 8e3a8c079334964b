from arena.v1 import cards_pb2 as _cards_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HandKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HAND_KIND_UNSPECIFIED: _ClassVar[HandKind]
    HAND_KIND_NO_TRICKS: _ClassVar[HandKind]
    HAND_KIND_NO_HEARTS: _ClassVar[HandKind]
    HAND_KIND_NO_QUEENS: _ClassVar[HandKind]
    HAND_KIND_NO_MEN: _ClassVar[HandKind]
    HAND_KIND_NO_KING_OF_HEARTS: _ClassVar[HandKind]
    HAND_KIND_NO_LAST: _ClassVar[HandKind]
    HAND_KIND_QUICK_TRICKS_AND_LAST: _ClassVar[HandKind]
    HAND_KIND_QUICK_HEARTS: _ClassVar[HandKind]
    HAND_KIND_QUICK_QUEENS_AND_MEN: _ClassVar[HandKind]
    HAND_KIND_POSITIVE: _ClassVar[HandKind]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_BEN_CHOICE: _ClassVar[Phase]
    PHASE_AUCTION: _ClassVar[Phase]
    PHASE_BEN_RESPONSE: _ClassVar[Phase]
    PHASE_BEN_CONTRACT: _ClassVar[Phase]
    PHASE_ULTIMATUM: _ClassVar[Phase]
    PHASE_WINNER_TRUMP: _ClassVar[Phase]
    PHASE_PLAY: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]

class Direction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DIRECTION_UNSPECIFIED: _ClassVar[Direction]
    DIRECTION_UP: _ClassVar[Direction]
    DIRECTION_DOWN: _ClassVar[Direction]

class Mode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MODE_UNSPECIFIED: _ClassVar[Mode]
    MODE_NEGATIVE: _ClassVar[Mode]
    MODE_UP: _ClassVar[Mode]
    MODE_DOWN: _ClassVar[Mode]

class Choice(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHOICE_UNSPECIFIED: _ClassVar[Choice]
    CHOICE_OPEN_AUCTION: _ClassVar[Choice]
    CHOICE_ULTIMATUM: _ClassVar[Choice]
    CHOICE_FORFEIT: _ClassVar[Choice]
    CHOICE_ACCEPT: _ClassVar[Choice]
    CHOICE_DECLINE: _ClassVar[Choice]
HAND_KIND_UNSPECIFIED: HandKind
HAND_KIND_NO_TRICKS: HandKind
HAND_KIND_NO_HEARTS: HandKind
HAND_KIND_NO_QUEENS: HandKind
HAND_KIND_NO_MEN: HandKind
HAND_KIND_NO_KING_OF_HEARTS: HandKind
HAND_KIND_NO_LAST: HandKind
HAND_KIND_QUICK_TRICKS_AND_LAST: HandKind
HAND_KIND_QUICK_HEARTS: HandKind
HAND_KIND_QUICK_QUEENS_AND_MEN: HandKind
HAND_KIND_POSITIVE: HandKind
PHASE_UNSPECIFIED: Phase
PHASE_BEN_CHOICE: Phase
PHASE_AUCTION: Phase
PHASE_BEN_RESPONSE: Phase
PHASE_BEN_CONTRACT: Phase
PHASE_ULTIMATUM: Phase
PHASE_WINNER_TRUMP: Phase
PHASE_PLAY: Phase
PHASE_OVER: Phase
DIRECTION_UNSPECIFIED: Direction
DIRECTION_UP: Direction
DIRECTION_DOWN: Direction
MODE_UNSPECIFIED: Mode
MODE_NEGATIVE: Mode
MODE_UP: Mode
MODE_DOWN: Mode
CHOICE_UNSPECIFIED: Choice
CHOICE_OPEN_AUCTION: Choice
CHOICE_ULTIMATUM: Choice
CHOICE_FORFEIT: Choice
CHOICE_ACCEPT: Choice
CHOICE_DECLINE: Choice

class Call(_message.Message):
    __slots__ = ("seat", "n", "direction")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    n: int
    direction: Direction
    def __init__(self, seat: _Optional[int] = ..., n: _Optional[int] = ..., direction: _Optional[_Union[Direction, str]] = ...) -> None: ...

class Trick(_message.Message):
    __slots__ = ("leader", "seats", "cards", "winner")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    leader: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    winner: int
    def __init__(self, leader: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., winner: _Optional[int] = ...) -> None: ...

class HandResult(_message.Message):
    __slots__ = ("hand", "kind", "scores")
    HAND_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    hand: int
    kind: HandKind
    scores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hand: _Optional[int] = ..., kind: _Optional[_Union[HandKind, str]] = ..., scores: _Optional[_Iterable[int]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "hand_index", "hands_in_match", "kind", "dealer", "first_dealer_draw", "phase", "to_act", "hand", "hand_sizes", "mode", "trump", "declarer", "sold_to", "price", "calls", "ultimatum", "high_n", "high_direction", "high_holder", "passed", "trick_leader", "trick_seats", "trick_cards", "tricks", "tricks_won", "hand_scores", "results", "totals")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_INDEX_FIELD_NUMBER: _ClassVar[int]
    HANDS_IN_MATCH_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    FIRST_DEALER_DRAW_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    SOLD_TO_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    CALLS_FIELD_NUMBER: _ClassVar[int]
    ULTIMATUM_FIELD_NUMBER: _ClassVar[int]
    HIGH_N_FIELD_NUMBER: _ClassVar[int]
    HIGH_DIRECTION_FIELD_NUMBER: _ClassVar[int]
    HIGH_HOLDER_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    TRICK_LEADER_FIELD_NUMBER: _ClassVar[int]
    TRICK_SEATS_FIELD_NUMBER: _ClassVar[int]
    TRICK_CARDS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    HAND_SCORES_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_index: int
    hands_in_match: int
    kind: HandKind
    dealer: int
    first_dealer_draw: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    phase: Phase
    to_act: int
    hand: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    mode: Mode
    trump: _cards_pb2.Suit
    declarer: int
    sold_to: int
    price: int
    calls: _containers.RepeatedCompositeFieldContainer[Call]
    ultimatum: bool
    high_n: int
    high_direction: Direction
    high_holder: int
    passed: _containers.RepeatedScalarFieldContainer[bool]
    trick_leader: int
    trick_seats: _containers.RepeatedScalarFieldContainer[int]
    trick_cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    hand_scores: _containers.RepeatedScalarFieldContainer[int]
    results: _containers.RepeatedCompositeFieldContainer[HandResult]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., hand_index: _Optional[int] = ..., hands_in_match: _Optional[int] = ..., kind: _Optional[_Union[HandKind, str]] = ..., dealer: _Optional[int] = ..., first_dealer_draw: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., phase: _Optional[_Union[Phase, str]] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., mode: _Optional[_Union[Mode, str]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., declarer: _Optional[int] = ..., sold_to: _Optional[int] = ..., price: _Optional[int] = ..., calls: _Optional[_Iterable[_Union[Call, _Mapping]]] = ..., ultimatum: _Optional[bool] = ..., high_n: _Optional[int] = ..., high_direction: _Optional[_Union[Direction, str]] = ..., high_holder: _Optional[int] = ..., passed: _Optional[_Iterable[bool]] = ..., trick_leader: _Optional[int] = ..., trick_seats: _Optional[_Iterable[int]] = ..., trick_cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., tricks_won: _Optional[_Iterable[int]] = ..., hand_scores: _Optional[_Iterable[int]] = ..., results: _Optional[_Iterable[_Union[HandResult, _Mapping]]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class DeclareUp(_message.Message):
    __slots__ = ("trump",)
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    trump: _cards_pb2.Suit
    def __init__(self, trump: _Optional[_Union[_cards_pb2.Suit, str]] = ...) -> None: ...

class DeclareDown(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class OpenAuction(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Ultimatum(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Forfeit(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Bid(_message.Message):
    __slots__ = ("n", "direction")
    N_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    n: int
    direction: Direction
    def __init__(self, n: _Optional[int] = ..., direction: _Optional[_Union[Direction, str]] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Accept(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Decline(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChooseTrump(_message.Message):
    __slots__ = ("trump",)
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    trump: _cards_pb2.Suit
    def __init__(self, trump: _Optional[_Union[_cards_pb2.Suit, str]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("play", "declare_up", "declare_down", "open_auction", "ultimatum", "forfeit", "bid", "accept", "decline", "choose_trump")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    DECLARE_UP_FIELD_NUMBER: _ClassVar[int]
    DECLARE_DOWN_FIELD_NUMBER: _ClassVar[int]
    OPEN_AUCTION_FIELD_NUMBER: _ClassVar[int]
    ULTIMATUM_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    DECLINE_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_TRUMP_FIELD_NUMBER: _ClassVar[int]
    play: Play
    declare_up: DeclareUp
    declare_down: DeclareDown
    open_auction: OpenAuction
    ultimatum: Ultimatum
    forfeit: Forfeit
    bid: Bid
    accept: Accept
    decline: Decline
    choose_trump: ChooseTrump
    def __init__(self, play: _Optional[_Union[Play, _Mapping]] = ..., declare_up: _Optional[_Union[DeclareUp, _Mapping]] = ..., declare_down: _Optional[_Union[DeclareDown, _Mapping]] = ..., open_auction: _Optional[_Union[OpenAuction, _Mapping]] = ..., ultimatum: _Optional[_Union[Ultimatum, _Mapping]] = ..., forfeit: _Optional[_Union[Forfeit, _Mapping]] = ..., bid: _Optional[_Union[Bid, _Mapping]] = ..., accept: _Optional[_Union[Accept, _Mapping]] = ..., decline: _Optional[_Union[Decline, _Mapping]] = ..., choose_trump: _Optional[_Union[ChooseTrump, _Mapping]] = ..., **kwargs) -> None: ...

class FirstDealerDrawn(_message.Message):
    __slots__ = ("cards", "dealer")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    dealer: int
    def __init__(self, cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., dealer: _Optional[int] = ...) -> None: ...

class HandStarted(_message.Message):
    __slots__ = ("hand", "kind", "dealer")
    HAND_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    hand: int
    kind: HandKind
    dealer: int
    def __init__(self, hand: _Optional[int] = ..., kind: _Optional[_Union[HandKind, str]] = ..., dealer: _Optional[int] = ...) -> None: ...

class CardsDealt(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class BeneficiaryChose(_message.Message):
    __slots__ = ("seat", "choice")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    choice: Choice
    def __init__(self, seat: _Optional[int] = ..., choice: _Optional[_Union[Choice, str]] = ...) -> None: ...

class BidMade(_message.Message):
    __slots__ = ("seat", "n", "direction", "value", "matched")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    MATCHED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    n: int
    direction: Direction
    value: int
    matched: bool
    def __init__(self, seat: _Optional[int] = ..., n: _Optional[int] = ..., direction: _Optional[_Union[Direction, str]] = ..., value: _Optional[int] = ..., matched: _Optional[bool] = ...) -> None: ...

class Passed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class AuctionClosed(_message.Message):
    __slots__ = ("holder", "n", "direction")
    HOLDER_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    holder: int
    n: int
    direction: Direction
    def __init__(self, holder: _Optional[int] = ..., n: _Optional[int] = ..., direction: _Optional[_Union[Direction, str]] = ...) -> None: ...

class ContractSet(_message.Message):
    __slots__ = ("declarer", "mode", "trump", "sold_to", "price")
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    SOLD_TO_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    declarer: int
    mode: Mode
    trump: _cards_pb2.Suit
    sold_to: int
    price: int
    def __init__(self, declarer: _Optional[int] = ..., mode: _Optional[_Union[Mode, str]] = ..., trump: _Optional[_Union[_cards_pb2.Suit, str]] = ..., sold_to: _Optional[int] = ..., price: _Optional[int] = ...) -> None: ...

class CardPlayed(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class TrickTaken(_message.Message):
    __slots__ = ("trick", "winner", "cards", "points")
    TRICK_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    trick: int
    winner: int
    cards: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    points: int
    def __init__(self, trick: _Optional[int] = ..., winner: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., points: _Optional[int] = ...) -> None: ...

class HandScored(_message.Message):
    __slots__ = ("hand", "kind", "scores", "totals")
    HAND_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    hand: int
    kind: HandKind
    scores: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hand: _Optional[int] = ..., kind: _Optional[_Union[HandKind, str]] = ..., scores: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("totals", "ranks")
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, totals: _Optional[_Iterable[int]] = ..., ranks: _Optional[_Iterable[int]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("hand_started", "cards_dealt", "beneficiary_chose", "bid_made", "passed", "auction_closed", "contract_set", "card_played", "trick_taken", "hand_scored", "match_ended", "first_dealer_drawn")
    HAND_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARDS_DEALT_FIELD_NUMBER: _ClassVar[int]
    BENEFICIARY_CHOSE_FIELD_NUMBER: _ClassVar[int]
    BID_MADE_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    AUCTION_CLOSED_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_SET_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    TRICK_TAKEN_FIELD_NUMBER: _ClassVar[int]
    HAND_SCORED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    FIRST_DEALER_DRAWN_FIELD_NUMBER: _ClassVar[int]
    hand_started: HandStarted
    cards_dealt: CardsDealt
    beneficiary_chose: BeneficiaryChose
    bid_made: BidMade
    passed: Passed
    auction_closed: AuctionClosed
    contract_set: ContractSet
    card_played: CardPlayed
    trick_taken: TrickTaken
    hand_scored: HandScored
    match_ended: MatchEnded
    first_dealer_drawn: FirstDealerDrawn
    def __init__(self, hand_started: _Optional[_Union[HandStarted, _Mapping]] = ..., cards_dealt: _Optional[_Union[CardsDealt, _Mapping]] = ..., beneficiary_chose: _Optional[_Union[BeneficiaryChose, _Mapping]] = ..., bid_made: _Optional[_Union[BidMade, _Mapping]] = ..., passed: _Optional[_Union[Passed, _Mapping]] = ..., auction_closed: _Optional[_Union[AuctionClosed, _Mapping]] = ..., contract_set: _Optional[_Union[ContractSet, _Mapping]] = ..., card_played: _Optional[_Union[CardPlayed, _Mapping]] = ..., trick_taken: _Optional[_Union[TrickTaken, _Mapping]] = ..., hand_scored: _Optional[_Union[HandScored, _Mapping]] = ..., match_ended: _Optional[_Union[MatchEnded, _Mapping]] = ..., first_dealer_drawn: _Optional[_Union[FirstDealerDrawn, _Mapping]] = ...) -> None: ...
