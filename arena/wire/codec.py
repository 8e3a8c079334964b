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
name: a game is found by its name, its messages by their names. The encoder is
plain (a message filled field by field), but for repeated message fields, whose
elements' bytes are remembered (:mod:`arena.wire.memo`). ``tests/wire/test_codec.py``
round-trips every value of random games for every game.
"""

from __future__ import annotations

import dataclasses
import importlib
import operator
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum
from functools import cache
from typing import Any

from google.protobuf import message_factory
from google.protobuf.message import Message

from arena.games import Game, get_game, module_name
from arena.games.base import InvalidActionError
from arena.v1 import arena_pb2
from arena.wire import memo
from arena.wire.memo import Bodies, Known, Pieces, delimited, field_key


class CodecError(ValueError):
    """A message does not hold a valid value of the expected game type."""


Decoder = Callable[[Message], Any]
Encoder = Callable[[Any], bytes]
_ENCODERS: dict[tuple[type, str], Encoder] = {}
_DECODERS: dict[tuple[Any, str], Decoder] = {}


def encode_bytes(message: type[Message], value: Any) -> bytes:
    """The wire bytes of the dataclass ``value`` as a ``message`` (the message of its own
    name, or a message with a oneof member of that name).

    A message's bytes are the concatenation of its fields' bytes: the scalar fields
    are set in one constructor call and serialized by protobuf; nested and repeated
    messages are joined from their own bytes, the repeated ones from the memo of
    repeated history (:func:`_repeated`), never parsed back into a message.
    """
    key = (type(value), message.DESCRIPTOR.full_name)
    encoder = _ENCODERS.get(key)
    if encoder is None:
        encoder = _ENCODERS[key] = _encoder(type(value), message)
    return encoder(value)


def encode_into(msg: Message, value: Any) -> None:
    """Fill ``msg`` from the dataclass ``value`` (the message's own type or a oneof member)."""
    msg.MergeFromString(encode_bytes(type(msg), value))


def _encoder(cls: type, message: type[Message]) -> Encoder:
    descriptor: Any = message.DESCRIPTOR
    if not dataclasses.is_dataclass(cls):
        raise CodecError(f"cannot encode {cls.__name__} into {descriptor.full_name}")
    if descriptor.name != cls.__name__:  # a oneof member of the message
        fd = descriptor.fields_by_name[_oneof_member(descriptor, cls.__name__)]
        member = message_factory.GetMessageClass(fd.message_type)
        member_key = field_key(fd.number)
        return lambda value: delimited(member_key, encode_bytes(member, value))
    fields = [_field(descriptor, f.name) for f in dataclasses.fields(cls)]
    scalar_fields = [fd for fd in fields if fd.message_type is None and not fd.is_repeated]
    names = tuple(fd.name for fd in scalar_fields)
    read: Callable[[Any], tuple[Any, ...]] = (
        operator.attrgetter(*names) if len(names) > 1
        else (lambda value: (getattr(value, names[0]),)) if names else (lambda value: ()))
    # Equal scalar values give equal bytes, but for floats (0.0 and -0.0): their bytes
    # are remembered per tuple of values, as the memo remembers history.
    exact = all(fd.type not in (fd.TYPE_DOUBLE, fd.TYPE_FLOAT) for fd in scalar_fields)
    known: dict[tuple[Any, ...], bytes] = {}
    others = [(fd.name, *(_repeated(fd, message) if fd.is_repeated else (_nested(fd), None)))
              for fd in fields if fd.message_type is not None or fd.is_repeated]

    def encode(value: Any) -> bytes:
        values = read(value)
        data = known.get(values) if exact and memo.REMEMBER else None
        if data is None:
            data = message(**dict(zip(names, values, strict=True))).SerializeToString()
            if exact:
                memo.remember(known, values, data)
        rest = []
        remembering = memo.REMEMBER
        for name, field, seen in others:
            x = getattr(value, name)
            if x:  # an empty repeated field, or an unset message, is no field at all
                hit = seen.data.get(id(x)) if seen is not None and remembering else None  # the same tuple
                rest.append(hit if hit is not None else field(x))
        return data + b"".join(rest) if rest else data

    return encode


def _field(descriptor: Any, name: str) -> Any:
    fd = descriptor.fields_by_name.get(name)
    if fd is None:
        raise CodecError(f"message {descriptor.full_name} has no field {name!r}")
    return fd


def _nested(fd: Any) -> Encoder:
    """The bytes of singular message field ``fd`` holding a value."""
    sub = message_factory.GetMessageClass(fd.message_type)
    key = field_key(fd.number)
    return lambda value: delimited(key, encode_bytes(sub, value))


def _repeated(fd: Any, message: type[Message]) -> tuple[Encoder, Known | None]:
    """The bytes of repeated field ``fd`` (of ``message``) holding a value, from the memo
    of repeated history, and for a message field the table of tuples it remembers by
    identity (the encoder looks there first, inline). A repeated message field joins its
    elements' remembered bytes (:class:`arena.wire.memo.Pieces`); a repeated scalar
    field's bytes, as protobuf writes them, are remembered per tuple of values (not for
    floats, whose equal values 0.0 and -0.0 differ on the wire). A frozenset goes in
    sorted."""
    if fd.message_type is not None:
        pieces = Pieces(field_key(fd.number), Bodies(_element_body(fd)))
        join = pieces.join
        return (lambda value: join(sorted(value) if type(value) is frozenset else value)), \
            pieces.tuples
    return _Scalars(fd, message).bytes, None


class _Scalars:
    """A repeated scalar field's bytes per tuple of values (see :func:`_repeated`)."""

    __slots__ = ("exact", "known", "message", "name")

    def __init__(self, fd: Any, message: type[Message]) -> None:
        self.message, self.name = message, fd.name
        self.exact = fd.type not in (fd.TYPE_DOUBLE, fd.TYPE_FLOAT)
        self.known: dict[Any, bytes] = {}

    def bytes(self, value: Any) -> bytes:
        remembered = self.exact and memo.REMEMBER and type(value) in (tuple, frozenset)
        if remembered:
            data = self.known.get(value)
            if data is not None:
                return data
        items = sorted(value) if isinstance(value, frozenset) else value
        data = self.message(**{self.name: items}).SerializeToString()
        if remembered:
            memo.remember(self.known, value, data)
        return data


def _element_body(fd: Any) -> Encoder:
    """An element of repeated message field ``fd`` as its message's bytes; a list inside
    a list travels as a message whose one field is repeated (``Cards``)."""
    element = message_factory.GetMessageClass(fd.message_type)
    inner = fd.message_type.fields[0]
    wrapped = _repeated(inner, element)[0] \
        if len(fd.message_type.fields) == 1 and inner.is_repeated else None

    def body(item: Any) -> bytes:
        if isinstance(item, (tuple, list, frozenset)):
            if wrapped is None:
                raise CodecError(f"{fd.message_type.full_name} does not hold a list")
            return wrapped(item) if item else b""
        return encode_bytes(element, item)

    return body


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


# -- the per-game view used by the referee's links, the services and the SDK ------
class GameCodec:
    """Encode and decode one game's observations, actions and events.

    Offered actions and events are the same few values again and again: their
    envelopes' bytes are remembered (:class:`arena.wire.memo.Pieces`), and
    :meth:`action_pieces` and :meth:`event_pieces` give them ready to be merged
    into a repeated field.
    """

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self.field = module_name(game)
        self.pb = importlib.import_module(f"arena.v1.{self.field}_pb2")
        self._action_union = _union(game.action_types)
        self._event_union = _union(game.event_types)
        self._actions: dict[bytes, Pieces] = {}  # by the key of the field they fill
        self._events: dict[bytes, Pieces] = {}
        self._action_bodies = Bodies(self._action_bytes)  # shared by those fields
        self._event_bodies = Bodies(self._event_bytes)
        self._observation_message = self.pb.Observation
        # the keys of the game's member in GameObservation, GameAction and GameEvent
        self._observation_key, self._action_key, self._event_key = (
            field_key(envelope.DESCRIPTOR.fields_by_name[self.field].number)
            for envelope in (arena_pb2.GameObservation, arena_pb2.GameAction, arena_pb2.GameEvent))

    def observation(self, obs: Any) -> arena_pb2.GameObservation:
        envelope = arena_pb2.GameObservation()
        inner = getattr(envelope, self.field)
        inner.SetInParent()
        encode_into(inner, obs)
        return envelope

    def observation_bytes(self, obs: Any) -> bytes:
        """``obs`` as the bytes of a ``GameObservation`` (see :func:`encode_bytes`)."""
        return delimited(self._observation_key, encode_bytes(self._observation_message, obs))

    def action(self, action: Any) -> arena_pb2.GameAction:
        envelope = arena_pb2.GameAction()
        encode_into(getattr(envelope, self.field), action)
        return envelope

    def event(self, event: Any) -> arena_pb2.GameEvent:
        envelope = arena_pb2.GameEvent()
        encode_into(getattr(envelope, self.field), event)
        return envelope

    def action_pieces(self, key: bytes, actions: Iterable[Any]) -> bytes:
        """``actions`` as the elements of the repeated ``GameAction`` field with ``key``."""
        pieces = self._actions.get(key)
        if pieces is None:
            pieces = self._actions[key] = Pieces(key, self._action_bodies)
        return pieces.join(actions)

    def event_pieces(self, key: bytes, events: Iterable[Any]) -> bytes:
        """``events`` as the elements of the repeated ``GameEvent`` field with ``key``."""
        pieces = self._events.get(key)
        if pieces is None:
            pieces = self._events[key] = Pieces(key, self._event_bodies)
        return pieces.join(events)

    def _action_bytes(self, action: Any) -> bytes:
        """``action`` as the bytes of a ``GameAction``."""
        return delimited(self._action_key, encode_bytes(self.pb.Action, action))

    def _event_bytes(self, event: Any) -> bytes:
        """``event`` as the bytes of a ``GameEvent``."""
        return delimited(self._event_key, encode_bytes(self.pb.Event, event))

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
