"""Why a seat faulted, kept with the seat.

``seat.reason``: the reason the referee gave for the seat's fault ("no answer to
decision 7 in time", the bot's own error message, ...), as the match log has it, so
that a bot's faults can be listed with their reasons without reading match logs. NULL
for a seat without a fault. Filled here from the logs of the seats that faulted (a log
written before faults were logged, or unreadable, leaves it NULL).

A revision imports nothing from ``arena`` (``tests/storage/test_migrations.py`` checks): the
reading of a log's faults (:func:`arena.wire.messages.fault_reasons` at this revision) is
frozen here as a reader of the protobuf wire format, for the only fields it needs
(``MatchLog.entries = 1``; ``LogEntry.fault = 3`` of its oneof, beside ``decision = 1`` and
``event = 2``; ``LoggedFault.seat = 1`` and ``reason = 3``), so a log upgraded later is read the
same way whatever the arena's messages have become.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Iterator

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


class _Malformed(ValueError):
    """Bytes that are no protobuf message."""


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise _Malformed("a truncated varint")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value & 0xFFFF_FFFF_FFFF_FFFF, at
        shift += 7


def _fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """Each field of a message: (number, value), a varint's integer or a length-delimited
    field's bytes (fixed-width fields are skipped: none of the fields read here is one). A
    field of a wire type other than its own is an unknown field, as protobuf has it."""
    at = 0
    while at < len(data):
        key, at = _varint(data, at)
        number, kind = key >> 3, key & 7
        if number == 0:
            raise _Malformed("field number 0")
        if kind == 0:
            value, at = _varint(data, at)
            yield number, value
        elif kind == 2:
            size, at = _varint(data, at)
            if at + size > len(data):
                raise _Malformed("a truncated field")
            yield number, data[at:at + size]
            at += size
        elif kind in (1, 5):
            at += 8 if kind == 1 else 4
            if at > len(data):
                raise _Malformed("a truncated field")
        else:
            raise _Malformed(f"wire type {kind}")


def _fault(entry: bytes) -> bytes | None:
    """The ``LoggedFault`` of a ``LogEntry`` whose oneof holds one (the last of the oneof's
    fields wins; a message field given twice is merged, as its bytes joined)."""
    which, parts = 0, list[bytes]()
    for number, value in _fields(entry):
        if number in (1, 2, 3) and isinstance(value, bytes):  # else an unknown field
            if number != which:
                which, parts = number, []
            parts.append(value)
    return b"".join(parts) if which == 3 else None


def fault_reasons(data: bytes) -> dict[int, str]:
    """Each faulting seat's reason in a ``MatchLog``'s bytes; none for bytes that are no
    ``MatchLog``."""
    reasons: dict[int, str] = {}
    try:
        for number, entry in _fields(data):
            if number != 1 or not isinstance(entry, bytes):
                continue  # an unknown field
            fault = _fault(entry)
            if fault is None:
                continue
            seat, reason = 0, ""
            for field_number, value in _fields(fault):
                if field_number == 1 and isinstance(value, int):
                    seat = value & 0xFFFF_FFFF  # uint32
                elif field_number == 3 and isinstance(value, bytes):
                    reason = value.decode("utf-8")
            reasons[seat] = reason
    except (_Malformed, UnicodeDecodeError):
        return {}
    return reasons


def upgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("reason", sa.String(), nullable=True))
    conn = op.get_bind()
    faulted = conn.execute(sa.text(
        "SELECT seat.match_id, seat.seat, match.log FROM seat JOIN match "
        "ON match.id = seat.match_id WHERE seat.fault != '' AND match.log IS NOT NULL"))
    found = [{"m": match_id, "s": seat, "r": reason}
             for match_id, seat, log in faulted
             if (reason := fault_reasons(bytes(log)).get(seat))]
    if found:
        conn.execute(sa.text("UPDATE seat SET reason = :r WHERE match_id = :m AND seat = :s"),
                     found)


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("reason")
