"""Schema migrations: a database of the arena before migrations is upgraded without losing a row.

The old database is built here by hand, as the arena wrote it before it had
migrations: the ``CREATE TABLE`` statements ``SQLModel.metadata.create_all``
emitted (SQLite and PostgreSQL; only the spaces at the ends of lines are gone,
and the SQLite statements are compared with whitespace folded), and rows as the old store stored them (JSON
as sorted text, statuses and faults as plain strings, datetimes as SQLAlchemy
wrote them). Every test runs on SQLite and on a real PostgreSQL server
(``pgserver``, as in ``tests/storage/test_postgres.py``).
"""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from arena.match.faults import Fault
from arena.rating import ratings as rt
from arena.storage import schema
from arena.storage.store import (
    MatchResult,
    MatchStatus,
    ScheduledMatch,
    Store,
    StoredGraph,
    StoreError,
    SubmittedCode,
    TournamentStatus,
)
from arena.storage.tables import SUMMARY_TABLES, TABLE_NAMES, metadata
from arena.wire.codec import codec_for
from arena.wire.messages import LoggedFault, match_log
from tests.conftest import new_postgres_database
from tests.helpers import cli, open_and_add
from tests.storage.test_summaries import assert_summaries_as_recomputed

GAME = "some-game"

# ---------------------------------------------------------------- the old schema, as create_all made it

OLD_SQLITE = [
    """CREATE TABLE bot (
	id INTEGER NOT NULL,
	name VARCHAR NOT NULL,
	version VARCHAR NOT NULL,
	command VARCHAR NOT NULL,
	token_hash VARCHAR,
	removed BOOLEAN NOT NULL,
	created_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	CONSTRAINT uq_bot_name_version UNIQUE (name, version)
)""",
    "CREATE INDEX ix_bot_name ON bot (name)",
    """CREATE TABLE tournament (
	id INTEGER NOT NULL,
	game VARCHAR NOT NULL,
	players INTEGER NOT NULL,
	options VARCHAR NOT NULL,
	seed VARCHAR NOT NULL,
	repetitions INTEGER NOT NULL,
	settings VARCHAR NOT NULL,
	bot_ids VARCHAR NOT NULL,
	status VARCHAR NOT NULL,
	created_at DATETIME NOT NULL,
	finished_at DATETIME,
	PRIMARY KEY (id)
)""",
    """CREATE TABLE "match" (
	id INTEGER NOT NULL,
	tournament_id INTEGER,
	"index" INTEGER NOT NULL,
	game VARCHAR NOT NULL,
	options VARCHAR NOT NULL,
	seed VARCHAR NOT NULL,
	status VARCHAR NOT NULL,
	created_at DATETIME NOT NULL,
	started_at DATETIME,
	finished_at DATETIME,
	duration_s FLOAT,
	finish_seq INTEGER,
	log BLOB,
	PRIMARY KEY (id),
	CONSTRAINT uq_match_tournament_index UNIQUE (tournament_id, "index"),
	FOREIGN KEY(tournament_id) REFERENCES tournament (id),
	UNIQUE (finish_seq)
)""",
    'CREATE INDEX ix_match_tournament_status ON "match" (tournament_id, status)',
    """CREATE TABLE rating (
	id INTEGER NOT NULL,
	bot_id INTEGER NOT NULL,
	game VARCHAR NOT NULL,
	mu FLOAT NOT NULL,
	sigma FLOAT NOT NULL,
	matches INTEGER NOT NULL,
	wins INTEGER NOT NULL,
	faults INTEGER NOT NULL,
	PRIMARY KEY (id),
	CONSTRAINT uq_rating_bot_game UNIQUE (bot_id, game),
	FOREIGN KEY(bot_id) REFERENCES bot (id)
)""",
    "CREATE INDEX ix_rating_game ON rating (game)",
    """CREATE TABLE rating_history (
	id INTEGER NOT NULL,
	bot_id INTEGER NOT NULL,
	game VARCHAR NOT NULL,
	match_id INTEGER NOT NULL,
	mu FLOAT NOT NULL,
	sigma FLOAT NOT NULL,
	finish_seq INTEGER NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(bot_id) REFERENCES bot (id),
	FOREIGN KEY(match_id) REFERENCES "match" (id)
)""",
    "CREATE INDEX ix_rating_history_bot_game ON rating_history (bot_id, game, finish_seq)",
    """CREATE TABLE seat (
	match_id INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	bot_id INTEGER NOT NULL,
	score FLOAT,
	rank INTEGER,
	fault VARCHAR NOT NULL,
	PRIMARY KEY (match_id, seat),
	FOREIGN KEY(match_id) REFERENCES "match" (id),
	FOREIGN KEY(bot_id) REFERENCES bot (id)
)""",
    "CREATE INDEX ix_seat_bot_id ON seat (bot_id)",
]

OLD_POSTGRES = [
    """CREATE TABLE bot (
	id SERIAL NOT NULL,
	name VARCHAR NOT NULL,
	version VARCHAR NOT NULL,
	command VARCHAR NOT NULL,
	token_hash VARCHAR,
	removed BOOLEAN NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (id),
	CONSTRAINT uq_bot_name_version UNIQUE (name, version)
)""",
    "CREATE INDEX ix_bot_name ON bot (name)",
    """CREATE TABLE tournament (
	id SERIAL NOT NULL,
	game VARCHAR NOT NULL,
	players INTEGER NOT NULL,
	options VARCHAR NOT NULL,
	seed VARCHAR NOT NULL,
	repetitions INTEGER NOT NULL,
	settings VARCHAR NOT NULL,
	bot_ids VARCHAR NOT NULL,
	status VARCHAR NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	finished_at TIMESTAMP WITH TIME ZONE,
	PRIMARY KEY (id)
)""",
    """CREATE TABLE match (
	id SERIAL NOT NULL,
	tournament_id INTEGER,
	index INTEGER NOT NULL,
	game VARCHAR NOT NULL,
	options VARCHAR NOT NULL,
	seed VARCHAR NOT NULL,
	status VARCHAR NOT NULL,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	started_at TIMESTAMP WITH TIME ZONE,
	finished_at TIMESTAMP WITH TIME ZONE,
	duration_s FLOAT,
	finish_seq INTEGER,
	log BYTEA,
	PRIMARY KEY (id),
	CONSTRAINT uq_match_tournament_index UNIQUE (tournament_id, index),
	FOREIGN KEY(tournament_id) REFERENCES tournament (id),
	UNIQUE (finish_seq)
)""",
    "CREATE INDEX ix_match_tournament_status ON match (tournament_id, status)",
    """CREATE TABLE rating (
	id SERIAL NOT NULL,
	bot_id INTEGER NOT NULL,
	game VARCHAR NOT NULL,
	mu FLOAT NOT NULL,
	sigma FLOAT NOT NULL,
	matches INTEGER NOT NULL,
	wins INTEGER NOT NULL,
	faults INTEGER NOT NULL,
	PRIMARY KEY (id),
	CONSTRAINT uq_rating_bot_game UNIQUE (bot_id, game),
	FOREIGN KEY(bot_id) REFERENCES bot (id)
)""",
    "CREATE INDEX ix_rating_game ON rating (game)",
    """CREATE TABLE rating_history (
	id SERIAL NOT NULL,
	bot_id INTEGER NOT NULL,
	game VARCHAR NOT NULL,
	match_id INTEGER NOT NULL,
	mu FLOAT NOT NULL,
	sigma FLOAT NOT NULL,
	finish_seq INTEGER NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(bot_id) REFERENCES bot (id),
	FOREIGN KEY(match_id) REFERENCES match (id)
)""",
    "CREATE INDEX ix_rating_history_bot_game ON rating_history (bot_id, game, finish_seq)",
    """CREATE TABLE seat (
	match_id INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	bot_id INTEGER NOT NULL,
	score FLOAT,
	rank INTEGER,
	fault VARCHAR NOT NULL,
	PRIMARY KEY (match_id, seat),
	FOREIGN KEY(match_id) REFERENCES match (id),
	FOREIGN KEY(bot_id) REFERENCES bot (id)
)""",
    "CREATE INDEX ix_seat_bot_id ON seat (bot_id)",
]

