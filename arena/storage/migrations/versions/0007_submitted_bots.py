"""Submitted bots: a version tied to its code.

``bot_archive``: the canonical archive of each submitted version's code, keyed by
its SHA-256 (hex), with its number of entries and bytes of files; the same code
submitted twice is kept once.

``bot.content_hash``: the hash of the archive a submitted version runs (NULL for a
bot registered with a command of the operator's, and for a remote bot).
``bot.games``: the games a submitted version says it plays (a JSON list; NULL:
not said).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "bot_archive",
        sa.Column("sha256", sa.String(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("files", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("sha256"),
    )
    with op.batch_alter_table("bot") as batch:
        batch.add_column(sa.Column("content_hash", sa.String(), nullable=True))
        batch.add_column(sa.Column("games", sa.JSON(), nullable=True))
        batch.create_foreign_key("fk_bot_content_hash", "bot_archive", ["content_hash"],
                                 ["sha256"])
        batch.create_index("ix_bot_content_hash", ["content_hash"])


def downgrade() -> None:
    with op.batch_alter_table("bot") as batch:
        batch.drop_index("ix_bot_content_hash")
        batch.drop_constraint("fk_bot_content_hash", type_="foreignkey")
        batch.drop_column("games")
        batch.drop_column("content_hash")
    op.drop_table("bot_archive")
