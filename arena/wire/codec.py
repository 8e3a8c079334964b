"""Game values <-> protobuf messages, for every game, by one set of rules.

A game's proto package (``arena.v1.<game>``, generated into
``arena/v1/<game>_pb2.py``) mirrors its dataclasses field for field:

* a dataclass is a message of the same class name with fields of the same names
  (``Card`` is ``arena.v1.Card``);
* ``int``/``bool``/``str``/``float`` are scalars, an ``IntEnum`` is an enum with
  the same numbers, ``X | None`` is an ``optional`` field or a message left unset;
* ``tuple[X, ...]`` and ``frozenset[X]`` (sorted) are ``repeated X``; a tuple of
  tuples is a repeated message whose one field is repeated (``arena.v1.Cards``);
* the game's ``Observation`` is the message ``Observation``; its actions are the
  ``oneof`` of message ``Action`` and its events the ``oneof`` of ``Event``, the
  member being the message named like the dataclass.

So no game writes conversion code, and transport never branches on a game's
name: a game is found by its name, its messages by their names.
``tests/test_codec.py`` round-trips every value of random games for every game.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import struct
import sys
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum
from functools import cache, lru_cache
from typing import Any

from google.protobuf import message_factory
from google.protobuf.message import Message

from arena.games import Game, get_game, module_name
from arena.games.base import InvalidActionError, OptionValue
from arena.v1 import arena_pb2


class CodecError(ValueError):
    """A message does not hold a valid value of the expected game type."""


# Encoders and decoders are compiled once per (type, message) pair into small
# closures, so the hot path does no reflection: one getattr/setattr per field.
Encoder = Callable[..., None]  # (message, value); a wire encoder adds a list of parts
Decoder = Callable[[Message], Any]
_ENCODERS: dict[tuple[type, str], Encoder] = {}
_DECODERS: dict[tuple[Any, str], Decoder] = {}
_FIELD_ENCODERS: dict[str, Encoder] = {}


def encode_into(msg: Message, value: Any) -> None:
    """Fill ``msg`` from the dataclass ``value`` (the message's own type or a oneof member)."""
    key = (type(value), msg.DESCRIPTOR.full_name)
    encoder = _ENCODERS.get(key)
    if encoder is None:
        encoder = _ENCODERS[key] = _compile_encoder(type(value), msg.DESCRIPTOR)
    encoder(msg, value)


def encode_wire(msg: Message, value: Any) -> bytes:
    """The wire bytes of ``value`` (a dataclass) as the message ``msg`` of the same name
    (empty, used as scratch).

    Equal to filling ``msg`` and serializing it, but the fields' bytes are joined
    from memory where they can be (see :func:`_compile_wire_encoder`), never parsed
    into ``msg``: a message's bytes are the concatenation of its fields' bytes.
    """
    key = (type(value), msg.DESCRIPTOR.full_name)
    encoder = _WIRE_ENCODERS.get(key)
    if encoder is None:
        encoder = _WIRE_ENCODERS[key] = _compile_wire_encoder(type(value), msg.DESCRIPTOR)
    parts: list[bytes] = []
    encoder(msg, value, parts)
    return msg.SerializeToString() + b"".join(parts)


_WIRE_ENCODERS: dict[tuple[type, str], Encoder] = {}


def _compile_encoder(cls: type, descriptor: Any) -> Encoder:
    if not dataclasses.is_dataclass(cls):
        raise CodecError(f"cannot encode {cls.__name__} into {descriptor.full_name}")
    if descriptor.name != cls.__name__:
        member = _oneof_member(descriptor, cls.__name__)

        def encode_member(msg: Message, value: Any) -> None:
            sub = getattr(msg, member)
            sub.SetInParent()
            encode_into(sub, value)

        return encode_member
    # One straight-line function per (dataclass, message): no loop over fields and
    # no call per scalar, which is most of an observation. Names are checked
    # against the message first, and are identifiers (dataclass fields).
    lines = ["def encode(msg, value):"]
    names: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        fd = _field(descriptor, f.name)
        lines.append(f"    x = value.{f.name}")
        if fd.message_type is None and not fd.is_repeated:
            lines.append(f"    if x is not None: msg.{f.name} = x")
        elif fd.is_repeated:  # an empty one is no field at all
            names[f"step_{f.name}"] = _field_encoder(fd)
            lines.append(f"    if x: step_{f.name}(msg, x)")
        else:
            names[f"step_{f.name}"] = _field_encoder(fd)
            lines.append(f"    if x is not None: step_{f.name}(msg, x)")
    lines.append("    return None")
    namespace: dict[str, Any] = dict(names)
    exec("\n".join(lines), namespace)
    encode: Encoder = namespace["encode"]
    return encode


def _field(descriptor: Any, name: str) -> Any:
    fd = descriptor.fields_by_name.get(name)
    if fd is None:
        raise CodecError(f"message {descriptor.full_name} has no field {name!r}")
    return fd


def _compile_wire_encoder(cls: type, descriptor: Any) -> Encoder:
    """Like :func:`_compile_encoder`, but adding each field's wire bytes to ``parts``
    from memory where it can (``msg`` gets only what cannot be remembered).

    * A run of scalar fields is one dictionary lookup by the tuple of their values
      (an observation's scalars repeat, in combination, decision after decision).
    * A repeated field of frozen items given as the very same tuple again is one
      lookup by identity; a tuple of scalars, one lookup by value.
    * Anything else goes through the field's own encoder (:func:`_field_encoder`).
    With ``REMEMBER`` off, it is :func:`_compile_encoder`'s, field by field.
    """
    if not dataclasses.is_dataclass(cls) or descriptor.name != cls.__name__:
        member = _compile_encoder(cls, descriptor)  # a oneof member: filled into msg
        return lambda msg, value, parts: member(msg, value)
    lines = ["def encode(msg, value, parts):",
             "    if not codec.REMEMBER:",
             "        return plain(msg, value)"]
    names: dict[str, Any] = {"codec": sys.modules[__name__],
                             "plain": _compile_encoder(cls, descriptor)}
    run: list[Any] = []  # scalar fields in a row, not yet written
    runs = 0

    def close_run() -> None:
        nonlocal runs
        if not run:
            return
        number, runs = runs, runs + 1
        names[f"known_run{number}"], names[f"learn_run{number}"] = _scalar_run(descriptor, run)
        values = ", ".join(f"value.{fd.name}" for fd in run)
        lines.append(f"    key = ({values},)")
        lines.append(f"    p = known_run{number}.get(key)")
        lines.append(f"    parts.append(learn_run{number}(key) if p is None else p)")
        run.clear()

    for f in dataclasses.fields(cls):
        fd = _field(descriptor, f.name)
        if fd.message_type is None and not fd.is_repeated and _exact(fd):
            run.append(fd)
            continue
        close_run()
        name = f.name
        lines.append(f"    x = value.{name}")
        if fd.message_type is None and not fd.is_repeated:  # a float: not remembered
            lines.append(f"    if x is not None: msg.{name} = x")
        elif fd.is_repeated and fd.message_type is None:
            names[f"step_{name}"], names[f"known_{name}"] = _repeated_scalars(fd)
            lines += ["    if x:",
                      f"        p = known_{name}.get(x) if type(x) is tuple else None",
                      f"        if p is None: step_{name}(msg, x, parts)",
                      "        else: parts.append(p)"]
        elif fd.is_repeated:
            names[f"step_{name}"], names[f"same_{name}"] = _repeated_messages(fd)
            lines += ["    if x:",
                      f"        hit = same_{name}.get(id(x))",
                      "        if hit is not None and hit[0] is x: parts.append(hit[1])",
                      f"        else: step_{name}(msg, x, parts)"]
        else:
            names[f"step_{name}"] = _field_encoder(fd)
            lines.append(f"    if x is not None: step_{name}(msg, x)")
    close_run()
    lines.append("    return None")
    namespace: dict[str, Any] = dict(names)
    exec("\n".join(lines), namespace)
    encode: Encoder = namespace["encode"]
    return encode


def _scalar_run(descriptor: Any, run: Sequence[Any]) -> tuple[dict[Any, bytes],
                                                                Callable[[Any], bytes]]:
    """The remembered bytes of a run of scalar fields per tuple of their values (equal
    values, equal bytes: no floats), and how to learn a new tuple, field by field."""
    fields = [_scalar_bytes(descriptor, fd) for fd in run]
    known: dict[Any, bytes] = {}

    def learn(values: tuple[Any, ...]) -> bytes:
        parts = []
        for (field_known, field_learn), x in zip(fields, values, strict=True):
            if x is not None:
                piece = field_known.get(x)
                parts.append(field_learn(x) if piece is None else piece)
        data = b"".join(parts)
        _remember(known, values, data)
        return data

    return known, learn


def _exact(fd: Any) -> bool:
    """Whether values of scalar field ``fd`` that are equal (and so hash alike) have equal
    bytes: not so for floats (0.0 and -0.0)."""
    return fd.type not in (fd.TYPE_DOUBLE, fd.TYPE_FLOAT)


def _scalar_bytes(descriptor: Any, fd: Any) -> tuple[dict[Any, bytes], Callable[[Any], bytes]]:
    """A singular scalar field's remembered bytes per value, and how to learn a new one."""
    message_class = message_factory.GetMessageClass(descriptor)
    name = fd.name
    known: dict[Any, bytes] = {}

    def learn(value: Any) -> bytes:
        scratch = message_class()
        setattr(scratch, name, value)  # protobuf's checks, its default rule and its bytes
        data: bytes = scratch.SerializeToString()
        _remember(known, value, data)
        return data

    return known, learn


def _repeated_scalars(fd: Any) -> tuple[Encoder, dict[Any, bytes]]:
    """A repeated scalar field's encoder, and its bytes remembered per tuple of values."""
    name = fd.name
    known: dict[Any, bytes] = {}  # a tuple or frozenset of values -> the field's wire bytes
    # equal floats may differ on the wire (0.0 and -0.0): those fields are never remembered
    exact = _exact(fd)

    def fill_scalars(msg: Message, value: Any) -> None:
        getattr(msg, name).extend(sorted(value) if isinstance(value, frozenset) else value)

    def repeated_scalars(msg: Message, value: Any, parts: list[bytes] | None = None) -> None:
        """Fill the field of ``msg``, or (given ``parts``) add its wire bytes to them."""
        if parts is None or not (REMEMBER and exact) or type(value) not in (tuple, frozenset):
            fill_scalars(msg, value)
            return
        data = known.get(value)
        if data is None:  # protobuf's own bytes for the field alone (and its range checks)
            scratch = type(msg)()
            fill_scalars(scratch, value)
            data = scratch.SerializeToString()
            _remember(known, value, data)
        parts.append(data)

    return repeated_scalars, known


def _repeated_messages(fd: Any) -> tuple[Encoder, dict[int, tuple[Any, bytes]]]:
    """A repeated message field's encoder, and its bytes remembered per tuple (by identity)."""
    element = message_factory.GetMessageClass(fd.message_type)

    def body(item: Any) -> bytes:
        sub = element()
        if isinstance(item, (tuple, list, frozenset)):
            _wrapper_encoder(sub.DESCRIPTOR)(sub, item)
        else:
            encode_into(sub, item)
        data: bytes = sub.SerializeToString()
        return data

    pieces = _Pieces(_key(fd.number), body)
    same: dict[int, tuple[Any, bytes]] = {}  # id -> (a tuple value, the field's wire bytes)

    def repeated_messages(msg: Message, value: Any, parts: list[bytes] | None = None) -> None:
        """Fill the field of ``msg``, or (given ``parts``) add its wire bytes to them."""
        remember = REMEMBER and type(value) is tuple
        if remember:  # the very same tuple again (held, so its id is not reused)
            hit = same.get(id(value))
            if hit is not None and hit[0] is value:
                data = hit[1]
                if parts is None:
                    msg.MergeFromString(data)
                else:
                    parts.append(data)
                return
        data = pieces.join(sorted(value) if type(value) is frozenset else value)
        if remember:
            _remember(same, id(value), (value, data), KNOWN_VALUES)
        if parts is None:
            msg.MergeFromString(data)  # appends to the repeated field
        else:
            parts.append(data)

    return repeated_messages, same


def _field_encoder(fd: Any) -> Encoder:
    """How to put a Python value into field ``fd`` of a message."""
    name = fd.name
    if fd.is_repeated and fd.message_type is None:
        return _repeated_scalars(fd)[0]
    if fd.is_repeated:
        return _repeated_messages(fd)[0]
    if fd.message_type is not None:
        def message(msg: Message, value: Any) -> None:
            sub = getattr(msg, name)
            sub.SetInParent()
            encode_into(sub, value)

        return message

    def scalar(msg: Message, value: Any) -> None:
        setattr(msg, name, value)

    return scalar


# Observations repeat their history (King's completed tricks, past results, the
# cards drawn for the first dealer) and their cards at every decision, and equal
# frozen dataclasses encode to equal bytes. So each repeated-message field keeps
# the wire bytes of every frozen item it has encoded (its tag, length and body)
# and writes a whole field as one join of those pieces, merged in one C call,
# instead of building a sub-message field by field per item; a tuple given a
# second time (the same object) is one remembered join. A field forgets all once
# it knows this many, which bounds the memory.
REMEMBER = True
KNOWN_ITEMS = 4096
KNOWN_VALUES = 256


def _remember(table: dict[Any, Any], key: Any, value: Any, limit: int = KNOWN_ITEMS) -> None:
    """``table[key] = value``, the table forgetting all first once it holds ``limit``."""
    if len(table) >= limit:
        table.clear()
    table[key] = value


def _encode_varint(number: int) -> bytes:
    out = bytearray()
    while number > 0x7F:
        out.append((number & 0x7F) | 0x80)
        number >>= 7
    out.append(number)
    return bytes(out)


_DOUBLE = struct.Struct("<d")
_SHORT_VARINTS = tuple(_encode_varint(n) for n in range(4096))  # every length on the hot path


def _varint(number: int) -> bytes:
    """A non-negative number as a protobuf varint (the lengths of the hot path, from a table)."""
    return _SHORT_VARINTS[number] if number < 4096 else _encode_varint(number)


def _key(number: int) -> bytes:
    """The key of field ``number`` with the length-delimited wire type (messages, packed)."""
    return _varint(number << 3 | 2)


def delimited(field_key: bytes, body: bytes) -> bytes:
    """One length-delimited field: its key, the length of ``body``, ``body``."""
    size = len(body)
    return field_key + (_SHORT_VARINTS[size] if size < 4096 else _encode_varint(size)) + body


class _Memo:
    """Encodings of immutable items, found by identity first, then by value.

    By identity costs no hashing (hashing a dataclass calls Python code for every
    field, card by card), and history items are the same objects decision after
    decision; by value catches equal items made afresh. Both hold the item, so an
    id is never reused while it is remembered. Items that are made afresh each time
    (a game's events) are found by value only: ``by_identity=False``.
    """

    __slots__ = ("by_id", "by_value", "hold")

    def __init__(self, by_identity: bool = True) -> None:
        self.by_id: dict[int, tuple[Any, bytes]] = {}
        self.by_value: dict[Any, bytes] = {}
        self.hold = by_identity

    def get(self, item: Any) -> bytes | None:
        """The remembered encoding of ``item``, if it is immutable and was seen."""
        if not REMEMBER:
            return None
        hit = self.by_id.get(id(item))  # only immutable items are ever held
        if hit is not None and hit[0] is item:
            return hit[1]
        return self._by_value(item)

    def _by_value(self, item: Any) -> bytes | None:
        if not _immutable(item):
            return None
        try:
            data = self.by_value.get(item)
        except TypeError:  # a frozen dataclass holding something unhashable
            return None
        if data is not None and self.hold:
            self._hold(item, data)
        return data

    def put(self, item: Any, data: bytes) -> None:
        """Remember ``data`` as the encoding of ``item``."""
        if not _immutable(item):
            return
        try:
            _remember(self.by_value, item, data)
        except TypeError:  # unhashable after all: never remembered
            return
        if self.hold:
            self._hold(item, data)

    def remembered(self, item: Any, encode: Callable[[Any], Message]) -> bytes:
        """The bytes of ``encode(item)``, from memory when ``item`` was seen before."""
        data = self.get(item)
        if data is None:
            data = encode(item).SerializeToString()
            self.put(item, data)
        return data

    def _hold(self, item: Any, data: bytes) -> None:
        _remember(self.by_id, id(item), (item, data))


class _Pieces(_Memo):
    """One repeated message field's elements as wire bytes (key, length, body), each
    immutable item's remembered: the field's bytes are the join of its elements'.

    ``body(item)`` gives an item's bytes as the element's message.
    """

    __slots__ = ("body", "key")

    def __init__(self, field_key: bytes, body: Callable[[Any], bytes]) -> None:
        super().__init__()
        self.key = field_key
        self.body = body

    def join(self, items: Iterable[Any]) -> bytes:
        """The field's bytes holding ``items`` in order."""
        if not REMEMBER:
            return b"".join([delimited(self.key, self.body(item)) for item in items])
        by_id = self.by_id
        parts = []
        for item in items:
            hit = by_id.get(id(item))
            if hit is not None and hit[0] is item:
                parts.append(hit[1])
                continue
            piece = self._by_value(item)
            if piece is None:
                piece = delimited(self.key, self.body(item))
                self.put(item, piece)  # if it is immutable
            parts.append(piece)
        return b"".join(parts)


def _immutable(item: Any) -> bool:
    """A frozen dataclass (hashable, equal values encode the same); found once per type."""
    cls = type(item)
    frozen = _FROZEN.get(cls)
    if frozen is None:
        params = getattr(cls, "__dataclass_params__", None)
        frozen = _FROZEN[cls] = bool(params is not None and params.frozen)
    return frozen


_FROZEN: dict[type, bool] = {}


def _wrapper_encoder(descriptor: Any) -> Encoder:
    """A list inside a list travels as a message whose one field is repeated (``Cards``)."""
    encoder = _FIELD_ENCODERS.get(descriptor.full_name)
    if encoder is None:
        encoder = _FIELD_ENCODERS[descriptor.full_name] = _field_encoder(descriptor.fields[0])
    return encoder


_ONEOF_MEMBERS: dict[tuple[str, str], str] = {}


def _oneof_member(descriptor: Any, class_name: str) -> str:
    """The oneof field of ``descriptor`` whose message is named ``class_name``."""
    key = (descriptor.full_name, class_name)
    if key not in _ONEOF_MEMBERS:
        for oneof in descriptor.oneofs:
            for fd in oneof.fields:
                if fd.message_type is not None and fd.message_type.name == class_name:
                    _ONEOF_MEMBERS[key] = fd.name
        if key not in _ONEOF_MEMBERS:
            raise CodecError(f"message {descriptor.full_name} has no member for {class_name}")
    return _ONEOF_MEMBERS[key]


def decode(msg: Message, hint: Any) -> Any:
    """The value of type ``hint`` (a dataclass or a union of dataclasses) held by ``msg``."""
    key = (hint, msg.DESCRIPTOR.full_name)
    decoder = _DECODERS.get(key)
    if decoder is None:
        decoder = _DECODERS[key] = _compile_decoder(hint, msg.DESCRIPTOR)
    return decoder(msg)


def _compile_decoder(hint: Any, descriptor: Any) -> Decoder:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        return lambda msg: _decode_union(msg, members)
    if not (isinstance(hint, type) and dataclasses.is_dataclass(hint)):
        raise CodecError(f"cannot decode a message into {hint!r}")
    if descriptor.name != hint.__name__:
        return lambda msg: _decode_union(msg, [hint])
    cls = hint
    hints = typing.get_type_hints(cls)
    getters = []
    for f in dataclasses.fields(cls):
        fd = descriptor.fields_by_name.get(f.name)
        if fd is None:
            raise CodecError(f"message {descriptor.full_name} has no field {f.name!r}")
        getters.append(_field_decoder(fd, hints[f.name]))

    def build(msg: Message) -> Any:
        try:
            return cls(*[get(msg) for get in getters])
        except (ValueError, TypeError) as err:
            raise CodecError(f"invalid {cls.__name__}: {err}") from None

    return build


def _field_decoder(fd: Any, hint: Any) -> Decoder:
    """How to read field ``fd`` of a message as a value of type ``hint``."""
    name = fd.name
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner_hint = next(a for a in args if a is not type(None))
        inner = _field_decoder(fd, inner_hint)
        if fd.is_repeated:
            return lambda msg: None
        return lambda msg: inner(msg) if msg.HasField(name) else None
    if origin in (tuple, frozenset):
        collect: Callable[[Any], Any] = frozenset if origin is frozenset else tuple
        item_hint = args[0]
        if fd.message_type is None:
            item_convert = _scalar_converter(item_hint)
            if item_convert is None:
                return lambda msg: collect(getattr(msg, name))
            return lambda msg: collect(map(item_convert, getattr(msg, name)))
        if typing.get_origin(item_hint) in (tuple, frozenset):
            wrapped = _field_decoder(fd.message_type.fields[0], item_hint)
            return lambda msg: collect(wrapped(sub) for sub in getattr(msg, name))
        return lambda msg: collect(decode(sub, item_hint) for sub in getattr(msg, name))
    if fd.message_type is not None:
        return lambda msg: decode(getattr(msg, name), hint)
    convert = _scalar_converter(hint)
    if convert is None:
        return lambda msg: getattr(msg, name)
    return lambda msg: convert(getattr(msg, name))


def _scalar_converter(hint: Any) -> Callable[[Any], Any] | None:
    if isinstance(hint, type) and issubclass(hint, IntEnum):
        enum = hint

        def to_enum(value: Any) -> Any:
            try:
                return enum(value)
            except ValueError:
                raise CodecError(f"{value} is not a {enum.__name__}") from None

        return to_enum
    return None


def _decode_union(msg: Message, members: Sequence[type]) -> Any:
    oneofs = msg.DESCRIPTOR.oneofs
    if not oneofs:
        raise CodecError(f"message {msg.DESCRIPTOR.full_name} is not a union")
    which = msg.WhichOneof(oneofs[0].name)
    if which is None:
        raise CodecError(f"empty {msg.DESCRIPTOR.full_name}")
    sub = getattr(msg, which)
    for cls in members:
        if cls.__name__ == sub.DESCRIPTOR.name:
            return decode(sub, cls)
    raise CodecError(f"{sub.DESCRIPTOR.name} is not expected here")


# -- the per-game view used by the referee, the server and the SDK -------------
class GameCodec:
    """Encode and decode one game's observations, actions and events."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self.field = module_name(game)
        self.pb = importlib.import_module(f"arena.v1.{self.field}_pb2")
        self._action_union = _union(game.action_types)
        self._event_union = _union(game.event_types)
        self._known_actions = _Memo()
        self._known_events = _Memo(by_identity=False)  # events are made afresh
        self._offered = _Pieces(_LEGAL_ACTIONS, self.action_wire)  # the same, again and again
        self._observation_message = self.pb.Observation
        self._observation_key = key(arena_pb2.GameObservation, self.field)

    def observation(self, obs: Any) -> arena_pb2.GameObservation:
        envelope = arena_pb2.GameObservation()
        encode_into(getattr(envelope, self.field), obs)
        return envelope

    def action(self, action: Any) -> arena_pb2.GameAction:
        envelope = arena_pb2.GameAction()
        encode_into(getattr(envelope, self.field), action)
        return envelope

    def event(self, event: Any) -> arena_pb2.GameEvent:
        envelope = arena_pb2.GameEvent()
        encode_into(getattr(envelope, self.field), event)
        return envelope

    # -- wire bytes, for the referee's hot path (see the "Wire" section below) --------
    # The same few actions are offered again and again, and a game's events repeat:
    # each is encoded once and its bytes remembered.
    def observation_wire(self, obs: Any) -> bytes:
        """``obs`` as the bytes of a ``GameObservation``."""
        return delimited(self._observation_key, encode_wire(self._observation_message(), obs))

    def action_wire(self, action: Any) -> bytes:
        """``action`` as the bytes of a ``GameAction``."""
        return self._known_actions.remembered(action, self.action)

    def actions_wire(self, actions: Iterable[Any]) -> bytes:
        """``actions`` as the elements of a ``DecisionRequest``'s ``legal_actions``."""
        return self._offered.join(actions)

    def event_wire(self, event: Any) -> bytes:
        """``event`` as the bytes of a ``GameEvent``."""
        return self._known_events.remembered(event, self.event)

    def match_log(self, entries: Iterable[LoggedDecision | LoggedEvent]) -> bytes:
        """A ``MatchLog``'s bytes from the referee's entries in order: decisions
        (decision id, seat, action, fallback, seconds) and events (event, audience).

        The referee keeps a match's entries so and encodes them all at its end, in
        one loop instead of one by one between a bot's answer and the next request.
        """
        action, event = self.action_wire, self.event_wire
        return b"".join([
            logged_decision(e[0], e[1], action(e[2]), e[3], e[4]) if len(e) == 5
            else logged_event(event(e[0]), e[1])
            for e in entries])

    def read_match_log(self, data: bytes) -> list[LoggedDecision | LoggedEvent]:
        """The entries of a ``MatchLog``'s bytes, as :meth:`match_log` takes them."""
        entries: list[LoggedDecision | LoggedEvent] = []
        for entry in arena_pb2.MatchLog.FromString(data).entries:
            if entry.WhichOneof("entry") == "decision":
                d = entry.decision
                entries.append((d.decision_id, d.seat, self.decode_action(d.action), d.fallback,
                                d.seconds))
            else:
                e = entry.event
                entries.append((self.decode_event(e.event),
                                None if e.public else frozenset(e.visible_to)))
        return entries

    def decode_observation(self, envelope: arena_pb2.GameObservation) -> Any:
        return decode(self._inner(envelope), self.game.observation_type)

    def decode_action(self, envelope: arena_pb2.GameAction) -> Any:
        """The action in ``envelope``; :class:`InvalidActionError` if it is not one of this game."""
        try:
            return decode(self._inner(envelope), self._action_union)
        except CodecError as err:
            raise InvalidActionError(str(err)) from None

    def decode_event(self, envelope: arena_pb2.GameEvent) -> Any:
        return decode(self._inner(envelope), self._event_union)

    def _inner(self, envelope: Message) -> Message:
        which = envelope.WhichOneof("game")
        if which != self.field:
            raise CodecError(f"expected {self.game.name} data, got {which or 'nothing'}")
        inner: Message = getattr(envelope, self.field)
        return inner


def _union(classes: Sequence[type]) -> Any:
    union: Any = classes[0]
    for cls in classes[1:]:
        union = union | cls
    return union


@cache
def codec_for(game_name: str) -> GameCodec:
    return GameCodec(get_game(game_name))


# -- faults ----------------------------------------------------------------------
# A fault's name is its enum name in words: FAULT_ILLEGAL_ACTION is "illegal-action";
# no fault is "". Storage and the SDK speak names, the wire speaks the enum.
FAULT_NUMBERS: dict[str, arena_pb2.Fault] = {
    "" if number == arena_pb2.FAULT_NONE else name.removeprefix("FAULT_").lower().replace("_", "-"):
    typing.cast(arena_pb2.Fault, number) for name, number in arena_pb2.Fault.items()
}
FAULT_NAMES: dict[int, str] = {number: name for name, number in FAULT_NUMBERS.items()}


# -- wire ------------------------------------------------------------------------
# The referee sends serialized RefereeMessages, built from bytes on the hot path:
# a message's bytes are its fields' bytes in any order, and a repeated or nested
# message field is its key, its length and its bytes. The observation, the legal
# actions and the events (each encoded once, for every seat that sees it) are never
# parsed into messages only to be serialized again.
def key(message: type[Message], name: str) -> bytes:
    """The key (field number and length-delimited wire type) of a message field."""
    return _key(message.DESCRIPTOR.fields_by_name[name].number)


def _scalar_key(message: type[Message], name: str) -> bytes:
    """The key of a scalar field: a varint, or a fixed 64-bit value for a double."""
    fd = message.DESCRIPTOR.fields_by_name[name]
    return _varint(fd.number << 3 | (1 if fd.type == fd.TYPE_DOUBLE else 0))


_DECISION = key(arena_pb2.RefereeMessage, "decision")
_OBSERVATION = key(arena_pb2.DecisionRequest, "observation")
_LEGAL_ACTIONS = key(arena_pb2.DecisionRequest, "legal_actions")
_REQUEST_EVENTS = key(arena_pb2.DecisionRequest, "events")
_EVENTS = key(arena_pb2.RefereeMessage, "events")
_EVENTS_EVENTS = key(arena_pb2.Events, "events")
_END = key(arena_pb2.RefereeMessage, "end")
_END_EVENTS = key(arena_pb2.MatchEnd, "events")


_DECISION_ID = _scalar_key(arena_pb2.DecisionRequest, "decision_id")
_TIME_LEFT = _scalar_key(arena_pb2.DecisionRequest, "time_left_s")


def decision_message(decision_id: int, time_left_s: float, observation: bytes,
                     legal_actions: bytes, events: Sequence[bytes]) -> bytes:
    """A ``RefereeMessage`` asking for a decision, from ``GameObservation`` bytes, legal
    actions as from :meth:`GameCodec.actions_wire` and each event's ``GameEvent`` bytes.

    ``decision_id`` (a varint) and ``time_left_s`` (a little-endian double; 0, no
    deadline, is left out) are written as protobuf writes them, in its order.
    """
    parts = [_DECISION_ID, _varint(decision_id)] if decision_id else []
    parts += (delimited(_OBSERVATION, observation), legal_actions)
    if time_left_s or math.copysign(1.0, time_left_s) < 0.0:
        parts += (_TIME_LEFT, _DOUBLE.pack(time_left_s))
    parts += [delimited(_REQUEST_EVENTS, e) for e in events]
    return delimited(_DECISION, b"".join(parts))


def events_message(events: Sequence[bytes]) -> bytes:
    """A ``RefereeMessage`` with events on their own (each as ``GameEvent`` bytes)."""
    return delimited(_EVENTS, b"".join(delimited(_EVENTS_EVENTS, e) for e in events))


def end_message(end: arena_pb2.MatchEnd, events: Sequence[bytes]) -> bytes:
    """A ``RefereeMessage`` ending the match, with the seat's last events."""
    body = end.SerializeToString() + b"".join(delimited(_END_EVENTS, e) for e in events)
    return delimited(_END, body)


_ENTRY = key(arena_pb2.MatchLog, "entries")
_LOGGED_DECISION = key(arena_pb2.LogEntry, "decision")
_LOGGED_EVENT = key(arena_pb2.LogEntry, "event")
_LOGGED_EVENT_EVENT = key(arena_pb2.LoggedEvent, "event")
_PUBLIC = arena_pb2.LoggedEvent(public=True).SerializeToString()


_DECISION_ID_LOGGED = _scalar_key(arena_pb2.LoggedDecision, "decision_id")
_SEAT_LOGGED = _scalar_key(arena_pb2.LoggedDecision, "seat")
_ACTION_LOGGED = key(arena_pb2.LoggedDecision, "action")
_FALLBACK_LOGGED = _scalar_key(arena_pb2.LoggedDecision, "fallback") + b"\x01"
_SECONDS_LOGGED = _scalar_key(arena_pb2.LoggedDecision, "seconds")

LoggedDecision = tuple[int, int, Any, bool, float]  # decision id, seat, action, fallback, seconds
LoggedEvent = tuple[Any, frozenset[int] | None]  # the event, its audience (None: all)


def match_log(entries: Iterable[tuple[Any, ...]]) -> bytes:
    """A ``MatchLog``'s bytes from its entries in order, each as the arguments of
    :func:`logged_decision` (five) or :func:`logged_event` (two), with the action or
    event already as bytes (see :meth:`GameCodec.match_log` for typed entries)."""
    return b"".join([logged_decision(*entry) if len(entry) == 5 else logged_event(*entry)
                     for entry in entries])


def _entry(kind: bytes, body: bytes) -> bytes:
    """One ``MatchLog.entries`` element whose ``LogEntry`` holds ``body`` as member ``kind``."""
    size = len(body)
    inner = kind + _varint(size)
    return b"".join((_ENTRY, _varint(len(inner) + size), inner, body))


def logged_decision(decision_id: int, seat: int, action: bytes, fallback: bool,
                    seconds: float) -> bytes:
    """A ``MatchLog`` entry (as the bytes of one ``entries`` element) for a decision;
    ``action`` is ``GameAction`` bytes. Written as protobuf writes it, field by field."""
    parts = [_DECISION_ID_LOGGED, _varint(decision_id)] if decision_id else []
    if seat:
        parts += (_SEAT_LOGGED, _varint(seat))
    parts += (_ACTION_LOGGED, _varint(len(action)), action)
    if fallback:
        parts.append(_FALLBACK_LOGGED)
    if seconds or math.copysign(1.0, seconds) < 0.0:
        parts += (_SECONDS_LOGGED, _DOUBLE.pack(seconds))
    return _entry(_LOGGED_DECISION, b"".join(parts))


@lru_cache(maxsize=KNOWN_ITEMS)
def _audience(visible_to: frozenset[int]) -> bytes:
    """A ``LoggedEvent``'s ``visible_to`` field (audiences are few: each is written once)."""
    audience: bytes = arena_pb2.LoggedEvent(visible_to=sorted(visible_to)).SerializeToString()
    return audience


def logged_event(event: bytes, visible_to: frozenset[int] | None) -> bytes:
    """A ``MatchLog`` entry for an event (``GameEvent`` bytes) and its audience (``None``: all)."""
    audience = _PUBLIC if visible_to is None else _audience(visible_to)
    return _entry(_LOGGED_EVENT, b"".join((_LOGGED_EVENT_EVENT, _varint(len(event)), event,
                                           audience)))


_CHOICE = key(arena_pb2.BotMessage, "choice")
_CHOICE_ID = _scalar_key(arena_pb2.Choice, "decision_id")
_CHOICE_INDEX = _scalar_key(arena_pb2.Choice, "index")


def chosen_index(data: bytes, decision_id: int) -> int | None:
    """The index a bot chose, when ``data`` (a ``BotMessage``'s bytes) is exactly a choice of
    an index for ``decision_id`` as protobuf writes it; ``None`` for anything else, which
    is then parsed in full. Nearly every answer is one: no message is built for it."""
    head = _CHOICE_ID + _varint(decision_id) + _CHOICE_INDEX
    start = len(head) + 2
    if len(data) <= start or data[0] != _CHOICE[0] or data[1] != len(data) - 2 \
            or data[2:start] != head:
        return None
    if len(data) == start + 1 and data[start] < 0x80:
        return data[start]
    if len(data) == start + 2 and data[start] >= 0x80 and 0 < data[start + 1] < 0x80:
        return (data[start] & 0x7F) | data[start + 1] << 7
    return None


# The initial metadata an Attend call gets once the arena has accepted the bot's
# token (a refused call ends without it): the SDK knows it is in before any seat.
ATTENDING_MARK = ("arena-attending", "1")


# -- options ---------------------------------------------------------------------
def encode_options(options: dict[str, OptionValue], target: Any) -> None:
    """Fill a ``map<string, OptionValue>`` field from typed options."""
    for key, value in options.items():
        slot = target[key]
        if isinstance(value, bool):
            slot.bool_value = value
        elif isinstance(value, int):
            slot.int_value = value
        else:
            slot.text_value = value


def decode_options(source: Any) -> dict[str, OptionValue]:
    out: dict[str, OptionValue] = {}
    for key, slot in source.items():
        which = slot.WhichOneof("value")
        out[key] = getattr(slot, which) if which else ""
    return out