# ---------------------------------------------------------------- databases


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def new_database(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """Makes empty databases: new SQLite files, or new databases on the PostgreSQL server."""
    made = iter(range(1_000_000))

    def new() -> str:
        if backend == "postgresql":
            return new_postgres_database(request.getfixturevalue("postgres_server"))
        path = tmp_path / f"arena{next(made)}.db"
        path.touch(mode=0o600)
        return f"sqlite:///{path}"

    return new


@pytest.fixture
def url(new_database: Callable[[], str]) -> str:
    """An empty database."""
    return new_database()


def _engine(url: str) -> sa.Engine:
    """A plain engine (no store): on SQLite, foreign keys off, as sqlite3 has them."""
    return sa.create_engine(url, poolclass=sa.pool.NullPool)


def _is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def _create_old_schema(url: str) -> None:
    engine = _engine(url)
    with engine.begin() as conn:
        for statement in OLD_SQLITE if _is_sqlite(url) else OLD_POSTGRES:
            conn.exec_driver_sql(statement)
    engine.dispose()


def _migrate(url: str, verb: str, revision: str) -> None:
    """Alembic's upgrade or downgrade on a plain connection, as a developer would run it."""
    engine = _engine(url)
    with engine.connect() as conn, conn.begin():
        getattr(command, verb)(schema.alembic_config(conn), revision)
    engine.dispose()


def _stored_revisions(url: str) -> set[str]:
    engine = _engine(url)
    with engine.connect() as conn:
        revisions = set(schema.stored_revisions(conn))
    engine.dispose()
    return revisions


def _describe(url: str) -> dict[str, Any]:
    """The arena's tables as the database has them: columns, keys, constraints, indexes
    (and on SQLite the very ``CREATE`` statements)."""
    engine = _engine(url)
    with engine.connect() as conn:
        inspector = sa.inspect(conn)
        out: dict[str, Any] = {}
        for table in sorted(TABLE_NAMES & set(inspector.get_table_names())):  # as of its revision
            out[table] = {
                "columns": [
                    (c["name"], str(c["type"]), c["nullable"]) for c in inspector.get_columns(table)
                ],
                "primary key": inspector.get_pk_constraint(table)["constrained_columns"],
                "unique": sorted(
                    (u["name"] or "", tuple(u["column_names"]))
                    for u in inspector.get_unique_constraints(table)
                ),
                "foreign keys": sorted(
                    (tuple(f["constrained_columns"]), f["referred_table"],
                     tuple(f["referred_columns"]))
                    for f in inspector.get_foreign_keys(table)
                ),
                "indexes": sorted(
                    (i["name"], tuple(str(c) for c in i["column_names"]), bool(i["unique"]))
                    for i in inspector.get_indexes(table)
                ),
                "checks": sorted(
                    (c["name"], " ".join(c["sqltext"].split()))
                    for c in inspector.get_check_constraints(table)
                ),
            }
        if _is_sqlite(url):
            out["sql"] = sorted(
                (kind, name, " ".join(sql.split()))
                for kind, name, sql in conn.exec_driver_sql(
                    "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                    "AND name != 'alembic_version'"
                )
            )
    engine.dispose()
    return out


# ---------------------------------------------------------------- the old arena's data

T0 = datetime(2026, 3, 1, 12, 0, 0, 250_000, tzinfo=UTC)


def _at(minutes: int) -> datetime:
    return T0.replace(minute=minutes)


def _old_time(url: str, value: datetime | None) -> Any:
    """A datetime as the old store wrote it: SQLite got SQLAlchemy's naive UTC text."""
    if value is None or not _is_sqlite(url):
        return value
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def _old_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


BOTS = [  # id, name, version, command, token_hash, removed
    (1, "ann", "1", "python -m bots.ann", None, False),
    (2, "ann", "2", "python -m bots.ann --v2", None, False),
    (3, "bob", "1", "", "5f4dcc3b5aa765d61d8327deb882cf99", False),
    (4, "cat", "1", "python -m bots.cat", None, True),  # removed after playing: kept, hidden
    (5, "dan", "1", "python -m bots.dan", None, False),  # never played
]

TOURNAMENTS = [  # id, players, options, seed, repetitions, settings, bot_ids, status, finished
    (1, 3, {"target": 5, "deck": "full"}, 2**63, 2, {"move_timeout": 1.5, "parallel": 2},
     [1, 3, 4], "finished", _at(30)),
    (2, 2, {}, 7, 1, {}, [1, 2], "interrupted", None),
    (3, 2, {"x": [1, 2, {"y": None}]}, 2**64 - 1, 1, {"nested": {"a": True}}, [2, 3], "running",
     None),
]

# id, tournament, index, seed, status, finish_seq, log, seats: (bot, score, rank, fault)
MATCHES: list[tuple[int, int | None, int, int, str, int | None, bytes | None,
                    list[tuple[int, float | None, int | None, str]]]] = [
    (1, 1, 0, 11, "finished", 1, b"\x00\x01log one\xff",
     [(1, 3.0, 1, ""), (3, 1.0, 2, "timeout"), (4, 1.0, 2, "")]),
    (2, 1, 1, 12, "finished", 2, b"log two",
     [(3, 2.0, 1, ""), (4, 0.0, 3, "crashed"), (1, 1.0, 2, "illegal-action")]),
    (3, 1, 2, 13, "void", None, None, [(4, None, None, ""), (1, None, None, ""), (3, None, None, "")]),
    (4, 1, 3, 14, "finished", 4, bytes(range(256)),
     [(1, 0.0, 2, "no-show"), (3, 5.0, 1, ""), (4, 5.0, 1, "malformed")]),
    (5, 2, 0, 21, "finished", 3, b"log five", [(2, 1.0, 1, ""), (1, 0.0, 2, "disconnected")]),
    (6, 2, 1, 22, "running", None, None, [(1, None, None, ""), (2, None, None, "")]),
    (7, 2, 2, 23, "pending", None, None, [(2, None, None, ""), (1, None, None, "")]),
    (8, None, 0, 31, "finished", 5, b"", [(2, 1.0, 1, ""), (3, 1.0, 1, "")]),  # a tie, ad hoc
    (9, None, 0, 32, "finished", 6, None, [(1, 2.0, 1, ""), (1, 1.0, 2, "")]),  # self-play: unrated
    (10, 3, 0, 41, "pending", None, None, [(2, None, None, ""), (3, None, None, "")]),
]

Lines = dict[tuple[int, str], list[Any]]
History = list[tuple[int, str, int, float, float, int]]


def _old_ratings(now: bool = False) -> tuple[Lines, History]:
    """What the store computes from MATCHES, written out again here (not the book): per
    match in finish order, ``rate`` on the priors (tied bots ordered by the match's id); per
    distinct bot one match, a win if a seat ranked 1, a fault if a seat faulted; fewer than
    two distinct bots: nothing. (The old store ordered tied bots by id instead: its last
    digits differed, which matters not here, where the upgrade must keep whatever is stored
    and a rebuild must give what the store computes now.) ``now``: as the store counts a win
    now, a seat that ranked 1 without a fault (the old store counted a faulted one too), and
    a bot whose seats all faulted rated against the seats that did not fault alone (the old
    store rated faulted seats as tied)."""
    lines: Lines = {}
    history: History = []
    finished = sorted((m for m in MATCHES if m[5] is not None), key=lambda m: m[5] or 0)
    for match_id, _t, _i, _s, _status, seq, _log, seats in finished:
        assert seq is not None
        priors = {b: (lines[b, GAME][0], lines[b, GAME][1]) for b, *_ in seats if (b, GAME) in lines}
        faulted = [i for i, (*_, fault) in enumerate(seats) if now and fault]
        new = rt.rate(priors, [(b, rank or 0) for b, _score, rank, _f in seats], tie_key=match_id,
                      faulted=faulted)
        for bot, (mu, sigma) in new.items():
            line = lines.setdefault((bot, GAME), [0.0, 0.0, 0, 0, 0])
            line[0], line[1] = mu, sigma
            line[2] += 1
            line[3] += any(b == bot and rank == 1 and not (now and fault)
                           for b, _s, rank, fault in seats)
            line[4] += any(b == bot and fault for b, _s, _r, fault in seats)
            history.append((bot, GAME, match_id, mu, sigma, seq))
    return lines, history


def _write_old_data(url: str) -> None:
    """The rows, as the old store wrote them."""
    lines, history = _old_ratings()
    engine = _engine(url)
    with engine.begin() as conn:
        def insert(table: str, rows: list[dict[str, Any]]) -> None:
            names = list(rows[0])
            quoted = ", ".join(f'"{n}"' for n in names)
            conn.execute(
                sa.text(f'INSERT INTO "{table}" ({quoted}) VALUES ({", ".join(":" + n for n in names)})'),
                rows,
            )

        insert("bot", [
            {"id": i, "name": n, "version": v, "command": c, "token_hash": t, "removed": r,
             "created_at": _old_time(url, _at(i))}
            for i, n, v, c, t, r in BOTS
        ])
        insert("tournament", [
            {"id": i, "game": GAME, "players": p, "options": _old_json(o), "seed": str(seed),
             "repetitions": reps, "settings": _old_json(s), "bot_ids": json.dumps(list(b)),
             "status": status, "created_at": _old_time(url, _at(10 + i)),
             "finished_at": _old_time(url, finished)}
            for i, p, o, seed, reps, s, b, status, finished in TOURNAMENTS
        ])
        options = {t[0]: t[2] for t in TOURNAMENTS}
        insert("match", [
            {"id": i, "tournament_id": t, "index": index, "game": GAME,
             "options": _old_json(options.get(t, {}) if t is not None else {"ad": "hoc"}),
             "seed": str(seed), "status": status, "created_at": _old_time(url, _at(20)),
             "started_at": _old_time(url, _at(21 + i) if status in ("finished", "running") else None),
             "finished_at": _old_time(url, _at(40 + i) if status == "finished" else None),
             "duration_s": 0.5 * i if status == "finished" else None, "finish_seq": seq, "log": log}
            for i, t, index, seed, status, seq, log, _seats in MATCHES
        ])
        insert("seat", [
            {"match_id": m[0], "seat": n, "bot_id": b, "score": score, "rank": rank, "fault": fault}
            for m in MATCHES
            for n, (b, score, rank, fault) in enumerate(m[7])
        ])
        insert("rating", [
            {"id": n, "bot_id": b, "game": g, "mu": mu, "sigma": sigma, "matches": matches,
             "wins": wins, "faults": faults}
            for n, ((b, g), (mu, sigma, matches, wins, faults)) in enumerate(sorted(lines.items()), 1)
        ])
        insert("rating_history", [
            {"id": n, "bot_id": b, "game": g, "match_id": m, "mu": mu, "sigma": sigma, "finish_seq": s}
            for n, (b, g, m, mu, sigma, s) in enumerate(history, 1)
        ])
        if not _is_sqlite(url):  # the old store never chose ids: its sequences moved on
            for table in ("bot", "tournament", "match", "rating", "rating_history"):
                conn.execute(sa.text(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                ))
    engine.dispose()


_JSON_COLUMNS = {("tournament", "options"), ("tournament", "settings"), ("tournament", "bot_ids"),
                 ("match", "options"), ("bot", "validated"), ("win_graph", "series")}


def _raw_rows(url: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table (but the summaries of the rated matches, which an upgrade fills
    and a rebuild makes anew: see the test of revision 0009), read with plain SQL; JSON text
    parsed, so that text and the JSON type compare (PostgreSQL's driver parses JSON columns
    itself)."""
    keys = {"seat": "match_id, seat", "bot_archive": "sha256",
            "situation": "match_id, seat, kind, value", "win_graph": "match_id"}
    engine = _engine(url)
    out: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        present = set(sa.inspect(conn).get_table_names())
        for table in sorted(TABLE_NAMES - set(SUMMARY_TABLES)):
            if table not in present:  # not yet at the database's revision: no rows
                out[table] = []
                continue
            rows = conn.execute(sa.text(f'SELECT * FROM "{table}" ORDER BY {keys.get(table, "id")}'))
            out[table] = [
                {k: json.loads(v) if (table, k) in _JSON_COLUMNS and isinstance(v, str) else v
                 for k, v in row._mapping.items()}
                for row in rows
            ]
    engine.dispose()
    return out


def _old_database(url: str) -> None:
    _create_old_schema(url)
    _write_old_data(url)


ADDED: dict[str, dict[str, dict[str, Any]]] = {
    "0003": {"bot": {"folder": None}},  # none for a bot registered before bots had folders
    "0004": {"tournament": {"deal_key": None},  # no key: its deals came from its seed
             "match": {"lane": 0},  # every match of a bot by its one process
             "seat": {"peer": None}},  # no connection recorded
    "0005": {"match": {"live_log": None}},  # no public log kept while it ran
    "0006": {},  # indexes only
    "0007": {"bot": {"content_hash": None, "games": None}},  # registered, not submitted
    "0008": {"bot": {"author_id": None}},  # the operator's
    "0009": {},  # new tables only: summaries of the rated matches, filled from them
    "0010": {"seat": {"reason": None}},  # the old logs hold no faults' reasons
    "0011": {"match": {"node": None}},  # played on the machine that ran the tournament
    "0012": {},  # a new tournament status only
    "0013": {},  # a new tournament status only (and the tournaments voided before, say so)
    "0014": {},  # an index only: a deal's matches
    "0015": {"match": {"first_to_act": None}},  # the old logs are not read (a new, empty table)
    "0016": {"bot": {"validated": None}},  # accepted without a validation on record
    "0017": {"match": {"sealed": False}},  # how it ran was never saved: not sealed
    "0018": {},  # a new table only: the win-probability graphs, made by the worker
}
"""The columns each revision adds, with what a row written before it gets."""


def _added(since: str, to: str | None) -> dict[str, dict[str, Any]]:
    """The columns added after revision ``since`` up to ``to`` (the newest when None), by table."""
    to = to or schema.head()
    assert to <= max(ADDED), f"revision {to} is newer than the columns this test knows of"
    out: dict[str, dict[str, Any]] = {}
    for revision, tables in ADDED.items():
        if since < revision <= to:
            for table, columns in tables.items():
                out.setdefault(table, {}).update(columns)
    return out


def _upgraded(rows: dict[str, list[dict[str, Any]]], since: str = schema.FIRST_REVISION,
              to: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """Rows of revision ``since`` as revision ``to`` (the newest when None) has them: every
    column added in between with the value :data:`ADDED` gives an old row."""
    added = _added(since, to)
    return {table: [{**row, **added.get(table, {})} for row in table_rows]
            for table, table_rows in rows.items()}


def _downgraded(rows: dict[str, list[dict[str, Any]]],
                to: str) -> dict[str, list[dict[str, Any]]]:
    """Rows as revision ``to`` has them: without the columns added after it."""
    added = _added(to, None)
    return {table: [{k: v for k, v in row.items() if k not in added.get(table, {})}
                    for row in table_rows]
            for table, table_rows in rows.items()}


# ---------------------------------------------------------------- the tests


def test_the_first_revision_is_the_schema_the_arena_made_before_migrations(
    new_database: Callable[[], str],
) -> None:
    old, new = new_database(), new_database()
    _create_old_schema(old)
    _migrate(new, "upgrade", schema.FIRST_REVISION)
    assert _describe(new) == _describe(old)
    assert _stored_revisions(new) == {schema.FIRST_REVISION}


def test_a_new_database_is_made_at_the_newest_revision_and_matches_the_tables(url: str) -> None:
    Store(url).close()
    assert _stored_revisions(url) == {schema.head()}
    engine = _engine(url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={
            "compare_type": True,
            "include_object": lambda _o, name, kind, _r, _c: kind != "table" or name in TABLE_NAMES,
        })
        differences = compare_metadata(context, metadata)
    engine.dispose()
    assert differences == []


def test_upgrading_a_database_of_the_old_arena_loses_nothing(url: str) -> None:
    _old_database(url)
    before = _raw_rows(url)
    lines, history = _old_ratings()
    store = Store(url)
    assert _stored_revisions(url) == {schema.head()}
    assert _raw_rows(url) == _upgraded(before)  # every row of every table, every column

    bots = store.list_bots(include_removed=True)
    assert sorted((b.id, b.name, b.version, b.command, b.remote, b.removed, b.created_at)
                  for b in bots) == [(i, n, v, c, t is not None, r, _at(i)) for i, n, v, c, t, r in BOTS]
    assert store.bot_token_hash(3) == BOTS[2][4]
    assert store.get_bot_by_token_hash(BOTS[2][4] or "").label == "bob@1"
    assert [b.label for b in store.list_bots()] == ["ann@1", "ann@2", "bob@1", "dan@1"]

    for i, players, options, seed, reps, settings, bot_ids, status, finished in TOURNAMENTS:
        t = store.get_tournament(i)
        counts = [m for m in MATCHES if m[1] == i]
        assert (t.game, t.players, t.options, t.seed, t.repetitions, t.settings, t.bot_ids) == (
            GAME, players, options, seed, reps, settings, tuple(bot_ids))
        assert t.status == status and t.status is TournamentStatus(status)
        assert (t.created_at, t.finished_at) == (_at(10 + i), finished)
        assert (t.total, t.finished) == (len(counts), sum(m[4] == "finished" for m in counts))
    assert t.bots == ("ann@2", "bob@1")

    labels = {b.id: b.label for b in bots}
    for i, tid, index, seed, status, seq, log, seats in MATCHES:
        m = store.get_match(i)
        played = status in ("finished", "running")
        assert (m.tournament_id, m.index, m.game, m.seed, m.finish_seq, m.log) == (
            tid, index, GAME, seed, seq, log)
        assert m.options == ({t[0]: t[2] for t in TOURNAMENTS}.get(tid, {}) if tid else {"ad": "hoc"})
        assert m.status == status and m.status is MatchStatus(status)
        assert (m.created_at, m.started_at, m.finished_at) == (
            _at(20), _at(21 + i) if played else None, _at(40 + i) if status == "finished" else None)
        assert m.duration_s == (0.5 * i if status == "finished" else None)
        assert [(s.seat, s.bot_id, s.bot, s.score, s.rank, s.fault, s.peer) for s in m.seats] == [
            (n, b, labels[b], score, rank, fault, None)
            for n, (b, score, rank, fault) in enumerate(seats)]
        assert all(type(s.fault) is Fault for s in m.seats)
    assert {m.id for m in store.list_matches(limit=100)} == {m[0] for m in MATCHES}

    def rated() -> tuple[dict[tuple[int, str], list[Any]], History]:
        board = {(r.bot_id, r.game): [r.mu, r.sigma, r.matches, r.wins, r.faults]
                 for r in store.leaderboard(include_removed=True)}
        points = [(b, g, h.match_id, h.mu, h.sigma, h.finish_seq)
                  for b, g in sorted(board) for h in store.rating_history(b, g)]
        return board, sorted(points, key=lambda p: (p[5], p[0]))

    assert rated() == (lines, sorted(history, key=lambda p: (p[5], p[0])))  # exact floats
    assert store.rebuild_ratings() == sum(m[5] is not None for m in MATCHES)
    recounted, history_now = _old_ratings(now=True)  # match 4's faulted first place: no win
    assert recounted != lines
    assert rated() == (recounted, sorted(history_now, key=lambda p: (p[5], p[0])))

    # and the store carries on from there: the interrupted tournament resumes
    todo = store.claim_unfinished(2)
    assert [(m.id, m.lane) for m in todo] == [(6, 0), (7, 0)]  # its one process per bot
    for to_run in todo:
        store.finish_match(to_run.id, MatchResult((1.0, 0.0), (1, 2), (Fault.NONE, "timeout")))
    board, _ = rated()
    assert board[1, GAME][2] == lines[1, GAME][2] + 2 and board[2, GAME][2] == lines[2, GAME][2] + 2
    assert [m.finish_seq for m in store.list_matches(2)] == [8, 7, 3]
    store.close()


def test_a_database_already_at_the_newest_revision_is_not_written(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Store(url) as store:
        store.add_bot("ann", "x")

    def no_upgrade(_conn: sa.Connection) -> bool:
        raise AssertionError("the schema was upgraded again")

    monkeypatch.setattr(schema, "upgrade", no_upgrade)
    with Store(url) as again:
        assert [b.name for b in again.list_bots()] == ["ann"]
    if _is_sqlite(url):  # read-only: any write would fail
        path = sa.engine.make_url(url).database
        with Store(f"sqlite:///file:{path}?mode=ro&uri=true") as read_only:
            assert [b.name for b in read_only.list_bots()] == ["ann"]


def test_an_old_database_opened_read_only_says_it_needs_upgrading(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    _old_database(url)
    with pytest.raises(StoreError, match=r"cannot upgrade the database's schema.*readonly") as info:
        Store(f"sqlite:///file:{path}?mode=ro&uri=true")
    assert "\n" not in str(info.value)
    assert _stored_revisions(url) == set()


def test_an_unknown_newer_revision_is_one_clear_line(url: str) -> None:
    Store(url).close()
    engine = _engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = 'f00dfeed9999'"))
    engine.dispose()
    with pytest.raises(StoreError, match=r"revision f00dfeed9999, which this arena does not know") \
            as info:
        Store(url)
    assert "\n" not in str(info.value)
    assert _stored_revisions(url) == {"f00dfeed9999"}


def test_a_stored_value_the_new_schema_refuses_fails_the_upgrade_and_changes_nothing(
    url: str, new_database: Callable[[], str],
) -> None:
    _old_database(url)
    engine = _engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE seat SET fault = 'exploded' WHERE match_id = 2 AND seat = 1"))
    engine.dispose()
    before = _raw_rows(url)
    with pytest.raises(StoreError, match="cannot upgrade the database's schema") as info:
        Store(url)
    assert "\n" not in str(info.value) and "ck_seat_fault" in str(info.value)
    assert _stored_revisions(url) == set()
    assert _raw_rows(url) == before
    old = new_database()
    _create_old_schema(old)
    assert _describe(url) == _describe(old)


def test_some_but_not_all_of_the_tables_is_one_clear_line(url: str) -> None:
    engine = _engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql((OLD_SQLITE if _is_sqlite(url) else OLD_POSTGRES)[0])
    engine.dispose()
    with pytest.raises(StoreError, match=r"some of the arena's tables \(bot\) but not") as info:
        Store(url)
    assert "\n" not in str(info.value)


def test_the_constrained_columns_refuse_bad_values_in_the_database(url: str) -> None:
    with Store(url) as store:
        a, b = store.add_bot("ann", "x").id, store.add_bot("bob", "y").id
        tid = store.create_tournament(GAME, 2, {}, 1, 1, {}, [a, b], [])
        mid = store.create_match(GAME, {}, 1, [a, b])
    engine = _engine(url)
    for statement in (f"UPDATE tournament SET status = 'done' WHERE id = {tid}",
                      f"UPDATE match SET status = 'finished!' WHERE id = {mid}",
                      f"UPDATE seat SET fault = 'sulking' WHERE match_id = {mid}"):
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
            conn.execute(sa.text(statement))
    with engine.begin() as conn:  # the values themselves are fine
        conn.execute(sa.text(f"UPDATE seat SET fault = 'no-show' WHERE match_id = {mid}"))
    engine.dispose()


def test_downgrading_to_the_first_revision_and_upgrading_again_keeps_every_row(
    url: str, new_database: Callable[[], str],
) -> None:
    _old_database(url)
    before = _raw_rows(url)
    Store(url).close()
    _migrate(url, "downgrade", schema.FIRST_REVISION)
    assert _stored_revisions(url) == {schema.FIRST_REVISION}
    assert _raw_rows(url) == before
    old = new_database()
    _create_old_schema(old)
    # the same tables, columns, keys and indexes (SQLite's copies order the constraints their way)
    assert {k: v for k, v in _describe(url).items() if k != "sql"} == \
        {k: v for k, v in _describe(old).items() if k != "sql"}
    with Store(url) as store:
        assert _stored_revisions(url) == {schema.head()}
        assert _raw_rows(url) == _upgraded(before)
        assert store.get_match(4).log == bytes(range(256))


def _bot_columns(url: str) -> list[tuple[str, str, bool]]:
    return list(_describe(url)["bot"]["columns"])


def test_revision_0003_gives_every_bot_an_empty_folder_and_downgrades_without_it(url: str) -> None:
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)  # as the store does with the old arena's
    _migrate(url, "upgrade", "0002")
    before = _raw_rows(url)
    assert "folder" not in {name for name, _, _ in _bot_columns(url)}
    _migrate(url, "upgrade", "0003")
    assert _stored_revisions(url) == {"0003"}
    assert ("folder", "VARCHAR", True) in _bot_columns(url)  # nullable: none for the old bots
    assert _raw_rows(url) == _upgraded(before, "0002", "0003")  # nothing else touched
    with Store(url) as store:
        assert all(b.folder is None for b in store.list_bots(include_removed=True))
        added = store.add_bot("eve", "python -m bots.random_bot", folder="/srv/bots/eve")
        assert store.get_bot("eve").folder == "/srv/bots/eve" == added.folder
        assert store.get_bot("ann", "2").folder is None
        eve = _downgraded({"bot": [_raw_rows(url)["bot"][-1]]}, "0002")["bot"][0]
    _migrate(url, "downgrade", "0002")
    assert "folder" not in {name for name, _, _ in _bot_columns(url)}
    assert _raw_rows(url) == {**before, "bot": [*before["bot"], eve]}  # only the folder is gone


def _columns(url: str, table: str) -> list[tuple[str, str, bool]]:
    return list(_describe(url)[table]["columns"])


def test_revision_0004_gives_old_rows_no_key_lane_0_and_no_peer_and_downgrades_without_them(
    url: str,
) -> None:
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)  # as the store does with the old arena's
    _migrate(url, "upgrade", "0003")
    before = _raw_rows(url)
    shape = _describe(url)
    new_columns = {("tournament", "deal_key"), ("match", "lane"), ("seat", "peer")}
    for table, column in new_columns:
        assert column not in {name for name, _, _ in _columns(url, table)}
    _migrate(url, "upgrade", "0004")
    assert _stored_revisions(url) == {"0004"}
    assert ("deal_key", "VARCHAR", True) in _columns(url, "tournament")  # NULL: the seed's deals
    assert ("lane", "INTEGER", False) in _columns(url, "match")  # 0 for every old match
    assert ("peer", "VARCHAR", True) in _columns(url, "seat")  # NULL: none recorded
    assert _raw_rows(url) == _upgraded(before, "0003", "0004")  # nothing else touched
    after = _describe(url)
    for table in set(shape) & TABLE_NAMES:  # only the three columns are new: keys, indexes, checks
        assert {k: v for k, v in after[table].items() if k != "columns"} == \
            {k: v for k, v in shape[table].items() if k != "columns"}, table
        assert [c for c in after[table]["columns"] if (table, c[0]) not in new_columns] == \
            shape[table]["columns"]

    with Store(url) as store:
        assert all(s.peer is None for m in store.list_matches(limit=100) for s in m.seats)
        assert [(m.id, m.lane) for m in store.claim_unfinished(2)] == [(6, 0), (7, 0)]
        # and new rows carry them: a tournament with a key, a match on lane 1, a remote seat
        tid = store.create_tournament(
            GAME, 2, {}, 5, 1, {}, [1, 3],
            [ScheduledMatch(0, 51, (1, 3), lane=0), ScheduledMatch(1, 51, (3, 1), lane=1)],
            deal_key="ab" * 32)
        todo = store.claim_unfinished(tid)
        assert [(m.index, m.seed, m.lane) for m in todo] == [(0, 51, 0), (1, 51, 1)]
        store.finish_match(todo[1].id, MatchResult((1.0, 0.0), (1, 2), (Fault.NONE, Fault.NONE),
                                                   peers=("ipv4:192.0.2.7:40000", None)))
        assert [s.peer for s in store.get_match(todo[1].id).seats] == ["ipv4:192.0.2.7:40000",
                                                                      None]
    written = _raw_rows(url)
    assert written["tournament"][-1]["deal_key"] == "ab" * 32
    assert [m["lane"] for m in written["match"][-2:]] == [0, 1]

    _migrate(url, "downgrade", "0003")
    assert _stored_revisions(url) == {"0003"}
    for table, column in new_columns:
        assert column not in {name for name, _, _ in _columns(url, table)}
    # only the three columns are gone: every row, the new ones too, and the schema of 0003
    assert _raw_rows(url) == _downgraded(written, "0003")
    assert {k: v for k, v in _describe(url).items() if k != "sql"} == \
        {k: v for k, v in shape.items() if k != "sql"}


def _execute(url: str, sql: str, **params: Any) -> None:
    """One statement in a transaction of its own, on a plain engine."""
    engine = _engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(sql), params)
    finally:
        engine.dispose()


def _set_fault(url: str, fault: str) -> None:
    _execute(url, "UPDATE seat SET fault = :f WHERE match_id = 5 AND seat = 0", f=fault)


def _widened(url: str, revision: str, write: Callable[[str, str], None], new: str,
             bogus: str) -> dict[str, list[dict[str, Any]]]:
    """Bring an old database to the revision before ``revision``, which widens a CHECK, and
    then to ``revision``: before it the database itself refuses the ``new`` value
    (``write``), at it takes it and still refuses what is no value (``bogus``), and no row
    was touched on the way (but the columns ``revision`` adds). The rows before it."""
    since = f"{int(revision) - 1:04d}"
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)
    _migrate(url, "upgrade", since)
    before = _raw_rows(url)
    with pytest.raises(sa.exc.IntegrityError):  # the database itself refuses the new value
        write(url, new)
    _migrate(url, "upgrade", revision)
    assert _stored_revisions(url) == {revision}
    assert _raw_rows(url) == _upgraded(before, since, revision)  # nothing else touched
    write(url, new)
    with pytest.raises(sa.exc.IntegrityError):  # and still refuses what is no value
        write(url, bogus)
    return before


def test_revision_0005_allows_the_error_fault_and_a_live_log_and_downgrades_without_them(
    url: str,
) -> None:
    _widened(url, "0005", _set_fault, "error", "exploded")
    assert ("live_log", "BLOB" if url.startswith("sqlite") else "BYTEA", True) in \
        _columns(url, "match")
    with Store(url) as store:
        assert store.get_match(5).seats[0].fault == Fault.ERROR

    _migrate(url, "downgrade", "0004")  # an error reads as the nearest older fault
    after = _raw_rows(url)
    assert next(s for s in after["seat"] if s["match_id"] == 5 and s["seat"] == 0)["fault"] == \
        "disconnected"
    assert "live_log" not in {name for name, _, _ in _columns(url, "match")}
    with pytest.raises(sa.exc.IntegrityError):
        _set_fault(url, "error")


def _seat_index_sql(url: str) -> dict[str, str]:
    """The seat table's indexes as the database writes them (their conditions included)."""
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            query = ("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'seat' "
                     "AND sql IS NOT NULL" if _is_sqlite(url) else
                     "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'seat'")
            return {name: " ".join(sql.split()) for name, sql in conn.exec_driver_sql(query)}
    finally:
        engine.dispose()


def test_revision_0006_indexes_a_bots_seats_and_faults_and_downgrades_without_them(
    url: str,
) -> None:
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)
    _migrate(url, "upgrade", "0005")
    before, shape = _raw_rows(url), _describe(url)
    assert "ix_seat_bot_id" in _seat_index_sql(url)
    _migrate(url, "upgrade", "0006")
    assert _stored_revisions(url) == {"0006"}
    assert _raw_rows(url) == before  # indexes only: every row as it was
    indexes = {name: columns for name, columns, _unique in _describe(url)["seat"]["indexes"]}
    assert indexes == {"ix_seat_bot_match": ("bot_id", "match_id"),
                       "ix_seat_bot_fault": ("bot_id", "match_id", "fault")}
    assert "WHERE" in _seat_index_sql(url)["ix_seat_bot_fault"]  # only the seats that faulted
    assert "WHERE" not in _seat_index_sql(url)["ix_seat_bot_match"]
    after = _describe(url)
    for table in (set(shape) & TABLE_NAMES) - {"seat"}:
        assert after[table] == shape[table], table
    with Store(url) as store:  # still the same matches, read through the new indexes
        assert [s.fault for s in store.get_match(5).seats] == \
            [Fault(s["fault"]) for s in before["seat"] if s["match_id"] == 5]
    _migrate(url, "downgrade", "0005")
    assert _raw_rows(url) == before
    assert {k: v for k, v in _describe(url).items() if k != "sql"} == \
        {k: v for k, v in shape.items() if k != "sql"}


def test_revision_0007_keeps_submitted_code_once_and_downgrades_without_it(url: str) -> None:
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)
    _migrate(url, "upgrade", "0006")
    before = _raw_rows(url)
    _migrate(url, "upgrade", "0007")
    assert _raw_rows(url) == _upgraded(before, "0006", "0007")  # old bots: not submitted
    assert ("content_hash", "VARCHAR", True) in _columns(url, "bot")
    code = SubmittedCode("ab" * 32, b"a canonical archive", 2, 19)
    with Store(url) as store:
        first, new = store.submit_bot("sub", "v1", "python bot.py", ["kill"], code)
        again, renewed = store.submit_bot("sub", "v2", "python bot.py", ["kill"], code)
        assert new and not renewed and again == first  # the same code: the same version
        other, _ = store.submit_bot("other", None, "python bot.py", ["kill"], code)
        assert other.version == "ab" * 6 and other.content_hash == first.content_hash
        with pytest.raises(StoreError, match="already names code abababababab"):
            store.submit_bot("sub", "v1", "python bot.py", ["kill"],
                             SubmittedCode("cd" * 32, b"other code", 1, 10))
        assert store.bot_code("ab" * 32) == code
    assert len(_raw_rows(url)["bot_archive"]) == 1  # kept once for both bots
    _migrate(url, "downgrade", "0006")
    assert "content_hash" not in {name for name, _, _ in _columns(url, "bot")}
    assert "bot_archive" not in _describe(url)


