"""``arena author add|list|token``: the people who submit bots to an arena served with
``arena serve``, each with a secret token (the store keeps only its SHA-256)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from arena.app import authors
from arena.cli.common import DEFAULT_DB, DbOption, console, open_store
from arena.cli.output import JsonOption, document, emit_json, iso
from arena.cli.remote import LocalOnlyArenaOption, local_only

author_app = typer.Typer(help="Authors: who may submit bots to the server (`arena serve`), "
                         "each with a token of their own.", no_args_is_help=True)


def _show_token(headline: str, name: str, token: str) -> None:
    console.print(headline, highlight=False)
    console.print(f"the author's token, shown only this once (`arena author token {name}` "
                  "issues a new one):", highlight=False)
    console.print(token, highlight=False, soft_wrap=True)
    console.print("the author runs `arena bot submit FOLDER --arena HOST:PORT --token TOKEN` "
                  "(or sets ARENA_REMOTE and ARENA_REMOTE_TOKEN)", highlight=False)


@author_app.command("add")
def author_add(
    name: Annotated[str, typer.Argument(help="The author's name (letters, digits, '.', '_', '-').")],
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Add an author; prints the author's token once. Local only."""
    local_only(arena, "author add")
    author, token = authors.add(open_store(db), name)
    _show_token(f"added author {author.name}", author.name, token)


@author_app.command("token")
def author_token(
    name: Annotated[str, typer.Argument(help="The author's name.")],
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Issue a new token for an author; the old one stops working at once. Local only."""
    local_only(arena, "author token")
    author, token = authors.issue_token(open_store(db, reading=True), name)
    _show_token(f"new token for author {author.name} (the old one no longer works)",
                author.name, token)


@author_app.command("list")
def author_list(json_output: JsonOption = False, db: DbOption = DEFAULT_DB,
                arena: LocalOnlyArenaOption = None) -> None:
    """List the authors and their bots. Local only."""
    local_only(arena, "author list")
    listed = authors.listing(open_store(db, reading=True))
    if json_output:
        emit_json(document("authors", [{"id": a.id, "name": a.name, "bots": list(a.bots),
                                        "created_at": iso(a.created_at)} for a in listed]))
        return
    table = Table(title="Authors")
    table.add_column("id", justify="right", no_wrap=True)
    table.add_column("author", overflow="fold")
    table.add_column("bots", overflow="fold")
    table.add_column("added", no_wrap=True)
    for a in listed:
        table.add_row(str(a.id), a.name, ", ".join(a.bots), a.created_at.strftime("%Y-%m-%d %H:%M"))
    console.print(table)
