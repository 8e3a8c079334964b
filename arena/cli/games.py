"""``arena games``: the games, their player counts and options."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from arena.cli.common import console, shown
from arena.cli.output import JsonOption, document, emit_json, game_json
from arena.games import all_games


def games_command(json_output: JsonOption = False) -> None:
    """List the games, their player counts and options."""
    if json_output:
        emit_json(document("games", [game_json(game) for game in all_games().values()]))
        return
    table = Table(title="Games")
    table.add_column("game")
    table.add_column("players", no_wrap=True)
    table.add_column("options (default: allowed)", overflow="fold")
    for game in all_games().values():
        opts = "\n".join(f"{o.name} = {shown(o.default)}  ({o.describe()}): {o.doc}"
                         for o in game.options)
        table.add_row(Text(f"{game.name}\n").append(game.title, style="dim"),
                      f"{game.min_players}-{game.max_players} ({game.default_players})", opts)
    console.print(table)
