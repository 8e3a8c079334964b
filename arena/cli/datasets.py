"""``arena dataset export``: finished matches as per-seat trajectories in Parquet, for imitation
and offline learning (:mod:`arena.app.datasets`; the schema: ``docs/datasets.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from arena.app import datasets
from arena.cli.common import DEFAULT_DB, DbOption, console, open_store
from arena.cli.remote import LocalOnlyArenaOption, local_only

dataset_app = typer.Typer(help="Datasets of finished matches, to learn from.",
                          no_args_is_help=True)


@dataset_app.command("export")
def dataset_export(
    out: Annotated[Path, typer.Argument(
        help="The folder to write trajectories.parquet and deals.parquet to (made if missing; "
        "it must not hold a dataset already).")],
    tournament: Annotated[int | None, typer.Option(
        "--tournament", metavar="ID", help="Only this tournament's matches.")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", metavar="GAME", help="Only this game's matches.")] = None,
    pool: Annotated[str | None, typer.Option(
        "--pool", metavar="POOL", help="Only this rating pool's matches, e.g. "
        "kill[target_score=11].")] = None,
    bot: Annotated[str | None, typer.Option(
        "--bot", metavar="NAME[@VERSION]", help="Only this bot's seats (every version, or "
        "one).")] = None,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Write each seat's decisions in finished matches, as the seat saw them (the numbers of
    the sdk.rl environments, and JSON), with the legal actions, the action chosen, the think
    time and the final score and rank; the full deal of each match goes to a table of its
    own. Only matches whose deal has been played in every seat rotation are written. Needs
    the rl extra. Local only."""
    local_only(arena, "dataset export")
    store = open_store(db, reading=True)
    summary = datasets.export(store, datasets.DatasetRequest(
        out=out, tournament_id=tournament, game=game, pool=pool, bot=bot))
    trajectories, deals = summary.files
    console.print(f"wrote {summary.rows} decisions of {summary.matches} matches to "
                  f"{trajectories}, and their {summary.deals} deals to {deals}",
                  highlight=False)
    if summary.held_back:
        console.print(f"held back {summary.held_back} finished matches: another rotation of "
                      "their deal is still to play", highlight=False)
