from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class KSuit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    K_SUIT_NONE: _ClassVar[KSuit]
    K_SUIT_KNIVES: _ClassVar[KSuit]
    K_SUIT_SPADES: _ClassVar[KSuit]
    K_SUIT_CLUBS: _ClassVar[KSuit]
    K_SUIT_DIAMONDS: _ClassVar[KSuit]
    K_SUIT_HEARTS: _ClassVar[KSuit]

class KRank(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    K_RANK_JOKER: _ClassVar[KRank]
    K_RANK_TWO: _ClassVar[KRank]
    K_RANK_THREE: _ClassVar[KRank]
    K_RANK_FOUR: _ClassVar[KRank]
    K_RANK_FIVE: _ClassVar[KRank]
    K_RANK_SIX: _ClassVar[KRank]
    K_RANK_SEVEN: _ClassVar[KRank]
    K_RANK_ACE: _ClassVar[KRank]
    K_RANK_GHOST: _ClassVar[KRank]
    K_RANK_THIEF: _ClassVar[KRank]
    K_RANK_MAID: _ClassVar[KRank]
    K_RANK_JACK: _ClassVar[KRank]
    K_RANK_QUEEN: _ClassVar[KRank]
    K_RANK_KING: _ClassVar[KRank]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_DECLARE: _ClassVar[Phase]
    PHASE_CHOOSE: _ClassVar[Phase]
    PHASE_BANK: _ClassVar[Phase]
    PHASE_SOLO: _ClassVar[Phase]
    PHASE_MODE: _ClassVar[Phase]
    PHASE_REVEAL: _ClassVar[Phase]
    PHASE_PLAY: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]

class KMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    K_MODE_UNSPECIFIED: _ClassVar[KMode]
    K_MODE_BANKER: _ClassVar[KMode]
    K_MODE_LEASTER: _ClassVar[KMode]
    K_MODE_MOSTER: _ClassVar[KMode]

class CallKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CALL_KIND_UNSPECIFIED: _ClassVar[CallKind]
    CALL_KIND_DECLARE: _ClassVar[CallKind]
    CALL_KIND_PICK: _ClassVar[CallKind]
    CALL_KIND_PASS: _ClassVar[CallKind]
K_SUIT_NONE: KSuit
K_SUIT_KNIVES: KSuit
K_SUIT_SPADES: KSuit
K_SUIT_CLUBS: KSuit
K_SUIT_DIAMONDS: KSuit
K_SUIT_HEARTS: KSuit
K_RANK_JOKER: KRank
K_RANK_TWO: KRank
K_RANK_THREE: KRank
K_RANK_FOUR: KRank
K_RANK_FIVE: KRank
K_RANK_SIX: KRank
K_RANK_SEVEN: KRank
K_RANK_ACE: KRank
K_RANK_GHOST: KRank
K_RANK_THIEF: KRank
K_RANK_MAID: KRank
K_RANK_JACK: KRank
K_RANK_QUEEN: KRank
K_RANK_KING: KRank
PHASE_UNSPECIFIED: Phase
PHASE_DECLARE: Phase
PHASE_CHOOSE: Phase
PHASE_BANK: Phase
PHASE_SOLO: Phase
PHASE_MODE: Phase
PHASE_REVEAL: Phase
PHASE_PLAY: Phase
PHASE_OVER: Phase
K_MODE_UNSPECIFIED: KMode
K_MODE_BANKER: KMode
K_MODE_LEASTER: KMode
K_MODE_MOSTER: KMode
CALL_KIND_UNSPECIFIED: CallKind
CALL_KIND_DECLARE: CallKind
CALL_KIND_PICK: CallKind
CALL_KIND_PASS: CallKind

class KnivesCard(_message.Message):
    __slots__ = ("suit", "rank")
    SUIT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    suit: KSuit
    rank: KRank
    def __init__(self, suit: _Optional[_Union[KSuit, str]] = ..., rank: _Optional[_Union[KRank, str]] = ...) -> None: ...

class Call(_message.Message):
    __slots__ = ("seat", "kind", "suit")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: CallKind
    suit: KSuit
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[CallKind, str]] = ..., suit: _Optional[_Union[KSuit, str]] = ...) -> None: ...

