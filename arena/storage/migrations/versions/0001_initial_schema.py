"""The schema as the arena created it before it had migrations.

``SQLModel.metadata.create_all`` made these tables: JSON kept as text, statuses
and faults as plain strings. A database made then has these tables and no
``alembic_version``: the store stamps it at this revision and upgrades it.

Revision ID: 0001
Revises:
Create Date: 2026-11-24
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def _when(name: str, *, nullable: bool) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "bot",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("version", sa.String(), nullable=False),
        sa.Column("command", sa.String(), nullable=False),
        sa.Column("token_hash", sa.String(), nullable=True),
        sa.Column("removed", sa.Boolean(), nullable=False),
        _when("created_at", nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name", "version", name="uq_bot_name_version"),
    )
    op.create_index("ix_bot_name", "bot", ["name"])
    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.String(), nullable=False),
        sa.Column("seed", sa.String(), nullable=False),
        sa.Column("repetitions", sa.Integer(), nullable=False),
        sa.Column("settings", sa.String(), nullable=False),
        sa.Column("bot_ids", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        _when("created_at", nullable=False),
        _when("finished_at", nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("options", sa.String(), nullable=False),
        sa.Column("seed", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        _when("created_at", nullable=False),
        _when("started_at", nullable=True),
        _when("finished_at", nullable=True),
        sa.Column("duration_s", sa.Float(), nullable=True),
        sa.Column("finish_seq", sa.Integer(), nullable=True),
        sa.Column("log", sa.LargeBinary(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "index", name="uq_match_tournament_index"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"]),
        sa.UniqueConstraint("finish_seq"),
    )
    op.create_index("ix_match_tournament_status", "match", ["tournament_id", "status"])
    op.create_table(
        "rating",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("faults", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("bot_id", "game", name="uq_rating_bot_game"),
        sa.ForeignKeyConstraint(["bot_id"], ["bot.id"]),
    )
    op.create_index("ix_rating_game", "rating", ["game"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("finish_seq", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["bot_id"], ["bot.id"]),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
    )
    op.create_index("ix_rating_history_bot_game", "rating_history", ["bot_id", "game", "finish_seq"])
    op.create_table(
        "seat",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("fault", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat"),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.ForeignKeyConstraint(["bot_id"], ["bot.id"]),
    )
    op.create_index("ix_seat_bot_id", "seat", ["bot_id"])


def downgrade() -> None:
    for table in ("seat", "rating_history", "rating", "match", "tournament", "bot"):
        op.drop_table(table)
