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
import types
import typing
from collections.abc import Sequence
from enum import IntEnum
from functools import cache
from typing import Any

from google.protobuf.message import Message

from arena.games import Game, module_name
from arena.games.base import InvalidActionError, OptionValue
from arena.v1 import arena_pb2


class CodecError(ValueError):
    """A message does not hold a valid value of the expected game type."""


_HINTS: dict[type, dict[str, Any]] = {}
_FIELDS: dict[type, tuple[str, ...]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _fields(cls: type) -> tuple[str, ...]:
    if cls not in _FIELDS:
        _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return _FIELDS[cls]


def _is_repeated(fd: Any) -> bool:
    return bool(fd.is_repeated)


def encode_into(msg: Message, value: Any) -> None:
    """Fill ``msg`` from the dataclass ``value`` (the message's own type or a oneof member)."""
    cls = type(value)
    descriptor = msg.DESCRIPTOR
    if descriptor.name != cls.__name__:
        member = _oneof_member(descriptor, cls.__name__)
        sub = getattr(msg, member)
        sub.SetInParent()
        encode_into(sub, value)
        return
    by_name = descriptor.fields_by_name
    for name in _fields(cls):
        fd = by_name.get(name)
        if fd is None:
            raise CodecError(f"message {descriptor.full_name} has no field {name!r}")
        _set(msg, fd, getattr(value, name))


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


def _set(msg: Message, fd: Any, value: Any) -> None:
    name = fd.name
    if value is None:
        return
    if _is_repeated(fd):
        container = getattr(msg, name)
        items = sorted(value) if isinstance(value, frozenset) else value
        if fd.message_type is None:
            container.extend(int(v) if isinstance(v, IntEnum) else v for v in items)
            return
        for item in items:
            sub = container.add()
            if isinstance(item, (tuple, list, frozenset)):
                inner = sub.DESCRIPTOR.fields[0]
                _set(sub, inner, item)
            else:
                encode_into(sub, item)
        return
    if fd.message_type is not None:
        sub = getattr(msg, name)
        sub.SetInParent()
        encode_into(sub, value)
        return
    setattr(msg, name, int(value) if isinstance(value, IntEnum) else value)


def decode(msg: Message, hint: Any) -> Any:
    """The value of type ``hint`` (a dataclass or a union of dataclasses) held by ``msg``."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        return _decode_union(msg, members)
    if not (isinstance(hint, type) and dataclasses.is_dataclass(hint)):
        raise CodecError(f"cannot decode a message into {hint!r}")
    if msg.DESCRIPTOR.name != hint.__name__:
        return _decode_union(msg, [hint])
    hints = _hints(hint)
    by_name = msg.DESCRIPTOR.fields_by_name
    kwargs = {name: _get(msg, by_name[name], hints[name]) for name in _fields(hint)}
    try:
        return hint(**kwargs)
    except (ValueError, TypeError) as err:
        raise CodecError(f"invalid {hint.__name__}: {err}") from None


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


def _get(msg: Message, fd: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner = next(a for a in args if a is not type(None))
        if _is_repeated(fd) or not msg.HasField(fd.name):
            return None
        return _get(msg, fd, inner)
    value = getattr(msg, fd.name)
    if origin in (tuple, frozenset):
        item_hint = args[0]
        if fd.message_type is None:
            items = [_scalar(v, item_hint) for v in value]
        elif typing.get_origin(item_hint) in (tuple, frozenset):
            inner = item_hint
            items = [_get(sub, sub.DESCRIPTOR.fields[0], inner) for sub in value]
        else:
            items = [decode(sub, item_hint) for sub in value]
        return frozenset(items) if origin is frozenset else tuple(items)
    if fd.message_type is not None:
        return decode(value, hint)
    return _scalar(value, hint)


def _scalar(value: Any, hint: Any) -> Any:
    if isinstance(hint, type) and issubclass(hint, IntEnum):
        try:
            return hint(value)
        except ValueError:
            raise CodecError(f"{value} is not a {hint.__name__}") from None
    return value


# -- the per-game view used by the referee, the server and the SDK -------------
class GameCodec:
    """Encode and decode one game's observations, actions and events."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game
        self.field = module_name(game)
        self.pb = importlib.import_module(f"arena.v1.{self.field}_pb2")
        self._action_union = _union(game.action_types)
        self._event_union = _union(game.event_types)

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
    from arena.games import get_game

    return GameCodec(get_game(game_name))


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

