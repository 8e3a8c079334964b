"""Typed columns: JSON for options, settings and bot ids; constrained statuses and faults.

``tournament.options``, ``tournament.settings``, ``tournament.bot_ids`` and
``match.options`` become the database's JSON type (``JSON`` on PostgreSQL,
converted with ``::json``; on SQLite JSON is text, so the stored text is kept as
it is). ``tournament.status``, ``match.status`` and ``seat.fault`` become
strings of at most 32 characters with a CHECK constraint naming the allowed
values, so a bad value is refused by the database itself; a stored value
outside them makes this migration fail (and change nothing).

The values are written out here, not taken from the code: this revision must
keep meaning what it meant when it was released.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

TOURNAMENT_STATUSES = ("running", "finished", "interrupted")
MATCH_STATUSES = ("pending", "running", "finished", "void")
FAULTS = ("", "timeout", "disconnected", "crashed", "illegal-action", "malformed", "no-show")
LENGTH = 32

_JSON_COLUMNS = {"tournament": ("options", "settings", "bot_ids"), "match": ("options",)}
_CHOICES = {
    "tournament": ("status", "ck_tournament_status", TOURNAMENT_STATUSES),
    "match": ("status", "ck_match_status", MATCH_STATUSES),
    "seat": ("fault", "ck_seat_fault", FAULTS),
}


def _choice(name: str, values: tuple[str, ...]) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=LENGTH)


def upgrade() -> None:
    for table in ("tournament", "match", "seat"):
        with op.batch_alter_table(table) as batch:
            for column in _JSON_COLUMNS.get(table, ()):
                batch.alter_column(
                    column, existing_type=sa.String(), type_=sa.JSON(), existing_nullable=False,
                    postgresql_using=f"{column}::json",
                )
            column, check, values = _CHOICES[table]
            batch.alter_column(
                column, existing_type=sa.String(), type_=_choice(check, values),
                existing_nullable=False,
            )


def downgrade() -> None:
    for table in ("seat", "match", "tournament"):
        column, check, _values = _CHOICES[table]
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(check, type_="check")
            batch.alter_column(
                column, existing_type=sa.String(LENGTH), type_=sa.String(), existing_nullable=False,
            )
            for column in _JSON_COLUMNS.get(table, ()):
                batch.alter_column(
                    column, existing_type=sa.JSON(), type_=sa.String(), existing_nullable=False,
                    postgresql_using=f"{column}::text",
                )
