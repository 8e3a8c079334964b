"""Opening a database reads the migrations' revisions from their files, without Alembic
(:func:`arena.storage.schema._revisions`): the same as Alembic reads, and Alembic is not
imported by a command that opens a current database."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory

from arena.storage import schema
from tests.helpers import migrated_db


def test_the_revisions_read_from_the_files_are_alembics() -> None:
    script = ScriptDirectory.from_config(schema.alembic_config())
    heads, every = schema._revisions()
    assert heads == frozenset(script.get_heads()) and len(heads) == 1
    assert every == frozenset(s.revision for s in script.walk_revisions())
    assert schema.head() == script.get_current_head()


def test_opening_a_current_database_does_not_import_alembic(tmp_path: Path) -> None:
    db = migrated_db(tmp_path / "arena.db")
    probe = ("import sys; from arena.storage.store import Store; "
             f"Store({str(db)!r}).close(); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))")
    opened = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    assert opened.stdout.strip() == "[]"
