"""``arena dataset export`` (:mod:`arena.app.datasets`): rows and matches written per second, and
the export's peak memory, on databases of 10,000 and 100,000 finished matches (1,000 and
10,000 with ``--quick``).

A database is made once and kept in ``$ARENA_BENCH_CACHE`` (default
``/tmp/arena-bench-datasets``): a tournament of Face Card / Kill Card (the shortest game, so
that the match count, not the game, is what grows) played by the referee with random
players, its tournament, matches and seats then copied with bulk SQL under new ids, each
copy a tournament of its own, up to the size asked. Every match has its real log, and
replays from its seed as the export needs. Each export runs in a child process of its own,
which reports its CPU time (after a first export of one tournament, which pays for the
imports and each game's action space and encoder) and its peak resident memory
(``ru_maxrss``): the larger
export's peak, against the smaller one's, is the memory the export's size costs.

Per game, the same on a small database of that game: rows (decisions) per CPU second, which
depends on the game (a King match is ~250 decisions, a Face Card / Kill Card one ~5).
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.games import all_games
from arena.storage.store import Store
from arena.tournament import RunSettings, create_tournament, run_tournament
from benchmarks.common import Row

FULL = (10_000, 100_000)
QUICK = (1_000, 10_000)
GAME = "face-card-kill-card"
BASE = 200  # matches of the tournament played, then copied
PER_GAME = 4  # repetitions of each game's tournament, for the rows per second by game...
SHORT = {"face-card-kill-card": 50, "serial-killer": 50}  # ...or of a game of short matches
MEMORY_RATIO = 1.25  # the larger export's peak memory, at most this times the smaller's


def _played(path: Path, game: str, players: int, repetitions: int) -> None:
    """A tournament of ``game`` at ``path``, played in this process by random players."""
    from tests.inprocess import InProcessExecutor  # random players through the referee

    store = Store(str(path))
    try:
        for name in ("a", "b", "c", "d", "e"):
            store.add_bot(name, "python -m bots.random_bot")
        tid = create_tournament(store, game, ["a", "b", "c", "d", "e"][:players], players,
                                repetitions, 1, {}, RunSettings())
        asyncio.run(run_tournament(store, tid, path.parent, RunSettings(),
                                   executor=InProcessExecutor()))
    finally:
        store.close()


def _copied(base: Path, path: Path, matches: int) -> None:
    """``base`` (one played tournament) copied into ``path`` until it holds ``matches``."""
    shutil.copyfile(base, path)
    db = sqlite3.connect(path)
    (have,) = db.execute('SELECT count(*) FROM "match"').fetchone()
    tournament = db.execute("SELECT * FROM tournament").fetchone()
    columns = [c[1] for c in db.execute("PRAGMA table_info(tournament)")]
    match_columns = [c[1] for c in db.execute('PRAGMA table_info("match")')]
    seat_columns = [c[1] for c in db.execute("PRAGMA table_info(seat)")]
    copies = 0
    while have < matches:
        copies += 1
        new = dict(zip(columns, tournament, strict=True)) | {"id": 1 + copies}
        db.execute(f"INSERT INTO tournament ({', '.join(columns)}) VALUES "
                   f"({', '.join('?' * len(columns))})", list(new.values()))
        offset = copies * 1_000_000
        chosen = [f'"{c}"' for c in match_columns if c not in ("id", "tournament_id", "finish_seq")]
        db.execute(f'INSERT INTO "match" (id, tournament_id, finish_seq, {", ".join(chosen)}) '
                   f'SELECT id + ?, ?, finish_seq + ?, {", ".join(chosen)} FROM "match" '
                   "WHERE tournament_id = 1", (offset, 1 + copies, offset))
        kept = [f'"{c}"' for c in seat_columns if c not in ("id", "match_id")]
        db.execute(f"INSERT INTO seat (match_id, {', '.join(kept)}) "
                   f"SELECT match_id + ?, {', '.join(kept)} FROM seat WHERE match_id < ?",
                   (offset, 1_000_000))
        have += BASE
    db.commit()
    db.close()


def database(matches: int) -> Path:
    folder = Path(os.environ.get("ARENA_BENCH_CACHE", "/tmp/arena-bench-datasets"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{GAME}-{matches}.db"
    if not path.exists():
        base = folder / f"{GAME}-base-{BASE}.db"
        if not base.exists():
            _played(base.with_suffix(".partial"), GAME, 2, BASE // 2)
            base.with_suffix(".partial").rename(base)
        _copied(base, path.with_suffix(".partial"), matches)
        path.with_suffix(".partial").rename(path)
    return path


def export_in_child(db: Path) -> dict[str, float]:
    """Export ``db`` in a child process: its rows, matches, CPU seconds and peak memory."""
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run([sys.executable, "-m", "benchmarks.datasets", str(db), out],
                              capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def run(quick: bool) -> list[Row]:
    small, large = QUICK if quick else FULL
    rows: list[Row] = []
    measured = {n: export_in_child(database(n)) for n in (small, large)}
    for n, got in measured.items():
        rows.append(Row("dataset", f"export {n:,} matches: rows", got["rows"] / got["cpu_s"],
                        "rows/CPU s", note=f"{got['rows']:,.0f} rows, {got['cpu_s']:.0f} CPU s"))
        rows.append(Row("dataset", f"export {n:,} matches: matches", got["matches"] / got["cpu_s"],
                        "matches/CPU s"))
    ratio = measured[large]["peak_mb"] / measured[small]["peak_mb"]
    rows.append(Row("dataset", f"export {large:,} matches: peak memory", measured[large]["peak_mb"],
                    "MB", f"export {small:,} matches", measured[small]["peak_mb"], ratio,
                    f"<= {MEMORY_RATIO}x", ratio <= MEMORY_RATIO,
                    note="peak resident memory of the exporting process"))
    with tempfile.TemporaryDirectory() as folder:
        for game in all_games().values():
            path = Path(folder) / f"{game.name}.db"
            _played(path, game.name, game.min_players, SHORT.get(game.name, PER_GAME))
            got = export_in_child(path)
            rows.append(Row("dataset", f"export rows: {game.name}", got["rows"] / got["cpu_s"],
                            "rows/CPU s", note=f"{got['matches']:.0f} matches, "
                            f"{got['rows'] / got['matches']:.0f} rows each"))
    return rows


def _export(db: str, out: str) -> None:
    from arena.app import datasets

    store = Store(db)
    # the imports and each game's action space and encoder, made once, are not what is timed
    datasets.export(store, datasets.DatasetRequest(out=Path(out) / "warm", tournament_id=1))
    began = time.process_time()
    summary = datasets.export(store, datasets.DatasetRequest(out=Path(out) / "data"))
    cpu = time.process_time() - began
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"rows": summary.rows, "matches": summary.matches, "cpu_s": cpu,
                      "peak_mb": peak_kb / 1024}))


if __name__ == "__main__":
    _export(sys.argv[1], sys.argv[2])
