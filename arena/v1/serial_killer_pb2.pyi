from arena.v1 import cards_pb2 as _cards_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_JACK_DRAWN: _ClassVar[Phase]
    PHASE_ACE_DRAWN: _ClassVar[Phase]
    PHASE_END_OF_TURN: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]

class ClueReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLUE_REASON_UNSPECIFIED: _ClassVar[ClueReason]
    CLUE_REASON_PENALTY: _ClassVar[ClueReason]
    CLUE_REASON_INFORMED: _ClassVar[ClueReason]
    CLUE_REASON_DISCREDITED: _ClassVar[ClueReason]

class EndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    END_REASON_UNSPECIFIED: _ClassVar[EndReason]
    END_REASON_LAST_KILLER: _ClassVar[EndReason]
    END_REASON_TURN_CAP: _ClassVar[EndReason]
PHASE_UNSPECIFIED: Phase
PHASE_JACK_DRAWN: Phase
PHASE_ACE_DRAWN: Phase
PHASE_END_OF_TURN: Phase
PHASE_OVER: Phase
CLUE_REASON_UNSPECIFIED: ClueReason
CLUE_REASON_PENALTY: ClueReason
CLUE_REASON_INFORMED: ClueReason
CLUE_REASON_DISCREDITED: ClueReason
END_REASON_UNSPECIFIED: EndReason
END_REASON_LAST_KILLER: EndReason
END_REASON_TURN_CAP: EndReason

class Observation(_message.Message):
    __slots__ = ("seat", "players", "to_act", "phase", "first_player", "turn", "graves", "held", "set_aside", "clues", "arrested", "arrest_order", "police_pile", "stack_size", "targets", "current_grave", "drawn_card", "killed_this_turn", "max_turns")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    GRAVES_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_FIELD_NUMBER: _ClassVar[int]
    CLUES_FIELD_NUMBER: _ClassVar[int]
    ARRESTED_FIELD_NUMBER: _ClassVar[int]
    ARREST_ORDER_FIELD_NUMBER: _ClassVar[int]
    POLICE_PILE_FIELD_NUMBER: _ClassVar[int]
    STACK_SIZE_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_GRAVE_FIELD_NUMBER: _ClassVar[int]
    DRAWN_CARD_FIELD_NUMBER: _ClassVar[int]
    KILLED_THIS_TURN_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    to_act: int
    phase: Phase
    first_player: int
    turn: int
    graves: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Cards]
    held: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Cards]
    set_aside: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    clues: _containers.RepeatedScalarFieldContainer[int]
    arrested: _containers.RepeatedScalarFieldContainer[bool]
    arrest_order: _containers.RepeatedScalarFieldContainer[int]
    police_pile: int
    stack_size: int
    targets: _containers.RepeatedScalarFieldContainer[int]
    current_grave: int
    drawn_card: _cards_pb2.Card
    killed_this_turn: bool
    max_turns: int
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., to_act: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., first_player: _Optional[int] = ..., turn: _Optional[int] = ..., graves: _Optional[_Iterable[_Union[_cards_pb2.Cards, _Mapping]]] = ..., held: _Optional[_Iterable[_Union[_cards_pb2.Cards, _Mapping]]] = ..., set_aside: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ..., clues: _Optional[_Iterable[int]] = ..., arrested: _Optional[_Iterable[bool]] = ..., arrest_order: _Optional[_Iterable[int]] = ..., police_pile: _Optional[int] = ..., stack_size: _Optional[int] = ..., targets: _Optional[_Iterable[int]] = ..., current_grave: _Optional[int] = ..., drawn_card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., killed_this_turn: _Optional[bool] = ..., max_turns: _Optional[int] = ...) -> None: ...

