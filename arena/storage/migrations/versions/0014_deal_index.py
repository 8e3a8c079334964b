"""An index on a deal's matches.

``match (tournament_id, seed)``: the seat rotations of a duplicate deal are the matches of
one tournament with one seed. Whether another rotation of a finished match's deal is still
to play (the secrecy rule of every view of a match, and of a dataset export) is looked up
from the index, not by reading the tournament's every match.

Only an index is added: no row is touched.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_match_tournament_seed", "match", ["tournament_id", "seed"])


def downgrade() -> None:
    op.drop_index("ix_match_tournament_seed", table_name="match")
