"""``arena scrimmage``: an author asks the server for unrated duplicate sets between their own
versions and others (:mod:`arena.app.scrimmages`); its results are `tournament show`'s."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.cli.common import Failure, console
from arena.cli.options import SprtOption
from arena.cli.output import JsonOption, document, emit_json
from arena.cli.remote import ArenaOption, CaOption, TokenOption, remote


def scrimmage_command(
    game: Annotated[str, typer.Argument(help="The game (see `arena games`).")],
    bots: Annotated[list[str], typer.Option(
        "--bot", "-b", help="A version of your own bots: NAME (its newest) or NAME@VERSION; "
        "repeat for several.")],
    against: Annotated[list[str], typer.Option(
        "--against", "-a", help="Another active version (another author's or a bundled bot); "
        "repeat for several.")],
    sets: Annotated[int, typer.Option(
        "--sets", "-n", min=1, help="Duplicate sets (each deal in every seat rotation); with "
        "three bots or more, each group's sets.")] = 10,
    sprt: SprtOption = None,
    json_output: JsonOption = False,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """Ask the server (--arena, your author token) for a scrimmage: your versions against
    others, unrated, played beside the ladder within the arena's limits per author (matches
    an hour, scrimmages waiting). Follow it with `arena tournament show ID`."""
    if arena is None:
        raise Failure("a scrimmage is asked of a server: give --arena HOST:PORT and your "
                      "--token (or ARENA_REMOTE and ARENA_REMOTE_TOKEN)")
    with remote(arena, token, tls_ca) as client:
        row = client.request_scrimmage(game, bots, against, sets, sprt)
    if json_output:
        emit_json(document("tournament", row))
        return
    console.print(f"scrimmage {row['id']} queued: {row['total']} matches of {row['game']} "
                  f"among {', '.join(row['bots'])} (unrated; `arena tournament show "
                  f"{row['id']}` follows it)", highlight=False)
