"""``arena demo``: a real round-robin per game between the bundled bots, kept in a SQLite file.

The demo writes ``arena-demo.db`` in the current folder (or ``--db PATH``) and
replaces the previous demo's: the file, its ``-wal``/``-shm``/``-journal``
companions and the bundled bots' logs in the ``arena-data`` folder beside it
(only when it replaces a demo's database; the folder's other files stay). It
recognises a demo's database by what it holds: an arena database whose bots are
all bundled bots (by name, version and command). Anything else, a database with
a bot of its own or a file that is no arena database, is refused with one line,
exit code 1, and left as it is.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shlex
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import Failure, console, data_dir_for, open_store
from arena.cli.playing import play
from arena.cli.remote import LocalOnlyArenaOption, local_only
from arena.games import all_games, get_game, module_name
from arena.players import sandbox
from arena.players.process import log_name
from arena.storage.names import RANDOM_BOT, SEARCH_BOT, heuristic_bot
from arena.tournament import RunSettings, create_tournament
from arena.tournament.formats import VERSUS
from arena.tournament.setup import Plan
from leaderboard.terminal import print_leaderboard

DEMO_DB = "arena-demo.db"
COMPANIONS = ("-wal", "-shm", "-journal")  # SQLite's files beside a database
# Repetitions of a game's round-robin (one is every seat rotation of every group: 12 matches
# of 4 seats, 20 of 5). Where a heuristic bot's edge over random is small, one repetition
# puts random ahead on the leaderboard of about one demo in 14 (Face Card / Kill Card,
# Serial Killer) or 100 (Knives); with these, the heuristic's lead in simulated demos is 3.5
# standard deviations or more: random ahead in fewer than one demo in 4,000 per game.
REPETITIONS = {"face-card-kill-card": 10, "serial-killer": 10, "knives": 3}
SEARCH_BUDGET_S = 0.02
"""The search bot's budget a decision in the demo: a fifth of what it plays at on a 100 ms
clock, so that the demo stays under a minute on 2 cores."""
SEARCH_SETS = 1
"""Duplicate sets of the demo's match between each game's search bot and its heuristic bot
(each set is one deal in every seat rotation, the other seats random bots)."""


def bundled_bots() -> Iterator[tuple[str, str, list[str]]]:
    """(name, command, games) of the bundled bots: random, a heuristic bot per game, and the
    search bot (every game, rollouts of the heuristic bots: ``bots/search.py``)."""
    yield RANDOM_BOT, "python -m bots.random_bot", list(all_games())
    for game in all_games().values():
        module = module_name(game)
        if importlib.util.find_spec(f"bots.{module}") is not None:
            yield heuristic_bot(game.name), f"python -m bots.{module}", [game.name]
    yield SEARCH_BOT, f"python -m bots.search --budget {SEARCH_BUDGET_S}", list(all_games())


def bundled_folder() -> str:
    """The bundled bots' folder (the ``bots`` package): what their sandboxes show of them."""
    return str(sandbox.package_dirs("bots")[0].resolve())


def is_demo_database(path: Path) -> bool:
    """Whether ``path`` is an arena database holding only the bundled bots, as a demo leaves
    it. Read only: nothing is written to the file, whatever it is."""
    bundled = {(name, "1", command) for name, command, _ in bundled_bots()}
    # Without a -wal file everything is in the database file: read it as immutable, or SQLite
    # would leave an empty -wal and a -shm beside a database in WAL mode.
    immutable = "" if Path(f"{path}-wal").exists() else "&immutable=1"
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro{immutable}",
                                                uri=True)) as connection:
            rows = connection.execute(
                "select name, version, command, token_hash from bot").fetchall()
            connection.execute("select id, game from tournament limit 1").fetchall()
    except sqlite3.Error:
        return False  # not SQLite, or no arena's tables
    return all((name, version, command) in bundled and token_hash is None
               for name, version, command, token_hash in rows)


def demo_logs(data_dir: Path) -> list[Path]:
    """The bundled bots' log files in ``data_dir`` (every lane's, and rotated ones)."""
    logs = data_dir / "logs"
    if not logs.is_dir():
        return []
    patterns = []
    for name, _, _ in bundled_bots():
        stem = re.escape(log_name(f"{name}@1").removesuffix(".log"))
        patterns.append(re.compile(rf"{stem}(\.lane\d+)?\.log(\.1)?"))
    return [entry for entry in logs.iterdir()
            if entry.is_file() and any(p.fullmatch(entry.name) for p in patterns)]