def _set_status(url: str, status: str) -> None:
    _execute(url, "UPDATE tournament SET status = :s WHERE id = 1", s=status)


def test_revision_0008_adds_authors_and_queued_tournaments_and_downgrades_without_them(
    url: str,
) -> None:
    before = _widened(url, "0008", _set_status, "queued", "paused")  # old bots: the operator's
    assert ("author_id", "INTEGER", True) in _columns(url, "bot")
    code = SubmittedCode("ab" * 32, b"a canonical archive", 2, 19)
    with Store(url) as store:
        assert store.get_tournament(1).status == "queued"
        ann = store.add_author("ann", "1" * 64)
        bob = store.add_author("bob", "2" * 64)
        with pytest.raises(StoreError, match="already exists"):
            store.add_author("ann", "3" * 64)
        mine, _ = store.submit_bot("anns-bot", "v1", "python bot.py", ["kill"], code,
                                   author_id=ann.id)
        assert mine.author_id == ann.id
        with pytest.raises(StoreError, match="belongs to author ann"):
            store.submit_bot("anns-bot", "v2", "python bot.py", ["kill"],
                             SubmittedCode("cd" * 32, b"other code", 1, 10), author_id=bob.id)
        by_operator, _ = store.submit_bot("anns-bot", "v3", "python bot.py", ["kill"],
                                          SubmittedCode("ef" * 32, b"more code", 1, 9))
        assert by_operator.author_id == ann.id  # a version the operator adds stays ann's
        old_name = before["bot"][0]["name"]
        with pytest.raises(StoreError, match="is the operator's"):
            store.submit_bot(old_name, "v9", "python bot.py", ["kill"], code, author_id=bob.id)
        assert store.author_by_token_hash("1" * 64) == ann
        store.set_author_token_hash("ann", "4" * 64)
        with pytest.raises(StoreError, match="no author has this token"):
            store.author_by_token_hash("1" * 64)
        assert [(a.name, a.bots) for a in store.list_authors()] == [("ann", ("anns-bot",)),
                                                                     ("bob", ())]
    _migrate(url, "downgrade", "0007")  # a queued tournament reads as interrupted
    after = _raw_rows(url)
    assert next(t for t in after["tournament"] if t["id"] == 1)["status"] == "interrupted"
    assert "author_id" not in {name for name, _, _ in _columns(url, "bot")}
    assert "author" not in _describe(url)
    with pytest.raises(sa.exc.IntegrityError):
        _set_status(url, "queued")