class Trick(_message.Message):
    __slots__ = ("leader", "seats", "cards", "winner", "next_leader")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    NEXT_LEADER_FIELD_NUMBER: _ClassVar[int]
    leader: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    cards: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    winner: int
    next_leader: int
    def __init__(self, leader: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., cards: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ..., winner: _Optional[int] = ..., next_leader: _Optional[int] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "hand_index", "dealer", "phase", "to_act", "hand", "hand_sizes", "bank_size", "bank_seen", "banked", "revealed", "strong", "calls", "banker", "announcement", "is_shadow", "ghost_played_by", "mode", "trick_leader", "trick_seats", "trick_cards", "tricks", "stars_taken", "totals")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_INDEX_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    BANK_SIZE_FIELD_NUMBER: _ClassVar[int]
    BANK_SEEN_FIELD_NUMBER: _ClassVar[int]
    BANKED_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    STRONG_FIELD_NUMBER: _ClassVar[int]
    CALLS_FIELD_NUMBER: _ClassVar[int]
    BANKER_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENT_FIELD_NUMBER: _ClassVar[int]
    IS_SHADOW_FIELD_NUMBER: _ClassVar[int]
    GHOST_PLAYED_BY_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TRICK_LEADER_FIELD_NUMBER: _ClassVar[int]
    TRICK_SEATS_FIELD_NUMBER: _ClassVar[int]
    TRICK_CARDS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    STARS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_index: int
    dealer: int
    phase: Phase
    to_act: int
    hand: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    bank_size: int
    bank_seen: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    banked: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    revealed: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    strong: KSuit
    calls: _containers.RepeatedCompositeFieldContainer[Call]
    banker: int
    announcement: bool
    is_shadow: bool
    ghost_played_by: int
    mode: KMode
    trick_leader: int
    trick_seats: _containers.RepeatedScalarFieldContainer[int]
    trick_cards: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    stars_taken: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., hand_index: _Optional[int] = ..., dealer: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., bank_size: _Optional[int] = ..., bank_seen: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ..., banked: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ..., revealed: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ..., strong: _Optional[_Union[KSuit, str]] = ..., calls: _Optional[_Iterable[_Union[Call, _Mapping]]] = ..., banker: _Optional[int] = ..., announcement: _Optional[bool] = ..., is_shadow: _Optional[bool] = ..., ghost_played_by: _Optional[int] = ..., mode: _Optional[_Union[KMode, str]] = ..., trick_leader: _Optional[int] = ..., trick_seats: _Optional[_Iterable[int]] = ..., trick_cards: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., stars_taken: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class Declare(_message.Message):
    __slots__ = ("suit",)
    SUIT_FIELD_NUMBER: _ClassVar[int]
    suit: KSuit
    def __init__(self, suit: _Optional[_Union[KSuit, str]] = ...) -> None: ...

