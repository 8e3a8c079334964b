"""Voided tournaments.

``tournament.status`` may now be ``voided``: an operator took it out of the ratings
(``arena tournament void``) and every match of it is void, where before it read
``finished`` as if it counted. The CHECK constraint is widened, and a tournament voided
before this revision reads ``voided`` when its matches tell so: only a void takes a match
that had finished (it keeps its result) to ``void``. One voided before any match of it
finished leaves no such trace and keeps reading ``finished``.

The values are written out here, not taken from the code: this revision must keep
meaning what it meant when it was released.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None

STATUSES_BEFORE = ("running", "finished", "interrupted", "queued", "cancelled")
STATUSES = (*STATUSES_BEFORE, "voided")
LENGTH = 32

VOIDED_BEFORE = """
UPDATE tournament SET status = 'voided'
WHERE status = 'finished' AND EXISTS (
    SELECT 1 FROM "match" m
    WHERE m.tournament_id = tournament.id AND m.status = 'void' AND m.finished_at IS NOT NULL)
"""
"""The tournaments voided before this revision: a match of theirs finished, then void."""


def _status(values: tuple[str, ...]) -> sa.Enum:
    return sa.Enum(*values, name="ck_tournament_status", native_enum=False,
                   create_constraint=True, length=LENGTH)


def _set_statuses(before: tuple[str, ...], after: tuple[str, ...]) -> None:
    # as 0012 widened it: the old CHECK goes with its type, the new one comes with the new type
    with op.batch_alter_table("tournament") as batch:
        batch.alter_column("status", existing_type=_status(before), type_=_status(after),
                           existing_nullable=False)


def upgrade() -> None:
    _set_statuses(STATUSES_BEFORE, STATUSES)
    op.execute(sa.text(VOIDED_BEFORE))


def downgrade() -> None:
    # a voided tournament reads as it did before this revision: finished
    op.execute(sa.text("UPDATE tournament SET status = 'finished' WHERE status = 'voided'"))
    _set_statuses(STATUSES, STATUSES_BEFORE)
