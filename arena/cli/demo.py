"""``arena demo``: a real round-robin per game between the bundled bots."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import tempfile
import time
from collections.abc import Iterator
from typing import Annotated

import typer

from arena.cli.app import app, console, open_store
from arena.cli.tournaments import play
from arena.games import all_games, module_name
from arena.players import sandbox
from arena.storage.store import StoreError
from arena.tournament import RunSettings, create_round_robin
from leaderboard.terminal import print_leaderboard


def bundled_bots() -> Iterator[tuple[str, str, list[str]]]:
    """(name, command, games) of the bundled bots: random, and a heuristic bot per game."""
    yield "random", "python -m bots.random_bot", list(all_games())
    for game in all_games().values():
        module = module_name(game)
        if importlib.util.find_spec(f"bots.{module}") is not None:
            yield f"{game.name}-bot", f"python -m bots.{module}", [game.name]


def bundled_folder() -> str:
    """The bundled bots' folder (the ``bots`` package): what their sandboxes show of them."""
    return str(sandbox.package_dirs("bots")[0].resolve())


@app.command("demo")
def demo_command(
    db: Annotated[str | None, typer.Option("--db", help="Keep the results in this SQLite file "
                                           "(default: a fresh temporary one).")] = None,
    repetitions: Annotated[int, typer.Option("--repetitions", "-n", min=1)] = 1,
    parallel: Annotated[int, typer.Option(min=1)] = 2,
    seed: Annotated[int, typer.Option(help="Tournament seed.")] = 2026,
) -> None:
    """A real round-robin per game between the bundled bots, over gRPC; then the leaderboard.

    Matches use each game's short-match options (e.g. a lower target score).
    """
    began = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if db is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-demo-"))
            db = os.path.join(folder, "demo.db")
        store = open_store(db)
        catalogue = list(bundled_bots())
        for name, command, _ in catalogue:
            with contextlib.suppress(StoreError):
                store.add_bot(name, command, folder=bundled_folder())
        played = 0
        contained = sandbox.check()
        if not contained.works:
            console.print(f"sandbox unavailable ({contained.why_not}): the bundled bots, which "
                          "this project wrote, run without it", highlight=False)
        settings = RunSettings(parallel=parallel, move_timeout_s=10.0, start_timeout_s=30.0,
                               sandbox=contained.works)
        for game in all_games().values():
            entrants = [name for name, _, games in catalogue if game.name in games]
            if len(entrants) < 2:
                continue
            demo_options = {k: str(v) for k, v in game.demo_options.items()}
            tid = create_round_robin(store, game.name, entrants, None, repetitions, seed,
                                     demo_options, settings)
            summary = play(store, tid, settings, db)
            played += summary.played
        console.print()
        print_leaderboard(console, store.leaderboard())
        console.print(f"demo: {played} matches over gRPC with bots as separate processes, "
                      f"in {time.perf_counter() - began:.1f} s; database: {db}")
