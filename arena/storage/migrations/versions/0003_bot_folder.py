"""A managed bot's folder: its working directory, and all of its own that its sandbox shows.

``bot.folder`` is the absolute path of the folder a managed bot runs in. Bots
registered before this revision have none: they run in the arena's working
directory, as they always did.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("bot") as batch:
        batch.add_column(sa.Column("folder", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bot") as batch:
        batch.drop_column("folder")
