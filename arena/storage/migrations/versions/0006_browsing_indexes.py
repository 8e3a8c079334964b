"""Indexes for browsing: a bot's matches newest first, and its faults.

``seat (bot_id, match_id)`` replaces ``seat (bot_id)``: a bot's seats come in
match order from the index itself, so a bot's page lists its latest matches (and
pages back through them) and gathers its head-to-head results without sorting
every seat it ever took; every query ``seat (bot_id)`` served, this one serves.

``seat (bot_id, match_id, fault) WHERE fault != ''`` (a partial index, on SQLite
and PostgreSQL alike) holds only the seats that faulted: a bot's faults are found
without reading its other seats, and counted by kind from the index alone.

Only indexes change: no row is touched.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

FAULTED = "fault != ''"


def upgrade() -> None:
    op.create_index("ix_seat_bot_match", "seat", ["bot_id", "match_id"])
    op.drop_index("ix_seat_bot_id", table_name="seat")
    op.create_index("ix_seat_bot_fault", "seat", ["bot_id", "match_id", "fault"],
                    sqlite_where=sa.text(FAULTED), postgresql_where=sa.text(FAULTED))


def downgrade() -> None:
    op.drop_index("ix_seat_bot_fault", table_name="seat")
    op.create_index("ix_seat_bot_id", "seat", ["bot_id"])
    op.drop_index("ix_seat_bot_match", table_name="seat")