def _summaries(url: str, *, ratings: bool = True) -> dict[str, list[tuple[Any, ...]]]:
    """Every summary row; without their ``mu`` and ``sigma`` unless ``ratings``."""
    engine = _engine(url)
    with engine.connect() as conn:
        rows = {table: [tuple(value for column, value in row._mapping.items()
                              if ratings or column not in ("mu", "sigma"))
                        for row in conn.execute(sa.text(f"SELECT * FROM {table} ORDER BY 1, 2, 3"))]
                for table in SUMMARY_TABLES}
    engine.dispose()
    return rows


def test_revision_0009_fills_the_summaries_as_a_rebuild_and_downgrades_without_them(
    url: str,
) -> None:
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)
    _migrate(url, "upgrade", "0008")
    before = _raw_rows(url)
    _migrate(url, "upgrade", "0009")
    assert _stored_revisions(url) == {"0009"}
    assert _raw_rows(url) == _upgraded(before, "0008", "0009")  # nothing else touched
    filled = _summaries(url, ratings=False)
    assert all(filled.values())  # every table has rows: the old matches are summarized
    # a rebuild gives the very rows the upgrade wrote but their ratings: 0009 rated as the
    # arena did in its day (two faulted seats tied; old match 5 has a bot that only faulted),
    # a rebuild rates as the arena does now, and the pages then read as recomputed
    with Store(url) as store:
        assert store.rebuild_ratings() == sum(m[5] is not None for m in MATCHES)
        assert_summaries_as_recomputed(store)
    assert _summaries(url, ratings=False) == filled
    rebuilt = _raw_rows(url)  # (the rating rows numbered anew)
    _migrate(url, "downgrade", "0008")
    assert not set(SUMMARY_TABLES) & set(_describe(url))
    assert _raw_rows(url) == _downgraded(rebuilt, "0008")  # (the store had gone on to the newest)