class BuryNow(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Hold(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class InformNow(_message.Message):
    __slots__ = ("grave", "target")
    GRAVE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    grave: int
    target: int
    def __init__(self, grave: _Optional[int] = ..., target: _Optional[int] = ...) -> None: ...

class PlayCorpse(_message.Message):
    __slots__ = ("card", "grave")
    CARD_FIELD_NUMBER: _ClassVar[int]
    GRAVE_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    grave: int
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., grave: _Optional[int] = ...) -> None: ...

class PlayInformant(_message.Message):
    __slots__ = ("card", "grave", "target")
    CARD_FIELD_NUMBER: _ClassVar[int]
    GRAVE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    card: _cards_pb2.Card
    grave: int
    target: int
    def __init__(self, card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., grave: _Optional[int] = ..., target: _Optional[int] = ...) -> None: ...

class EndTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Action(_message.Message):
    __slots__ = ("bury_now", "hold", "inform_now", "play_corpse", "play_informant", "end_turn")
    BURY_NOW_FIELD_NUMBER: _ClassVar[int]
    HOLD_FIELD_NUMBER: _ClassVar[int]
    INFORM_NOW_FIELD_NUMBER: _ClassVar[int]
    PLAY_CORPSE_FIELD_NUMBER: _ClassVar[int]
    PLAY_INFORMANT_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    bury_now: BuryNow
    hold: Hold
    inform_now: InformNow
    play_corpse: PlayCorpse
    play_informant: PlayInformant
    end_turn: EndTurn
    def __init__(self, bury_now: _Optional[_Union[BuryNow, _Mapping]] = ..., hold: _Optional[_Union[Hold, _Mapping]] = ..., inform_now: _Optional[_Union[InformNow, _Mapping]] = ..., play_corpse: _Optional[_Union[PlayCorpse, _Mapping]] = ..., play_informant: _Optional[_Union[PlayInformant, _Mapping]] = ..., end_turn: _Optional[_Union[EndTurn, _Mapping]] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("players", "first_player", "clues")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    CLUES_FIELD_NUMBER: _ClassVar[int]
    players: int
    first_player: int
    clues: int
    def __init__(self, players: _Optional[int] = ..., first_player: _Optional[int] = ..., clues: _Optional[int] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("seat", "turn", "graves")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    GRAVES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    graves: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ..., graves: _Optional[_Iterable[int]] = ...) -> None: ...

class Drew(_message.Message):
    __slots__ = ("seat", "card", "grave")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    GRAVE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    grave: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., grave: _Optional[int] = ...) -> None: ...

class Placed(_message.Message):
    __slots__ = ("seat", "card", "grave", "closed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    GRAVE_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    grave: int
    closed: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., grave: _Optional[int] = ..., closed: _Optional[bool] = ...) -> None: ...

class Held(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ...) -> None: ...

class InformantPlayed(_message.Message):
    __slots__ = ("seat", "card", "grave", "target")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    GRAVE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: _cards_pb2.Card
    grave: int
    target: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[_cards_pb2.Card, _Mapping]] = ..., grave: _Optional[int] = ..., target: _Optional[int] = ...) -> None: ...

class CluesChanged(_message.Message):
    __slots__ = ("seat", "change", "clues", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CHANGE_FIELD_NUMBER: _ClassVar[int]
    CLUES_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    change: int
    clues: int
    reason: ClueReason
    def __init__(self, seat: _Optional[int] = ..., change: _Optional[int] = ..., clues: _Optional[int] = ..., reason: _Optional[_Union[ClueReason, str]] = ...) -> None: ...

class Arrested(_message.Message):
    __slots__ = ("seat", "set_aside")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    set_aside: _containers.RepeatedCompositeFieldContainer[_cards_pb2.Card]
    def __init__(self, seat: _Optional[int] = ..., set_aside: _Optional[_Iterable[_Union[_cards_pb2.Card, _Mapping]]] = ...) -> None: ...

class TurnEnded(_message.Message):
    __slots__ = ("seat", "killed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KILLED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    killed: bool
    def __init__(self, seat: _Optional[int] = ..., killed: _Optional[bool] = ...) -> None: ...

class Reshuffled(_message.Message):
    __slots__ = ("stack_size",)
    STACK_SIZE_FIELD_NUMBER: _ClassVar[int]
    stack_size: int
    def __init__(self, stack_size: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("reason", "clues", "winner")
    REASON_FIELD_NUMBER: _ClassVar[int]
    CLUES_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    reason: EndReason
    clues: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    def __init__(self, reason: _Optional[_Union[EndReason, str]] = ..., clues: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("game_started", "turn_started", "drew", "placed", "held", "informant_played", "clues_changed", "arrested", "turn_ended", "reshuffled", "game_ended")
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    DREW_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    INFORMANT_PLAYED_FIELD_NUMBER: _ClassVar[int]
    CLUES_CHANGED_FIELD_NUMBER: _ClassVar[int]
    ARRESTED_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    game_started: GameStarted
    turn_started: TurnStarted
    drew: Drew
    placed: Placed
    held: Held
    informant_played: InformantPlayed
    clues_changed: CluesChanged
    arrested: Arrested
    turn_ended: TurnEnded
    reshuffled: Reshuffled
    game_ended: GameEnded
    def __init__(self, game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., drew: _Optional[_Union[Drew, _Mapping]] = ..., placed: _Optional[_Union[Placed, _Mapping]] = ..., held: _Optional[_Union[Held, _Mapping]] = ..., informant_played: _Optional[_Union[InformantPlayed, _Mapping]] = ..., clues_changed: _Optional[_Union[CluesChanged, _Mapping]] = ..., arrested: _Optional[_Union[Arrested, _Mapping]] = ..., turn_ended: _Optional[_Union[TurnEnded, _Mapping]] = ..., reshuffled: _Optional[_Union[Reshuffled, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ...) -> None: ...
