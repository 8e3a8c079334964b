from arena.v1 import face_card_kill_card_pb2 as _face_card_kill_card_pb2
from arena.v1 import kill_pb2 as _kill_pb2
from arena.v1 import serial_killer_pb2 as _serial_killer_pb2
from arena.v1 import king_pb2 as _king_pb2
from arena.v1 import kings_corner_pb2 as _kings_corner_pb2
from arena.v1 import knives_pb2 as _knives_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Fault(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FAULT_NONE: _ClassVar[Fault]
    FAULT_TIMEOUT: _ClassVar[Fault]
    FAULT_DISCONNECTED: _ClassVar[Fault]
    FAULT_CRASHED: _ClassVar[Fault]
    FAULT_ILLEGAL_ACTION: _ClassVar[Fault]
    FAULT_MALFORMED: _ClassVar[Fault]
    FAULT_NO_SHOW: _ClassVar[Fault]
    FAULT_ERROR: _ClassVar[Fault]
FAULT_NONE: Fault
FAULT_TIMEOUT: Fault
FAULT_DISCONNECTED: Fault
FAULT_CRASHED: Fault
FAULT_ILLEGAL_ACTION: Fault
FAULT_MALFORMED: Fault
FAULT_NO_SHOW: Fault
FAULT_ERROR: Fault

class GameObservation(_message.Message):
    __slots__ = ("face_card_kill_card", "kill", "serial_killer", "king", "kings_corner", "knives")
    FACE_CARD_KILL_CARD_FIELD_NUMBER: _ClassVar[int]
    KILL_FIELD_NUMBER: _ClassVar[int]
    SERIAL_KILLER_FIELD_NUMBER: _ClassVar[int]
    KING_FIELD_NUMBER: _ClassVar[int]
    KINGS_CORNER_FIELD_NUMBER: _ClassVar[int]
    KNIVES_FIELD_NUMBER: _ClassVar[int]
    face_card_kill_card: _face_card_kill_card_pb2.Observation
    kill: _kill_pb2.Observation
    serial_killer: _serial_killer_pb2.Observation
    king: _king_pb2.Observation
    kings_corner: _kings_corner_pb2.Observation
    knives: _knives_pb2.Observation
    def __init__(self, face_card_kill_card: _Optional[_Union[_face_card_kill_card_pb2.Observation, _Mapping]] = ..., kill: _Optional[_Union[_kill_pb2.Observation, _Mapping]] = ..., serial_killer: _Optional[_Union[_serial_killer_pb2.Observation, _Mapping]] = ..., king: _Optional[_Union[_king_pb2.Observation, _Mapping]] = ..., kings_corner: _Optional[_Union[_kings_corner_pb2.Observation, _Mapping]] = ..., knives: _Optional[_Union[_knives_pb2.Observation, _Mapping]] = ...) -> None: ...

class GameAction(_message.Message):
    __slots__ = ("face_card_kill_card", "kill", "serial_killer", "king", "kings_corner", "knives")
    FACE_CARD_KILL_CARD_FIELD_NUMBER: _ClassVar[int]
    KILL_FIELD_NUMBER: _ClassVar[int]
    SERIAL_KILLER_FIELD_NUMBER: _ClassVar[int]
    KING_FIELD_NUMBER: _ClassVar[int]
    KINGS_CORNER_FIELD_NUMBER: _ClassVar[int]
    KNIVES_FIELD_NUMBER: _ClassVar[int]
    face_card_kill_card: _face_card_kill_card_pb2.Action
    kill: _kill_pb2.Action
    serial_killer: _serial_killer_pb2.Action
    king: _king_pb2.Action
    kings_corner: _kings_corner_pb2.Action
    knives: _knives_pb2.Action
    def __init__(self, face_card_kill_card: _Optional[_Union[_face_card_kill_card_pb2.Action, _Mapping]] = ..., kill: _Optional[_Union[_kill_pb2.Action, _Mapping]] = ..., serial_killer: _Optional[_Union[_serial_killer_pb2.Action, _Mapping]] = ..., king: _Optional[_Union[_king_pb2.Action, _Mapping]] = ..., kings_corner: _Optional[_Union[_kings_corner_pb2.Action, _Mapping]] = ..., knives: _Optional[_Union[_knives_pb2.Action, _Mapping]] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("face_card_kill_card", "kill", "serial_killer", "king", "kings_corner", "knives")
    FACE_CARD_KILL_CARD_FIELD_NUMBER: _ClassVar[int]
    KILL_FIELD_NUMBER: _ClassVar[int]
    SERIAL_KILLER_FIELD_NUMBER: _ClassVar[int]
    KING_FIELD_NUMBER: _ClassVar[int]
    KINGS_CORNER_FIELD_NUMBER: _ClassVar[int]
    KNIVES_FIELD_NUMBER: _ClassVar[int]
    face_card_kill_card: _face_card_kill_card_pb2.Event
    kill: _kill_pb2.Event
    serial_killer: _serial_killer_pb2.Event
    king: _king_pb2.Event
    kings_corner: _kings_corner_pb2.Event
    knives: _knives_pb2.Event
    def __init__(self, face_card_kill_card: _Optional[_Union[_face_card_kill_card_pb2.Event, _Mapping]] = ..., kill: _Optional[_Union[_kill_pb2.Event, _Mapping]] = ..., serial_killer: _Optional[_Union[_serial_killer_pb2.Event, _Mapping]] = ..., king: _Optional[_Union[_king_pb2.Event, _Mapping]] = ..., kings_corner: _Optional[_Union[_kings_corner_pb2.Event, _Mapping]] = ..., knives: _Optional[_Union[_knives_pb2.Event, _Mapping]] = ...) -> None: ...

class OptionValue(_message.Message):
    __slots__ = ("int_value", "bool_value", "text_value")
    INT_VALUE_FIELD_NUMBER: _ClassVar[int]
    BOOL_VALUE_FIELD_NUMBER: _ClassVar[int]
    TEXT_VALUE_FIELD_NUMBER: _ClassVar[int]
    int_value: int
    bool_value: bool
    text_value: str
    def __init__(self, int_value: _Optional[int] = ..., bool_value: _Optional[bool] = ..., text_value: _Optional[str] = ...) -> None: ...

class AttendRequest(_message.Message):
    __slots__ = ("token", "client")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    token: str
    client: str
    def __init__(self, token: _Optional[str] = ..., client: _Optional[str] = ...) -> None: ...

class Assignment(_message.Message):
    __slots__ = ("match_id", "seat", "credential", "game")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    credential: str
    game: str
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., credential: _Optional[str] = ..., game: _Optional[str] = ...) -> None: ...

class BotMessage(_message.Message):
    __slots__ = ("hello", "choice", "failure")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    choice: Choice
    failure: Failure
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., choice: _Optional[_Union[Choice, _Mapping]] = ..., failure: _Optional[_Union[Failure, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("credential",)
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    credential: str
    def __init__(self, credential: _Optional[str] = ...) -> None: ...

class Failure(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class Choice(_message.Message):
    __slots__ = ("decision_id", "index", "action", "note")
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    decision_id: int
    index: int
    action: GameAction
    note: str
    def __init__(self, decision_id: _Optional[int] = ..., index: _Optional[int] = ..., action: _Optional[_Union[GameAction, _Mapping]] = ..., note: _Optional[str] = ...) -> None: ...

class RefereeMessage(_message.Message):
    __slots__ = ("start", "decision", "events", "end", "notice")
    START_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    start: MatchStart
    decision: DecisionRequest
    events: Events
    end: MatchEnd
    notice: Notice
    def __init__(self, start: _Optional[_Union[MatchStart, _Mapping]] = ..., decision: _Optional[_Union[DecisionRequest, _Mapping]] = ..., events: _Optional[_Union[Events, _Mapping]] = ..., end: _Optional[_Union[MatchEnd, _Mapping]] = ..., notice: _Optional[_Union[Notice, _Mapping]] = ...) -> None: ...

class MatchStart(_message.Message):
    __slots__ = ("match_id", "game", "game_version", "seat", "players", "options", "seat_names", "move_timeout_s", "time_bank_s")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[OptionValue, _Mapping]] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    GAME_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIMEOUT_S_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_S_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    game_version: int
    seat: int
    players: int
    options: _containers.MessageMap[str, OptionValue]
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    move_timeout_s: float
    time_bank_s: float
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., game_version: _Optional[int] = ..., seat: _Optional[int] = ..., players: _Optional[int] = ..., options: _Optional[_Mapping[str, OptionValue]] = ..., seat_names: _Optional[_Iterable[str]] = ..., move_timeout_s: _Optional[float] = ..., time_bank_s: _Optional[float] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("decision_id", "observation", "legal_actions", "time_left_s", "events")
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_S_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    decision_id: int
    observation: GameObservation
    legal_actions: _containers.RepeatedCompositeFieldContainer[GameAction]
    time_left_s: float
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    def __init__(self, decision_id: _Optional[int] = ..., observation: _Optional[_Union[GameObservation, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[GameAction, _Mapping]]] = ..., time_left_s: _Optional[float] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ...) -> None: ...

class Events(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("scores", "ranks", "faults", "events")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[float]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    faults: _containers.RepeatedScalarFieldContainer[Fault]
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    def __init__(self, scores: _Optional[_Iterable[float]] = ..., ranks: _Optional[_Iterable[int]] = ..., faults: _Optional[_Iterable[_Union[Fault, str]]] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ...) -> None: ...

class Notice(_message.Message):
    __slots__ = ("text", "decision_id")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    text: str
    decision_id: int
    def __init__(self, text: _Optional[str] = ..., decision_id: _Optional[int] = ...) -> None: ...

class BotInfo(_message.Message):
    __slots__ = ("id", "name", "version", "command", "remote", "content_hash", "games", "created_at", "author")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    REMOTE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_HASH_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    version: str
    command: str
    remote: bool
    content_hash: str
    games: _containers.RepeatedScalarFieldContainer[str]
    created_at: str
    author: str
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., version: _Optional[str] = ..., command: _Optional[str] = ..., remote: _Optional[bool] = ..., content_hash: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., created_at: _Optional[str] = ..., author: _Optional[str] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots",)
    BOTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotInfo]
    def __init__(self, bots: _Optional[_Iterable[_Union[BotInfo, _Mapping]]] = ...) -> None: ...

class SubmitBotRequest(_message.Message):
    __slots__ = ("label", "data")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    label: str
    data: bytes
    def __init__(self, label: _Optional[str] = ..., data: _Optional[bytes] = ...) -> None: ...

class SubmitBotResponse(_message.Message):
    __slots__ = ("bot", "new", "files", "size", "build_s")
    BOT_FIELD_NUMBER: _ClassVar[int]
    NEW_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    BUILD_S_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    new: bool
    files: int
    size: int
    build_s: float
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ..., new: _Optional[bool] = ..., files: _Optional[int] = ..., size: _Optional[int] = ..., build_s: _Optional[float] = ...) -> None: ...

class ReadBotLogRequest(_message.Message):
    __slots__ = ("bot", "max_bytes")
    BOT_FIELD_NUMBER: _ClassVar[int]
    MAX_BYTES_FIELD_NUMBER: _ClassVar[int]
    bot: str
    max_bytes: int
    def __init__(self, bot: _Optional[str] = ..., max_bytes: _Optional[int] = ...) -> None: ...

class BotLogFile(_message.Message):
    __slots__ = ("name", "text", "truncated")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    name: str
    text: str
    truncated: bool
    def __init__(self, name: _Optional[str] = ..., text: _Optional[str] = ..., truncated: _Optional[bool] = ...) -> None: ...

class ReadBotLogResponse(_message.Message):
    __slots__ = ("bot", "files")
    BOT_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    bot: str
    files: _containers.RepeatedCompositeFieldContainer[BotLogFile]
    def __init__(self, bot: _Optional[str] = ..., files: _Optional[_Iterable[_Union[BotLogFile, _Mapping]]] = ...) -> None: ...

class TournamentInfo(_message.Message):
    __slots__ = ("id", "game", "status", "players", "matches", "finished", "bots", "format", "void", "created_at", "note", "finished_at", "sprt", "scrimmage")
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    VOID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    SPRT_FIELD_NUMBER: _ClassVar[int]
    SCRIMMAGE_FIELD_NUMBER: _ClassVar[int]
    id: int
    game: str
    status: str
    players: int
    matches: int
    finished: int
    bots: _containers.RepeatedScalarFieldContainer[str]
    format: str
    void: int
    created_at: str
    note: str
    finished_at: str
    sprt: SprtProgress
    scrimmage: bool
    def __init__(self, id: _Optional[int] = ..., game: _Optional[str] = ..., status: _Optional[str] = ..., players: _Optional[int] = ..., matches: _Optional[int] = ..., finished: _Optional[int] = ..., bots: _Optional[_Iterable[str]] = ..., format: _Optional[str] = ..., void: _Optional[int] = ..., created_at: _Optional[str] = ..., note: _Optional[str] = ..., finished_at: _Optional[str] = ..., sprt: _Optional[_Union[SprtProgress, _Mapping]] = ..., scrimmage: _Optional[bool] = ...) -> None: ...

class SprtProgress(_message.Message):
    __slots__ = ("sets", "decision", "llr", "lower", "upper")
    SETS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LLR_FIELD_NUMBER: _ClassVar[int]
    LOWER_FIELD_NUMBER: _ClassVar[int]
    UPPER_FIELD_NUMBER: _ClassVar[int]
    sets: int
    decision: str
    llr: float
    lower: float
    upper: float
    def __init__(self, sets: _Optional[int] = ..., decision: _Optional[str] = ..., llr: _Optional[float] = ..., lower: _Optional[float] = ..., upper: _Optional[float] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments",)
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[TournamentInfo]
    def __init__(self, tournaments: _Optional[_Iterable[_Union[TournamentInfo, _Mapping]]] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("game", "bots", "players", "repetitions", "format", "field", "sets", "sprt", "options", "parallel", "seed", "deals", "deals_from_seed", "move_timeout_s", "start_timeout_s", "time_bank_s", "event_delay_s", "bot_memory", "bot_cpu_seconds", "bot_processes", "bot_cpus", "bot_open_files", "public_notes")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    REPETITIONS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    SPRT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PARALLEL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    DEALS_FROM_SEED_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIMEOUT_S_FIELD_NUMBER: _ClassVar[int]
    START_TIMEOUT_S_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_S_FIELD_NUMBER: _ClassVar[int]
    EVENT_DELAY_S_FIELD_NUMBER: _ClassVar[int]
    BOT_MEMORY_FIELD_NUMBER: _ClassVar[int]
    BOT_CPU_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BOT_PROCESSES_FIELD_NUMBER: _ClassVar[int]
    BOT_CPUS_FIELD_NUMBER: _ClassVar[int]
    BOT_OPEN_FILES_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_NOTES_FIELD_NUMBER: _ClassVar[int]
    game: str
    bots: _containers.RepeatedScalarFieldContainer[str]
    players: int
    repetitions: int
    format: str
    field: _containers.RepeatedScalarFieldContainer[str]
    sets: int
    sprt: str
    options: _containers.ScalarMap[str, str]
    parallel: int
    seed: int
    deals: str
    deals_from_seed: bool
    move_timeout_s: float
    start_timeout_s: float
    time_bank_s: float
    event_delay_s: float
    bot_memory: str
    bot_cpu_seconds: str
    bot_processes: str
    bot_cpus: str
    bot_open_files: str
    public_notes: bool
    def __init__(self, game: _Optional[str] = ..., bots: _Optional[_Iterable[str]] = ..., players: _Optional[int] = ..., repetitions: _Optional[int] = ..., format: _Optional[str] = ..., field: _Optional[_Iterable[str]] = ..., sets: _Optional[int] = ..., sprt: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., parallel: _Optional[int] = ..., seed: _Optional[int] = ..., deals: _Optional[str] = ..., deals_from_seed: _Optional[bool] = ..., move_timeout_s: _Optional[float] = ..., start_timeout_s: _Optional[float] = ..., time_bank_s: _Optional[float] = ..., event_delay_s: _Optional[float] = ..., bot_memory: _Optional[str] = ..., bot_cpu_seconds: _Optional[str] = ..., bot_processes: _Optional[str] = ..., bot_cpus: _Optional[str] = ..., bot_open_files: _Optional[str] = ..., public_notes: _Optional[bool] = ...) -> None: ...

class ScrimmageRequest(_message.Message):
    __slots__ = ("game", "bots", "against", "sets", "sprt")
    GAME_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    AGAINST_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    SPRT_FIELD_NUMBER: _ClassVar[int]
    game: str
    bots: _containers.RepeatedScalarFieldContainer[str]
    against: _containers.RepeatedScalarFieldContainer[str]
    sets: int
    sprt: str
    def __init__(self, game: _Optional[str] = ..., bots: _Optional[_Iterable[str]] = ..., against: _Optional[_Iterable[str]] = ..., sets: _Optional[int] = ..., sprt: _Optional[str] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: int
    def __init__(self, tournament_id: _Optional[int] = ...) -> None: ...

class TournamentReport(_message.Message):
    __slots__ = ("tournament", "report_json")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    REPORT_JSON_FIELD_NUMBER: _ClassVar[int]
    tournament: TournamentInfo
    report_json: str
    def __init__(self, tournament: _Optional[_Union[TournamentInfo, _Mapping]] = ..., report_json: _Optional[str] = ...) -> None: ...

class CancelTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: int
    def __init__(self, tournament_id: _Optional[int] = ...) -> None: ...

class CancelTournamentResponse(_message.Message):
    __slots__ = ("voided",)
    VOIDED_FIELD_NUMBER: _ClassVar[int]
    voided: int
    def __init__(self, voided: _Optional[int] = ...) -> None: ...

class VoidTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: int
    def __init__(self, tournament_id: _Optional[int] = ...) -> None: ...

class VoidTournamentResponse(_message.Message):
    __slots__ = ("counted",)
    COUNTED_FIELD_NUMBER: _ClassVar[int]
    counted: int
    def __init__(self, counted: _Optional[int] = ...) -> None: ...

class ResumeTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: int
    def __init__(self, tournament_id: _Optional[int] = ...) -> None: ...

class ExportTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "format")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    tournament_id: int
    format: str
    def __init__(self, tournament_id: _Optional[int] = ..., format: _Optional[str] = ...) -> None: ...

class ExportChunk(_message.Message):
    __slots__ = ("data", "matches")
    DATA_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    data: bytes
    matches: int
    def __init__(self, data: _Optional[bytes] = ..., matches: _Optional[int] = ...) -> None: ...

class GetLadderRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class LadderVersion(_message.Message):
    __slots__ = ("bot", "mu", "sigma", "matches", "suspended")
    BOT_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    SUSPENDED_FIELD_NUMBER: _ClassVar[int]
    bot: str
    mu: float
    sigma: float
    matches: int
    suspended: str
    def __init__(self, bot: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., matches: _Optional[int] = ..., suspended: _Optional[str] = ...) -> None: ...

class Ladder(_message.Message):
    __slots__ = ("id", "game", "status", "matches", "versions")
    ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    id: int
    game: str
    status: str
    matches: int
    versions: _containers.RepeatedCompositeFieldContainer[LadderVersion]
    def __init__(self, id: _Optional[int] = ..., game: _Optional[str] = ..., status: _Optional[str] = ..., matches: _Optional[int] = ..., versions: _Optional[_Iterable[_Union[LadderVersion, _Mapping]]] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("match_id", "all_hands")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ALL_HANDS_FIELD_NUMBER: _ClassVar[int]
    match_id: int
    all_hands: bool
    def __init__(self, match_id: _Optional[int] = ..., all_hands: _Optional[bool] = ...) -> None: ...

class MatchUpdate(_message.Message):
    __slots__ = ("match", "events", "ended")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    match: MatchInfo
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    ended: bool
    def __init__(self, match: _Optional[_Union[MatchInfo, _Mapping]] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., ended: _Optional[bool] = ...) -> None: ...

class SeatRecord(_message.Message):
    __slots__ = ("seat", "bot", "score", "rank", "fault")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    FAULT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot: str
    score: float
    rank: int
    fault: Fault
    def __init__(self, seat: _Optional[int] = ..., bot: _Optional[str] = ..., score: _Optional[float] = ..., rank: _Optional[int] = ..., fault: _Optional[_Union[Fault, str]] = ...) -> None: ...

class MatchInfo(_message.Message):
    __slots__ = ("id", "tournament_id", "game", "status", "seats")
    ID_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    id: int
    tournament_id: int
    game: str
    status: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatRecord]
    def __init__(self, id: _Optional[int] = ..., tournament_id: _Optional[int] = ..., game: _Optional[str] = ..., status: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatRecord, _Mapping]]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("tournament_id", "limit")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    tournament_id: int
    limit: int
    def __init__(self, tournament_id: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches",)
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchInfo]
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchInfo, _Mapping]]] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: int
    seat: int
    def __init__(self, match_id: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class MatchRecord(_message.Message):
    __slots__ = ("match", "events", "notes")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    match: MatchInfo
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    notes: _containers.RepeatedCompositeFieldContainer[DecisionNote]
    def __init__(self, match: _Optional[_Union[MatchInfo, _Mapping]] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., notes: _Optional[_Iterable[_Union[DecisionNote, _Mapping]]] = ...) -> None: ...

class DecisionNote(_message.Message):
    __slots__ = ("decision", "seat", "note", "note_cut")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    NOTE_CUT_FIELD_NUMBER: _ClassVar[int]
    decision: int
    seat: int
    note: str
    note_cut: int
    def __init__(self, decision: _Optional[int] = ..., seat: _Optional[int] = ..., note: _Optional[str] = ..., note_cut: _Optional[int] = ...) -> None: ...

class LeaderboardRequest(_message.Message):
    __slots__ = ("game", "pool", "tournament_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    pool: str
    tournament_id: int
    def __init__(self, game: _Optional[str] = ..., pool: _Optional[str] = ..., tournament_id: _Optional[int] = ...) -> None: ...

class LeaderboardRow(_message.Message):
    __slots__ = ("game", "bot", "mu", "sigma", "conservative", "matches", "wins", "faults", "pool", "name", "version", "bot_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    CONSERVATIVE_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    bot: str
    mu: float
    sigma: float
    conservative: float
    matches: int
    wins: int
    faults: int
    pool: str
    name: str
    version: str
    bot_id: int
    def __init__(self, game: _Optional[str] = ..., bot: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., conservative: _Optional[float] = ..., matches: _Optional[int] = ..., wins: _Optional[int] = ..., faults: _Optional[int] = ..., pool: _Optional[str] = ..., name: _Optional[str] = ..., version: _Optional[str] = ..., bot_id: _Optional[int] = ...) -> None: ...

class LeaderboardResponse(_message.Message):
    __slots__ = ("rows",)
    ROWS_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[LeaderboardRow]
    def __init__(self, rows: _Optional[_Iterable[_Union[LeaderboardRow, _Mapping]]] = ...) -> None: ...

class MatchLog(_message.Message):
    __slots__ = ("entries",)
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[LogEntry]
    def __init__(self, entries: _Optional[_Iterable[_Union[LogEntry, _Mapping]]] = ...) -> None: ...

class LogEntry(_message.Message):
    __slots__ = ("decision", "event", "fault")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    FAULT_FIELD_NUMBER: _ClassVar[int]
    decision: LoggedDecision
    event: LoggedEvent
    fault: LoggedFault
    def __init__(self, decision: _Optional[_Union[LoggedDecision, _Mapping]] = ..., event: _Optional[_Union[LoggedEvent, _Mapping]] = ..., fault: _Optional[_Union[LoggedFault, _Mapping]] = ...) -> None: ...

class LoggedDecision(_message.Message):
    __slots__ = ("decision_id", "seat", "action", "fallback", "seconds", "note", "note_cut")
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    NOTE_CUT_FIELD_NUMBER: _ClassVar[int]
    decision_id: int
    seat: int
    action: GameAction
    fallback: bool
    seconds: float
    note: str
    note_cut: int
    def __init__(self, decision_id: _Optional[int] = ..., seat: _Optional[int] = ..., action: _Optional[_Union[GameAction, _Mapping]] = ..., fallback: _Optional[bool] = ..., seconds: _Optional[float] = ..., note: _Optional[str] = ..., note_cut: _Optional[int] = ...) -> None: ...

class LoggedFault(_message.Message):
    __slots__ = ("seat", "fault", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FAULT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    fault: Fault
    reason: str
    def __init__(self, seat: _Optional[int] = ..., fault: _Optional[_Union[Fault, str]] = ..., reason: _Optional[str] = ...) -> None: ...

class LoggedEvent(_message.Message):
    __slots__ = ("event", "public", "visible_to")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_FIELD_NUMBER: _ClassVar[int]
    VISIBLE_TO_FIELD_NUMBER: _ClassVar[int]
    event: GameEvent
    public: bool
    visible_to: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, event: _Optional[_Union[GameEvent, _Mapping]] = ..., public: _Optional[bool] = ..., visible_to: _Optional[_Iterable[int]] = ...) -> None: ...