def test_revision_0010_keeps_each_faults_reason_from_the_log_and_downgrades_without_it(
    url: str,
) -> None:
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)
    _migrate(url, "upgrade", "0009")
    # match 5's seat 1 faulted ("disconnected"): give it a log that says why, as the referee does
    log = match_log(codec_for("kill"), [LoggedFault(1, "disconnected", "its stream closed")])
    engine = _engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE match SET log = :log WHERE id = 5"), {"log": log})
    engine.dispose()
    before = _raw_rows(url)
    _migrate(url, "upgrade", "0010")
    after = _raw_rows(url)
    reasons = {(r["match_id"], r["seat"]): r["reason"] for r in after["seat"]}
    assert reasons.pop((5, 1)) == "its stream closed"
    assert set(reasons.values()) == {None}  # no fault, or an old log that gives no reason
    expected = _upgraded(before, "0009", "0010")
    for row in expected["seat"]:
        if (row["match_id"], row["seat"]) == (5, 1):
            row["reason"] = "its stream closed"
    assert after == expected  # nothing else touched
    with Store(url) as store:
        faults = store.bot_faults(next(s.bot_id for s in store.get_match(5).seats
                                       if s.seat == 1), None, 10)
        assert [(f.match_id, f.reason) for f in faults if f.match_id == 5] == \
            [(5, "its stream closed")]
    _migrate(url, "downgrade", "0009")
    assert "reason" not in {name for name, _, _ in _columns(url, "seat")}


