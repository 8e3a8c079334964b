"""``arena games``: the games, their player counts and options."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from arena.cli.app import app, console, shown
from arena.games import all_games


@app.command("games")
def games_command() -> None:
    """List the games, their player counts and options."""
    table = Table(title="Games")
    for column in ("game", "players", "options (default: allowed)"):
        table.add_column(column)
    for game in all_games().values():
        opts = "\n".join(f"{o.name} = {shown(o.default)}  ({o.describe()}): {o.doc}"
                         for o in game.options)
        table.add_row(Text(f"{game.name}\n").append(game.title, style="dim"),
                      f"{game.min_players}-{game.max_players} ({game.default_players})", opts)
    console.print(table)
