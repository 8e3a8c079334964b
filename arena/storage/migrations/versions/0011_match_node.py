"""Where a match was played, kept with the match.

``match.node``: when an executor played the match elsewhere (a node of a Ray cluster),
one line of text that names the node and where its bot logs and Ray logs are ("node
127.0.0.1 (id 3f2a9c1b0d7e): bot logs /tmp/arena-node-abc/logs, Ray logs
/tmp/ray/session_x/logs"), so that a match's logs can be found from its record. NULL for
a match played on the machine that ran its tournament, as every match before this
revision was: nothing to fill.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("node", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.drop_column("node")