def test_revision_0011_gives_old_matches_no_node_and_downgrades_without_it(url: str) -> None:
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)
    _migrate(url, "upgrade", "0010")
    before = _raw_rows(url)
    shape = _describe(url)
    assert "node" not in {name for name, _, _ in _columns(url, "match")}
    _migrate(url, "upgrade", "0011")
    assert _stored_revisions(url) == {"0011"}
    assert ("node", "VARCHAR", True) in _columns(url, "match")  # NULL: played here
    assert _raw_rows(url) == _upgraded(before, "0010", "0011")  # nothing else touched
    after = _describe(url)
    for table in set(shape) & TABLE_NAMES:  # only the column is new: keys, indexes, checks
        assert {k: v for k, v in after[table].items() if k != "columns"} == \
            {k: v for k, v in shape[table].items() if k != "columns"}, table
        assert [c for c in after[table]["columns"] if (table, c[0]) != ("match", "node")] == \
            shape[table]["columns"]

    node = "node 10.0.0.7 (id abc): bot logs /x, Ray logs /y"
    with Store(url) as store:
        assert {store.get_match(m[0]).node for m in MATCHES} == {None}
        todo = store.claim_unfinished(2)  # and a new result carries its node
        store.finish_match(todo[0].id, MatchResult((1.0, 0.0), (1, 2), (Fault.NONE, Fault.NONE),
                                                   node=node))
        assert store.get_match(todo[0].id).node == node
    written = _raw_rows(url)
    assert [m["node"] for m in written["match"]] == [node if m["id"] == todo[0].id else None
                                                     for m in written["match"]]

    _migrate(url, "downgrade", "0010")
    assert _stored_revisions(url) == {"0010"}
    assert "node" not in {name for name, _, _ in _columns(url, "match")}
    # only the column is gone: every row, the new one too, and the schema of 0010
    assert _raw_rows(url) == _downgraded(written, "0010")
    assert {k: v for k, v in _describe(url).items() if k != "sql"} == \
        {k: v for k, v in shape.items() if k != "sql"}


