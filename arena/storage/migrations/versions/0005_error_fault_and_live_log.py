"""A seat's ``error`` fault, and the log of a match while it runs.

``seat.fault`` may now be ``error``: the bot reported an exception of its own
(its message is in the match log), which is not a disconnect. The CHECK
constraint is widened; every stored value stays valid.

``match.live_log``: the log of a running match so far, an ``arena.v1.MatchLog``
like the final one (every decision and event, with its audience: all seats),
written now and then while it is played so that spectators can follow it, and
cleared when it finishes (the full log is then in ``match.log``). The database is
the operator's, out of every bot's reach; the web serves only the public view
derived from it while the match runs. NULL for every match before this revision.

The values are written out here, not taken from the code: this revision must
keep meaning what it meant when it was released.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

FAULTS_BEFORE = ("", "timeout", "disconnected", "crashed", "illegal-action", "malformed", "no-show")
FAULTS = (*FAULTS_BEFORE, "error")
LENGTH = 32


def _fault(values: tuple[str, ...]) -> sa.Enum:
    return sa.Enum(*values, name="ck_seat_fault", native_enum=False, create_constraint=True,
                   length=LENGTH)


def _set_faults(before: tuple[str, ...], after: tuple[str, ...]) -> None:
    # the old CHECK constraint goes with its type (``existing_type``), the new one comes with
    # the new type, on SQLite's copied table and in PostgreSQL's ALTER alike
    with op.batch_alter_table("seat") as batch:
        batch.alter_column("fault", existing_type=_fault(before), type_=_fault(after),
                           existing_nullable=False)


def upgrade() -> None:
    _set_faults(FAULTS_BEFORE, FAULTS)
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("live_log", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.drop_column("live_log")
    # a seat recorded with ``error`` reads as the nearest older fault: its stream ended
    op.execute(sa.text("UPDATE seat SET fault = 'disconnected' WHERE fault = 'error'"))
    _set_faults(FAULTS, FAULTS_BEFORE)
