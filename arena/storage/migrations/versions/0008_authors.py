"""Authors, and queued tournaments.

``author``: the people who submit bots to an arena run as a service (``arena serve``):
a unique name and the SHA-256 of the author's secret token (the token itself is shown
once and kept nowhere), with the time the author was added.

``bot.author_id``: the author whose bot it is (NULL: the operator's, and every bot
registered before this revision). A bot's name belongs to the author who first
submitted it.

``tournament.status`` may now be ``queued``: created through the operator service and
waiting for the server's scheduler to play it. The CHECK constraint is widened; every
stored value stays valid.

The values are written out here, not taken from the code: this revision must keep
meaning what it meant when it was released.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None

STATUSES_BEFORE = ("running", "finished", "interrupted")
STATUSES = (*STATUSES_BEFORE, "queued")
LENGTH = 32


def _status(values: tuple[str, ...]) -> sa.Enum:
    return sa.Enum(*values, name="ck_tournament_status", native_enum=False,
                   create_constraint=True, length=LENGTH)


def _set_statuses(before: tuple[str, ...], after: tuple[str, ...]) -> None:
    # as 0005 widened ck_seat_fault: the old CHECK goes with its type, the new one comes
    # with the new type
    with op.batch_alter_table("tournament") as batch:
        batch.alter_column("status", existing_type=_status(before), type_=_status(after),
                           existing_nullable=False)


def upgrade() -> None:
    op.create_table(
        "author",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name", name="uq_author_name"),
        sa.UniqueConstraint("token_hash", name="uq_author_token_hash"),
    )
    with op.batch_alter_table("bot") as batch:
        batch.add_column(sa.Column("author_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_bot_author_id", "author", ["author_id"], ["id"])
        batch.create_index("ix_bot_author_id", ["author_id"])
    _set_statuses(STATUSES_BEFORE, STATUSES)


def downgrade() -> None:
    # a queued tournament reads as the nearest older status: started by no one yet, it is
    # what an interrupted run leaves (``arena tournament resume`` plays it)
    op.execute(sa.text("UPDATE tournament SET status = 'interrupted' WHERE status = 'queued'"))
    _set_statuses(STATUSES, STATUSES_BEFORE)
    with op.batch_alter_table("bot") as batch:
        batch.drop_index("ix_bot_author_id")
        batch.drop_constraint("fk_bot_author_id", type_="foreignkey")
        batch.drop_column("author_id")
    op.drop_table("author")
