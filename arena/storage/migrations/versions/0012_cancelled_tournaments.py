"""Cancelled tournaments.

``tournament.status`` may now be ``cancelled``: an operator stopped it (``arena tournament
cancel``) and its unfinished matches are void, where before it read ``finished`` as if it
had been played to its end. The CHECK constraint is widened; every stored value stays
valid (a tournament cancelled before this revision keeps reading ``finished``: nothing
recorded tells it from one played out).

The values are written out here, not taken from the code: this revision must keep
meaning what it meant when it was released.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None

STATUSES_BEFORE = ("running", "finished", "interrupted", "queued")
STATUSES = (*STATUSES_BEFORE, "cancelled")
LENGTH = 32


def _status(values: tuple[str, ...]) -> sa.Enum:
    return sa.Enum(*values, name="ck_tournament_status", native_enum=False,
                   create_constraint=True, length=LENGTH)


def _set_statuses(before: tuple[str, ...], after: tuple[str, ...]) -> None:
    # as 0008 widened it: the old CHECK goes with its type, the new one comes with the new type
    with op.batch_alter_table("tournament") as batch:
        batch.alter_column("status", existing_type=_status(before), type_=_status(after),
                           existing_nullable=False)


def upgrade() -> None:
    _set_statuses(STATUSES_BEFORE, STATUSES)


def downgrade() -> None:
    # a cancelled tournament reads as it did before this revision: finished
    op.execute(sa.text("UPDATE tournament SET status = 'finished' WHERE status = 'cancelled'"))
    _set_statuses(STATUSES, STATUSES_BEFORE)
