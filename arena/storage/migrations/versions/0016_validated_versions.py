"""What a submitted version's validation played.

``bot.validated``: the games a version's validation played before it was accepted (JSON, a
list of names). NULL for a version accepted without one, as every version before this
revision was recorded: nothing to fill.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("bot") as batch:
        batch.add_column(sa.Column("validated", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bot") as batch:
        batch.drop_column("validated")
