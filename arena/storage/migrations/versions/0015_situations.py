"""Per-condition figures of a bot: who acted first, and each game's own conditions.

- ``match.first_to_act``: the seat that took the match's first decision. NULL for a match
  finished before this revision (its log tells, but a revision reads no log), and for one
  in which nobody decided.
- ``situation``: per finished match, seat and condition of its game (a hand's contract in
  King, a seat's role in a hand of Knives, whether it dealt): how many hands, and the sum
  and sum of squares of their points. Empty for the matches finished before: a bot's page
  counts the matches it has figures for.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("first_to_act", sa.Integer(), nullable=True))
    op.create_table(
        "situation",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("points_squared", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.PrimaryKeyConstraint("match_id", "seat", "kind", "value"),
    )


def downgrade() -> None:
    op.drop_table("situation")
    with op.batch_alter_table("match") as batch:
        batch.drop_column("first_to_act")
