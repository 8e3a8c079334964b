"""The arena's schema migrations (Alembic), run by :class:`arena.storage.store.Store` itself.

Opening a store brings its database to the newest revision (see
:mod:`arena.storage.schema`); nobody needs to run Alembic by hand. ``env.py``
takes the connection the store hands it (``config.attributes["connection"]``),
already inside the store's write transaction.

For developers, ``arena/storage/alembic.ini`` points Alembic's command line
here::

    alembic -c arena/storage/alembic.ini history
    alembic -c arena/storage/alembic.ini revision --rev-id 0003 -m "what changes"  # edit it
    alembic -c arena/storage/alembic.ini -x db=some.db upgrade head   # or ARENA_DB=...

A revision is frozen once released: it spells out its tables, types and values
instead of importing the current ones from :mod:`arena.storage.tables`, and
``tests/storage/test_migrations.py`` checks that the newest revision agrees with those
tables. On SQLite, change a table inside ``op.batch_alter_table`` (SQLite alters
little in place: the table is copied).
"""