def test_revision_0017_gives_old_matches_no_seal_and_downgrades_without_it(url: str) -> None:
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)
    _migrate(url, "upgrade", "0016")
    before = _raw_rows(url)
    shape = _describe(url)
    _migrate(url, "upgrade", "0017")
    assert _stored_revisions(url) == {"0017"}
    assert _raw_rows(url) == _upgraded(before, "0016", "0017")  # not sealed, nothing else
    assert {c[0] for c in _columns(url, "match")} - {c[0] for c in shape["match"]["columns"]} \
        == {"sealed"}
    with Store(url) as store:
        todo = store.claim_unfinished(2)  # the running match 6 is pending again
        assert [m.id for m in todo] == [6, 7]
        assert store.mark_running(6, sealed=True)
        assert [(r.match_id, r.sealed) for r in store.deal_rotations(6)] == [(6, True)]
        with pytest.raises(StoreError, match="played in the sandbox"):
            store.mark_running(6)  # sealed once: its replay is sealed too
        assert store.mark_running(7)  # another deal
    written = _raw_rows(url)
    assert [m["id"] for m in written["match"] if m["sealed"]] == [6]
    _migrate(url, "downgrade", "0016")
    assert _stored_revisions(url) == {"0016"}
    assert _raw_rows(url) == _downgraded(written, "0016")
    assert {k: v for k, v in _describe(url).items() if k != "sql"} == \
        {k: v for k, v in shape.items() if k != "sql"}


