"""Why a seat faulted, kept with the seat.

``seat.reason``: the reason the referee gave for the seat's fault ("no answer to
decision 7 in time", the bot's own error message, ...), as the match log has it, so
that a bot's faults can be listed with their reasons without reading match logs. NULL
for a seat without a fault. Filled here from the logs of the seats that faulted (a log
written before faults were logged, or unreadable, leaves it NULL).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from arena.wire.messages import fault_reasons

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


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
