"""Win-probability graphs: per finished match, each seat's chance to finish first after each
decision (``arena.app.graphs``), computed in the background once the match's deal is over.

``win_graph``: one row per match that has one (``match_id``): ``steps`` (its decisions and its
start), ``rollouts`` per step computed, ``series`` (JSON: the steps computed and each seat's
chance there), ``cpu_s`` (the CPU seconds it took), ``error`` (why there is none: a log that
does not replay) and ``created_at``. A new, empty table: the matches finished before it get
their graphs from the worker, as new ones do; nothing to fill here.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "win_graph",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("rollouts", sa.Integer(), nullable=False),
        sa.Column("series", sa.JSON(), nullable=False),
        sa.Column("cpu_s", sa.Float(), nullable=False),
        sa.Column("error", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.PrimaryKeyConstraint("match_id"),
    )


def downgrade() -> None:
    op.drop_table("win_graph")