def test_revision_0018_adds_the_win_graphs_table_and_downgrades_without_it(url: str) -> None:
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)
    _migrate(url, "upgrade", "0017")
    before = _raw_rows(url)
    shape = _describe(url)
    _migrate(url, "upgrade", "0018")
    assert _stored_revisions(url) == {"0018"}
    assert _raw_rows(url) == before  # a new, empty table; nothing else touched
    assert set(_describe(url)) - set(shape) == {"win_graph"}
    graph = StoredGraph(1, 3, 8, (0, 2), ((0.5, 0.5), (1.0, 0.0)), 0.25)
    with Store(url) as store:
        assert store.save_graph(graph)
        assert not store.save_graph(graph)  # kept once
        kept = store.win_graph(1)
        assert kept is not None and kept == StoredGraph(**{**graph.__dict__,
                                                          "created_at": kept.created_at})
        assert [(m.match_id, m.graphed) for m in store.rated_after(0, 100)][:2] == \
            [(1, True), (2, False)]
    _migrate(url, "downgrade", "0017")
    assert _stored_revisions(url) == {"0017"}
    assert _raw_rows(url) == before
    assert {k: v for k, v in _describe(url).items() if k != "sql"} == \
        {k: v for k, v in shape.items() if k != "sql"}


def test_revision_0012_allows_cancelled_tournaments_and_downgrades_them_to_finished(
        url: str) -> None:
    _widened(url, "0012", _set_status, "cancelled", "paused")  # no row touched
    with Store(url) as store:
        assert store.get_tournament(1).status == "cancelled"
    _migrate(url, "downgrade", "0011")  # a cancelled tournament reads as it used to
    assert next(t for t in _raw_rows(url)["tournament"] if t["id"] == 1)["status"] == "finished"
    with pytest.raises(sa.exc.IntegrityError):
        _set_status(url, "cancelled")


def test_revision_0013_allows_voided_tournaments_and_downgrades_them_to_finished(
        url: str) -> None:
    _widened(url, "0013", _set_status, "voided", "paused")  # no row touched
    with Store(url) as store:
        assert store.get_tournament(1).status == "voided"
    _migrate(url, "downgrade", "0012")  # a voided tournament reads as it used to
    assert next(t for t in _raw_rows(url)["tournament"] if t["id"] == 1)["status"] == "finished"
    with pytest.raises(sa.exc.IntegrityError):
        _set_status(url, "voided")


def test_revision_0013_says_voided_of_a_tournament_voided_before_it(url: str) -> None:
    """Before 0013 ``arena tournament void`` left a tournament ``finished`` with every match
    void, those that had finished keeping their results: such a tournament reads voided
    after the upgrade; one cut short (void matches that never finished) still reads
    finished."""
    _old_database(url)
    _migrate(url, "stamp", schema.FIRST_REVISION)
    _migrate(url, "upgrade", "0012")
    _execute(url, 'UPDATE "match" SET status = \'void\' WHERE tournament_id = 1')  # as 0012 voided
    _execute(url, "UPDATE tournament SET status = 'finished' WHERE id = 2")
    _execute(url, 'UPDATE "match" SET status = \'void\' WHERE tournament_id = 2 AND '
                  "status <> 'finished'")  # cut short: its finished match still counts
    before = _raw_rows(url)
    _migrate(url, "upgrade", "0013")
    after = _raw_rows(url)
    assert {t["id"]: t["status"] for t in after["tournament"]} == {
        1: "voided", 2: "finished", 3: "running"}
    assert {k: v for k, v in after.items() if k != "tournament"} == \
        {k: v for k, v in before.items() if k != "tournament"}  # nothing else touched
    with Store(url) as store:
        assert store.get_tournament(1).status is TournamentStatus.VOIDED
    _migrate(url, "downgrade", "0012")
    assert _raw_rows(url) == before


def test_bots_registered_before_folders_still_run_in_the_arenas_folder(tmp_path: Path) -> None:
    """A database at revision 0002 with two managed bots: ``arena tournament run`` upgrades it
    and plays; the bots, without a folder, run in the arena's working directory (one of them is
    a module of this repository's tests, found only there)."""
    db = tmp_path / "arena.db"
    url = f"sqlite:///{db}"
    _migrate(url, "upgrade", "0002")
    engine = _engine(url)
    with engine.begin() as conn:
        for i, name, command in ((1, "random", "python -m bots.random_bot"),
                                 (2, "reporter", "python -m tests.bots.misbehaving limits")):
            conn.execute(sa.text(
                "INSERT INTO bot (id, name, version, command, token_hash, removed, created_at) "
                "VALUES (:i, :name, '1', :command, NULL, 0, :at)"),
                {"i": i, "name": name, "command": command, "at": _old_time(url, _at(i))})
    engine.dispose()
    cli("tournament", "run", "--game", "face-card-kill-card", "--bot", "random", "--bot",
        "reporter", "--players", "2", "--seed", "3", "--move-timeout", "30",
        "--start-timeout", "60", db=db)  # time to spare on a busy machine: no fault but a real one
    assert _stored_revisions(url) == {schema.head()}
    with Store(url) as store:
        assert [(b.label, b.folder) for b in store.list_bots()] == [("random@1", None),
                                                                   ("reporter@1", None)]
        tournament = store.get_tournament(1)
        assert tournament.finished == tournament.total > 0
        faults = [(m.id, s.bot, s.fault) for m in store.list_matches(1, 100) for s in m.seats if s.fault]
        assert faults == []
    assert "RLIMIT_NOFILE" in (tmp_path / "arena-data" / "logs" / "reporter@1.log").read_text()


def test_concurrent_openers_of_a_new_database_all_succeed(url: str) -> None:
    if _is_sqlite(url):
        pytest.skip("tests/storage/test_store.py opens a new SQLite file from four processes")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        labels = pool.starmap(open_and_add, [(url, w) for w in range(4)])
    assert sorted(labels) == [f"bot{w}@1" for w in range(4)]
    assert _stored_revisions(url) == {schema.head()}


def test_a_new_sqlite_file_made_by_the_store_is_private_and_at_head(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    Store(str(path)).close()
    assert path.stat().st_mode & 0o777 == 0o600
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(schema.head(),)]
