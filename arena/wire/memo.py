"""The memo of repeated history: wire bytes of immutable items, encoded once.

Observations repeat their history (King's completed tricks, past results, the
cards drawn for the first dealer) and their cards at every decision, the same
few actions are offered again and again, and equal frozen dataclasses encode to
equal bytes. So a repeated message field keeps the bytes of every frozen item it
has encoded (its key, length and body) and writes the field as one join of those
pieces, which protobuf merges in one C call, instead of building a sub-message
field by field per item; a tuple given a second time (the same object) is one
remembered join. Measured on King, this is most of what the codec's speed owes
to memory (about 31 us of 112 us per decision); nothing else is remembered.

A table forgets all once it knows :data:`KNOWN_ITEMS` items, which bounds the
memory, and what the garbage collector walks: the tables hold their items for long,
and at 4,096 items each they were some 20,000 of the 37,000 objects a full collection of
``arena serve`` walked on the loop that runs the match clocks (13 ms of it; the referee's
speed is the same at 1,024, within this machine's noise). For the same reason a table by
identity (:class:`Known`) maps ids to bytes, which the collector never walks, and holds
its items in one list, rather than a ``(item, bytes)`` pair per item: at 1,024 items
each, those pairs were still 6,000 of the 26,000 objects a full collection walked there.
``REMEMBER = False`` turns memory off (the tests compare both ways).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

REMEMBER = True
KNOWN_ITEMS = 1024
KNOWN_TUPLES = 256


def remember(table: dict[Any, Any], key: Any, value: Any, limit: int = KNOWN_ITEMS) -> None:
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


_VARINTS = tuple(_encode_varint(n) for n in range(4096))  # the lengths and keys met in play


def varint(number: int) -> bytes:
    """A non-negative number as a protobuf varint."""
    return _VARINTS[number] if number < 4096 else _encode_varint(number)


def field_key(number: int) -> bytes:
    """The key of field ``number`` with the length-delimited wire type (a message)."""
    return varint(number << 3 | 2)


def delimited(key: bytes, body: bytes) -> bytes:
    """One length-delimited field: its key, the length of ``body``, ``body``."""
    return key + varint(len(body)) + body


def immutable(item: Any) -> bool:
    """A frozen dataclass (hashable; equal values encode the same); found once per type."""
    cls = type(item)
    frozen = _FROZEN.get(cls)
    if frozen is None:
        params = getattr(cls, "__dataclass_params__", None)
        frozen = _FROZEN[cls] = bool(params is not None and params.frozen)
    return frozen


_FROZEN: dict[type, bool] = {}


class Known:
    """Bytes remembered per object, by identity: ``data`` maps the ``id`` of each item to
    its bytes, and ``held`` keeps the items alive, so that an id found in ``data`` is
    that item's (never reused while remembered). A dict of ints and bytes is not tracked
    by the garbage collector, where a pair per item would be. Forgets all once it holds
    ``limit`` items."""

    __slots__ = ("data", "held", "limit")

    def __init__(self, limit: int = KNOWN_ITEMS) -> None:
        self.data: dict[int, bytes] = {}
        self.held: list[Any] = []
        self.limit = limit

    def put(self, item: Any, data: bytes) -> None:
        key = id(item)
        if key in self.data:
            return
        if len(self.data) >= self.limit:
            self.data.clear()
            self.held.clear()
        self.data[key] = data
        self.held.append(item)


class Bodies:
    """The wire bytes of immutable items as messages of their own (an element's body),
    found by identity first (no hashing: hashing a dataclass calls Python code for
    every field, card by card, and history items are the same objects decision after
    decision), then by value (equal items made afresh). Both hold the item, so an id
    is never reused while it is remembered. ``encode(item)`` gives an item's bytes.

    One table may serve several fields holding the same kind of item (a game's
    events ride on decision requests, on their own and in the match log).
    """

    __slots__ = ("by_id", "by_value", "encode")

    def __init__(self, encode: Callable[[Any], bytes]) -> None:
        self.encode = encode
        self.by_id = Known()
        self.by_value: dict[Any, bytes] = {}

    def body(self, item: Any) -> bytes:
        if not REMEMBER:
            return self.encode(item)
        hit = self.by_id.data.get(id(item))
        if hit is not None:
            return hit
        if not immutable(item):
            return self.encode(item)
        try:
            data = self.by_value.get(item)
        except TypeError:  # a frozen dataclass holding something unhashable: never remembered
            return self.encode(item)
        if data is None:
            data = self.encode(item)
            remember(self.by_value, item, data)
        self.by_id.put(item, data)
        return data


class Pieces:
    """One repeated message field's elements as wire bytes (key, length, body), each
    immutable item's remembered by identity: the field's bytes are the join of its
    elements'. Bodies come from a :class:`Bodies` table, which may be shared."""

    __slots__ = ("bodies", "by_id", "key", "tuples")

    def __init__(self, key: bytes, bodies: Bodies) -> None:
        self.key = key
        self.bodies = bodies
        self.by_id = Known()
        self.tuples = Known(KNOWN_TUPLES)  # a whole tuple given again

    def piece(self, item: Any) -> bytes:
        """The bytes of one element holding ``item``."""
        data = delimited(self.key, self.bodies.body(item))
        if REMEMBER and immutable(item):
            self.by_id.put(item, data)
        return data

    def join(self, items: Iterable[Any]) -> bytes:
        """The field's bytes holding ``items`` in order (a tuple seen before: one lookup)."""
        if not REMEMBER:
            return b"".join([self.piece(item) for item in items])
        if type(items) is tuple:
            hit = self.tuples.data.get(id(items))
            if hit is not None:
                return hit
        by_id, piece = self.by_id.data, self.piece
        parts = []
        for item in items:  # the identity lookup of piece(), inline: most items are found so
            known = by_id.get(id(item))
            parts.append(known if known is not None else piece(item))
        data = b"".join(parts)
        if type(items) is tuple:
            self.tuples.put(items, data)
        return data
