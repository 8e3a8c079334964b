"""Secret deals, memory lanes, and who played a seat.

``tournament.deal_key``: the tournament's secret (64 hex digits, from ``secrets``)
its deals are derived from; NULL for tournaments created before this revision,
and for those whose deals come from their public seed on purpose.
``match.lane``: which of a bot's processes plays the match (the seat rotation of
a duplicated deal, so that no process sees a deal twice; 0 otherwise).
``seat.peer``: the connection a remote bot's seat was played over (NULL for a
managed bot), so that a token shared between two machines shows.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("deal_key", sa.String(), nullable=True))
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("lane", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("peer", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("peer")
    with op.batch_alter_table("match") as batch:
        batch.drop_column("lane")
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("deal_key")
