"""Whether a match started sealed, kept with the match.

``match.sealed``: true when the match started with every seat a bot the arena ran in its
sandbox (a managed or submitted bot, the run's sandbox on: no network, so nothing a spectator
sees can reach it); the secrecy rule shows such a match's hands live when every other rotation
of its deal still to play is sealed too, and once a match of a deal started sealed the store
refuses to start any match of that deal unsealed. A run asks for the sandbox each time and
saved it nowhere, so nothing says how a match before this revision was played: false for
every one of them (its hands are shown once its deal is over, as before), and nothing to fill.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("sealed", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.drop_column("sealed")
