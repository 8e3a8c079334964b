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
elements' bytes are remembered (:mod:`arena.wire.memo`). ``tests/test_codec.py``
round-trips every value of random games for every game.
"""

from __future__ import annotations

import dataclasses
import importlib
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
from arena.wire.memo import Pieces, field_key


class CodecError(ValueError):
    """A message does not hold a valid value of the expected game type."""


# A message's encoder is a list of (field name, how to put a value into it), made once
# per (dataclass, message) pair; decoders are made once per (type, message) too.
Put = Callable[[Message, Any], None]
Decoder = Callable[[Message], Any]
_ENCODERS: dict[tuple[type, str], Callable[[Message, Any], None]] = {}
_DECODERS: dict[tuple[Any, str], Decoder] = {}


def encode_into(msg: Message, value: Any) -> None:
    """Fill ``msg`` from the dataclass ``value`` (the message's own type or a oneof member)."""
    key = (type(value), msg.DESCRIPTOR.full_name)
    encoder = _ENCODERS.get(key)
    if encoder is None:
        encoder = _ENCODERS[key] = _encoder(type(value), msg.DESCRIPTOR)
    encoder(msg, value)


def _encoder(cls: type, descriptor: Any) -> Callable[[Message, Any], None]:
    if not dataclasses.is_dataclass(cls):
        raise CodecError(f"cannot encode {cls.__name__} into {descriptor.full_name}")
    if descriptor.name != cls.__name__:
        member = _oneof_member(descriptor, cls.__name__)

        def encode_member(msg: Message, value: Any) -> None:
            sub = getattr(msg, member)
            sub.SetInParent()
            encode_into(sub, value)

        return encode_member
    steps = [(f.name, _field(descriptor, f.name)) for f in dataclasses.fields(cls)]
    plan = [(name, fd.is_repeated, _put(fd)) for name, fd in steps]

    def encode(msg: Message, value: Any) -> None:
        for name, repeated, put in plan:
            x = getattr(value, name)
            if x if repeated else x is not None:  # an empty repeated field is no field at all
                put(msg, x)

    return encode


def _field(descriptor: Any, name: str) -> Any:
    fd = descriptor.fields_by_name.get(name)
    if fd is None:
        raise CodecError(f"message {descriptor.full_name} has no field {name!r}")
    return fd


def _put(fd: Any) -> Put:
    """How to put a Python value into field ``fd`` of a message."""
    name = fd.name
    if fd.is_repeated and fd.message_type is None:
        def scalars(msg: Message, value: Any) -> None:
            getattr(msg, name).extend(sorted(value) if isinstance(value, frozenset) else value)

        return scalars
    if fd.is_repeated:
        pieces = Pieces(field_key(fd.number), _element_body(fd))

        def messages(msg: Message, value: Any) -> None:
            msg.MergeFromString(pieces.join(sorted(value) if type(value) is frozenset else value))

        return messages
    if fd.message_type is not None:
        def message(msg: Message, value: Any) -> None:
            sub = getattr(msg, name)
            sub.SetInParent()
            encode_into(sub, value)

        return message

    def scalar(msg: Message, value: Any) -> None:
        setattr(msg, name, value)

    return scalar


def _element_body(fd: Any) -> Callable[[Any], bytes]:
    """An element of repeated message field ``fd`` as its message's bytes; a list inside
    a list travels as a message whose one field is repeated (``Cards``)."""
    element = message_factory.GetMessageClass(fd.message_type)
    inner = fd.message_type.fields[0]
    wrapped = _put(inner) if len(fd.message_type.fields) == 1 and inner.is_repeated else None

    def body(item: Any) -> bytes:
        sub = element()
        if isinstance(item, (tuple, list, frozenset)):
            if wrapped is None:
                raise CodecError(f"{fd.message_type.full_name} does not hold a list")
            if item:
                wrapped(sub, item)
        else:
            encode_into(sub, item)
        data: bytes = sub.SerializeToString()
        return data

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
        self._actions: dict[bytes, Pieces] = {}
        self._events: dict[bytes, Pieces] = {}

    def observation(self, obs: Any) -> arena_pb2.GameObservation:
        envelope = arena_pb2.GameObservation()
        self.fill_observation(envelope, obs)
        return envelope

    def fill_observation(self, envelope: arena_pb2.GameObservation, obs: Any) -> None:
        """Fill ``envelope`` (say, a decision request's, in place) with ``obs``."""
        inner = getattr(envelope, self.field)
        inner.SetInParent()
        encode_into(inner, obs)

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
            pieces = self._actions[key] = Pieces(key, self._action_bytes)
        return pieces.join(actions)

    def event_pieces(self, key: bytes, events: Iterable[Any]) -> bytes:
        """``events`` as the elements of the repeated ``GameEvent`` field with ``key``."""
        pieces = self._events.get(key)
        if pieces is None:
            pieces = self._events[key] = Pieces(key, self._event_bytes)
        return pieces.join(events)

    def _action_bytes(self, action: Any) -> bytes:
        data: bytes = self.action(action).SerializeToString()
        return data

    def _event_bytes(self, event: Any) -> bytes:
        data: bytes = self.event(event).SerializeToString()
        return data

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