def replace_demo_database(db: str) -> None:
    """Remove the earlier demo's database, its companions and its bots' logs; refuse (a
    :class:`Failure`, left as it is) anything that is not a demo's."""
    if "://" in db:
        raise Failure(f"--db {db!r}: the demo keeps its results in a SQLite file, which it "
                      "replaces each time; give a file name, not a URL")
    path = Path(db)
    if path.is_dir():
        raise Failure(f"--db {db!r} is a directory: give a file name")
    earlier = path.exists()
    if earlier and not is_demo_database(path):
        raise Failure(f"{db} exists and is not a database made by `arena demo`; the demo "
                      "replaces only its own: move it away or give another --db")
    for companion in (path, *(Path(f"{path}{suffix}") for suffix in COMPANIONS)):
        with contextlib.suppress(FileNotFoundError):
            companion.unlink()
    if not earlier:
        return  # the logs beside it may be another database's
    data_dir = data_dir_for(db)
    for log in demo_logs(data_dir):
        with contextlib.suppress(FileNotFoundError):
            log.unlink()
    for folder in (data_dir / "logs", data_dir):  # only if nothing else is left in them
        with contextlib.suppress(OSError):
            folder.rmdir()


def demo_command(
    db: Annotated[str, typer.Option(
        "--db", help="The demo's SQLite file, replaced by every demo (only a demo's: any "
        "other file is refused).")] = DEMO_DB,
    repetitions: Annotated[int | None, typer.Option(
        "--repetitions", "-n", min=1, help="Repetitions of every game's round-robin (default: "
        "each game's own, enough for the heuristic bots' edge over random to show).")] = None,
    games: Annotated[list[str] | None, typer.Option(
        "--game", "-g", help="Play only this game; repeat for several (default: every game).")
    ] = None,
    parallel: Annotated[int, typer.Option(
        min=1, help="Matches played at once (mostly waiting on their bots, not the CPU: 4 "
        "plays the demo a quarter faster than 2 on 2 cores).")] = 4,
    seed: Annotated[int, typer.Option(help="Tournament seed.")] = 2026,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """A real round-robin per game between the bundled bots, over gRPC; then the leaderboard.

    Matches use each game's short-match options (e.g. a lower target score). The
    results stay in arena-demo.db (or --db), which the next demo replaces.
    """
    local_only(arena, "demo")
    began = time.perf_counter()
    chosen = {get_game(name).name for name in games or all_games()}  # before replacing anything
    replace_demo_database(db)
    store = open_store(db)
    catalogue = list(bundled_bots())
    folder = bundled_folder()
    for name, command, _ in catalogue:
        store.add_bot(name, command, folder=folder)
    played = 0
    contained = sandbox.check()
    if not contained.works:
        console.print(f"sandbox unavailable ({contained.why_not}): the bundled bots, which "
                      "this project wrote, run without it", highlight=False)
    settings = RunSettings(parallel=parallel, sandbox=contained.works)  # the default clocks
    for game in (g for g in all_games().values() if g.name in chosen):
        entrants = [name for name, _, games in catalogue
                    if game.name in games and name != SEARCH_BOT]
        if len(entrants) < 2:
            continue
        demo_options = {k: str(v) for k, v in game.demo_options.items()}
        tid = create_tournament(store, game.name, entrants, None,
                                repetitions or REPETITIONS.get(game.name, 1), seed,
                                demo_options, settings)
        played += play(store, tid, settings, db).played
        heuristic = heuristic_bot(game.name)
        if heuristic in entrants:  # the search bot against the heuristic it searches with
            tid = create_tournament(store, game.name, [SEARCH_BOT, heuristic], None, 1, seed,
                                    demo_options, settings,
                                    plan=Plan(VERSUS, field=(RANDOM_BOT,), sets=SEARCH_SETS))
            played += play(store, tid, settings, db).played
    console.print()
    print_leaderboard(console, store.leaderboard())
    shown = shlex.quote(db)
    console.print(f"demo: {played} matches over gRPC with bots as separate processes, "
                  f"in {time.perf_counter() - began:.1f} s; kept in {os.path.abspath(db)}",
                  highlight=False, soft_wrap=True)
    # --all-pools: the demo's short matches (a lower target score) are rated in pools of their own.
    console.print(f"explore it: arena leaderboard --db {shown} --all-pools", highlight=False,
                  soft_wrap=True)
    console.print(f"            arena tournament list --db {shown}", highlight=False,
                  soft_wrap=True)
    console.print(f"in a browser: arena web --db {shown}   (then open http://127.0.0.1:8000/: "
                  "leaderboards, bots, tournaments, replays)", highlight=False, soft_wrap=True)
