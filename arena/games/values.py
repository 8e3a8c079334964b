"""A game's values (observations, actions, events, cards) as JSON, one generic way: a card as
its code (``"7H"``, ``"TS#1"``, ``"X1"``), an enum as its name in lower case, a dataclass as an
object of its fields, tuples and sets as lists. The web's replays and the dataset export
both write values so."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from enum import Enum
from typing import Any


def to_json(value: Any) -> Any:
    """``value`` as JSON (the way to convert is found once per type)."""
    kind = type(value)
    convert = _CONVERTERS.get(kind)
    if convert is None:
        convert = _CONVERTERS[kind] = _converter(kind)
    return convert(value)


def _same(value: Any) -> Any:
    return value


def _converter(kind: type) -> Callable[[Any], Any]:
    if issubclass(kind, Enum):
        lowered = {member: member.name.lower() for member in kind}
        return lowered.__getitem__
    if value_type := next((t for t in (bool, str, float) if issubclass(kind, t)), None):
        return _same if kind is value_type else value_type
    if issubclass(kind, int) or kind is type(None):
        return _same if kind in (int, type(None)) else int
    if dataclasses.is_dataclass(kind):
        if isinstance(getattr(kind, "code", None), property):  # a card: its code
            codes: dict[Any, str] = {}

            def code(card: Any) -> str:
                found = codes.get(card)
                if found is None:
                    found = codes[card] = str(card.code)
                return found
            return code
        names = tuple(f.name for f in dataclasses.fields(kind))
        return lambda value: {name: to_json(getattr(value, name)) for name in names}
    if issubclass(kind, (tuple, list)):
        return lambda value: [to_json(item) for item in value]
    if issubclass(kind, (frozenset, set)):
        return lambda value: [to_json(item) for item in sorted(value)]
    if issubclass(kind, dict):
        return lambda value: {str(key): to_json(item) for key, item in value.items()}
    return str


_CONVERTERS: dict[type, Callable[[Any], Any]] = {}


__all__ = ["to_json"]