class Pick(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Pass(_message.Message):
    __slots__ = ("suit",)
    SUIT_FIELD_NUMBER: _ClassVar[int]
    suit: KSuit
    def __init__(self, suit: _Optional[_Union[KSuit, str]] = ...) -> None: ...

class Bank(_message.Message):
    __slots__ = ("first", "second")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    first: KnivesCard
    second: KnivesCard
    def __init__(self, first: _Optional[_Union[KnivesCard, _Mapping]] = ..., second: _Optional[_Union[KnivesCard, _Mapping]] = ...) -> None: ...

class AnnounceSolo(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class NoAnnouncement(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Leaster(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Moster(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Reveal(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    def __init__(self, cards: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: KnivesCard
    def __init__(self, card: _Optional[_Union[KnivesCard, _Mapping]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("declare", "pick", "bank", "announce_solo", "no_announcement", "leaster", "moster", "reveal", "play")
    DECLARE_FIELD_NUMBER: _ClassVar[int]
    PICK_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    BANK_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCE_SOLO_FIELD_NUMBER: _ClassVar[int]
    NO_ANNOUNCEMENT_FIELD_NUMBER: _ClassVar[int]
    LEASTER_FIELD_NUMBER: _ClassVar[int]
    MOSTER_FIELD_NUMBER: _ClassVar[int]
    REVEAL_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    declare: Declare
    pick: Pick
    bank: Bank
    announce_solo: AnnounceSolo
    no_announcement: NoAnnouncement
    leaster: Leaster
    moster: Moster
    reveal: Reveal
    play: Play
    def __init__(self, declare: _Optional[_Union[Declare, _Mapping]] = ..., pick: _Optional[_Union[Pick, _Mapping]] = ..., bank: _Optional[_Union[Bank, _Mapping]] = ..., announce_solo: _Optional[_Union[AnnounceSolo, _Mapping]] = ..., no_announcement: _Optional[_Union[NoAnnouncement, _Mapping]] = ..., leaster: _Optional[_Union[Leaster, _Mapping]] = ..., moster: _Optional[_Union[Moster, _Mapping]] = ..., reveal: _Optional[_Union[Reveal, _Mapping]] = ..., play: _Optional[_Union[Play, _Mapping]] = ..., **kwargs) -> None: ...

class HandStarted(_message.Message):
    __slots__ = ("hand", "dealer")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    hand: int
    dealer: int
    def __init__(self, hand: _Optional[int] = ..., dealer: _Optional[int] = ...) -> None: ...

class CardsDealt(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ...) -> None: ...

class Declared(_message.Message):
    __slots__ = ("seat", "suit")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    suit: KSuit
    def __init__(self, seat: _Optional[int] = ..., suit: _Optional[_Union[KSuit, str]] = ...) -> None: ...

class Picked(_message.Message):
    __slots__ = ("seat", "strong")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STRONG_FIELD_NUMBER: _ClassVar[int]
    seat: int
    strong: KSuit
    def __init__(self, seat: _Optional[int] = ..., strong: _Optional[_Union[KSuit, str]] = ...) -> None: ...

class Passed(_message.Message):
    __slots__ = ("seat", "suit")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    suit: KSuit
    def __init__(self, seat: _Optional[int] = ..., suit: _Optional[_Union[KSuit, str]] = ...) -> None: ...

class BankTaken(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ...) -> None: ...

class Banked(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ...) -> None: ...

class Announced(_message.Message):
    __slots__ = ("seat", "solo")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SOLO_FIELD_NUMBER: _ClassVar[int]
    seat: int
    solo: bool
    def __init__(self, seat: _Optional[int] = ..., solo: _Optional[bool] = ...) -> None: ...

class ModeChosen(_message.Message):
    __slots__ = ("seat", "mode")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    mode: KMode
    def __init__(self, seat: _Optional[int] = ..., mode: _Optional[_Union[KMode, str]] = ...) -> None: ...

class BankSeen(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ...) -> None: ...

class BankRevealed(_message.Message):
    __slots__ = ("seat", "cards", "hidden")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    hidden: int
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ..., hidden: _Optional[int] = ...) -> None: ...

class CardPlayed(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: KnivesCard
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[KnivesCard, _Mapping]] = ...) -> None: ...

class TrickTaken(_message.Message):
    __slots__ = ("trick", "winner", "cards", "stars", "next_leader")
    TRICK_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    STARS_FIELD_NUMBER: _ClassVar[int]
    NEXT_LEADER_FIELD_NUMBER: _ClassVar[int]
    trick: int
    winner: int
    cards: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    stars: int
    next_leader: int
    def __init__(self, trick: _Optional[int] = ..., winner: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ..., stars: _Optional[int] = ..., next_leader: _Optional[int] = ...) -> None: ...

class HandScored(_message.Message):
    __slots__ = ("hand", "mode", "banker", "shadow", "solo", "banked", "team_stars", "stars", "points", "totals")
    HAND_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    BANKER_FIELD_NUMBER: _ClassVar[int]
    SHADOW_FIELD_NUMBER: _ClassVar[int]
    SOLO_FIELD_NUMBER: _ClassVar[int]
    BANKED_FIELD_NUMBER: _ClassVar[int]
    TEAM_STARS_FIELD_NUMBER: _ClassVar[int]
    STARS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    hand: int
    mode: KMode
    banker: int
    shadow: int
    solo: bool
    banked: _containers.RepeatedCompositeFieldContainer[KnivesCard]
    team_stars: int
    stars: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hand: _Optional[int] = ..., mode: _Optional[_Union[KMode, str]] = ..., banker: _Optional[int] = ..., shadow: _Optional[int] = ..., solo: _Optional[bool] = ..., banked: _Optional[_Iterable[_Union[KnivesCard, _Mapping]]] = ..., team_stars: _Optional[int] = ..., stars: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("totals", "ranks")
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, totals: _Optional[_Iterable[int]] = ..., ranks: _Optional[_Iterable[int]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("hand_started", "cards_dealt", "declared", "picked", "passed", "bank_taken", "banked", "announced", "mode_chosen", "bank_seen", "bank_revealed", "card_played", "trick_taken", "hand_scored", "match_ended")
    HAND_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARDS_DEALT_FIELD_NUMBER: _ClassVar[int]
    DECLARED_FIELD_NUMBER: _ClassVar[int]
    PICKED_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    BANK_TAKEN_FIELD_NUMBER: _ClassVar[int]
    BANKED_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCED_FIELD_NUMBER: _ClassVar[int]
    MODE_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    BANK_SEEN_FIELD_NUMBER: _ClassVar[int]
    BANK_REVEALED_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    TRICK_TAKEN_FIELD_NUMBER: _ClassVar[int]
    HAND_SCORED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    hand_started: HandStarted
    cards_dealt: CardsDealt
    declared: Declared
    picked: Picked
    passed: Passed
    bank_taken: BankTaken
    banked: Banked
    announced: Announced
    mode_chosen: ModeChosen
    bank_seen: BankSeen
    bank_revealed: BankRevealed
    card_played: CardPlayed
    trick_taken: TrickTaken
    hand_scored: HandScored
    match_ended: MatchEnded
    def __init__(self, hand_started: _Optional[_Union[HandStarted, _Mapping]] = ..., cards_dealt: _Optional[_Union[CardsDealt, _Mapping]] = ..., declared: _Optional[_Union[Declared, _Mapping]] = ..., picked: _Optional[_Union[Picked, _Mapping]] = ..., passed: _Optional[_Union[Passed, _Mapping]] = ..., bank_taken: _Optional[_Union[BankTaken, _Mapping]] = ..., banked: _Optional[_Union[Banked, _Mapping]] = ..., announced: _Optional[_Union[Announced, _Mapping]] = ..., mode_chosen: _Optional[_Union[ModeChosen, _Mapping]] = ..., bank_seen: _Optional[_Union[BankSeen, _Mapping]] = ..., bank_revealed: _Optional[_Union[BankRevealed, _Mapping]] = ..., card_played: _Optional[_Union[CardPlayed, _Mapping]] = ..., trick_taken: _Optional[_Union[TrickTaken, _Mapping]] = ..., hand_scored: _Optional[_Union[HandScored, _Mapping]] = ..., match_ended: _Optional[_Union[MatchEnded, _Mapping]] = ...) -> None: ...
