"""``arena bot add|token|list|remove``: managed and remote bots."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from arena.cli.app import DEFAULT_DB, DbOption, Failure, bot_app, console, open_store
from arena.cli.output import JsonOption, bot_json, document, emit_json
from arena.net.bot_service import digest
from arena.players.process import parse_command


@bot_app.command("add")
def bot_add(
    name: Annotated[str, typer.Argument(help="The bot's name.")],
    command: Annotated[str | None, typer.Option("--command", "-c", help="How to start it: a "
                                                "managed bot, run by the arena.")] = None,
    remote: Annotated[bool, typer.Option("--remote", help="A bot that connects by itself from "
                                         "anywhere, with a token printed once.")] = False,
    version: Annotated[str, typer.Option(help="Version; ratings are per version.")] = "1",
    folder: Annotated[str | None, typer.Option(
        "--dir", metavar="FOLDER", help="A managed bot's folder: it runs there, and its sandbox "
        "shows it nothing else of this machine's files but the runtime (default: the current "
        "folder).")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Register a bot: managed (--command, started by the arena) or remote (--remote)."""
    if (command is not None) == remote:
        both = ", not both" if remote else ""
        raise Failure("give either --command CMD (a managed bot) or --remote (a bot that connects "
                      f"by itself with a token){both}")
    if command is not None:
        where = Path(folder or ".").resolve()
        if not where.is_dir():
            raise Failure(f"--dir {folder!r} is not a folder")
        parse_command(command, where)
        bot = open_store(db).add_bot(name, command, version, folder=str(where))
        console.print(f"added bot {bot.label}: {bot.command} (in {where})", highlight=False)
        return
    if folder is not None:
        raise Failure("--dir is for managed bots (--command): a remote bot runs elsewhere")
    token = new_bot_token()
    bot = open_store(db).add_bot(name, version=version, token_hash=digest(token))
    show_token(f"added remote bot {bot.label}", bot.name, token)


def new_bot_token() -> str:
    """A remote bot's token: 256 random bits; the store keeps only its SHA-256. Never one
    that starts with '-', which a command line would take for an option (``--token -x``)."""
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return token


def show_token(headline: str, name: str, token: str) -> None:
    console.print(headline, highlight=False)
    console.print(f"its token, shown only this once (`arena bot token {name}` issues a new one):",
                  highlight=False)
    console.print(token, highlight=False, soft_wrap=True)
    console.print("the bot connects with --server HOST:PORT --token TOKEN (or ARENA_SERVER and "
                  "ARENA_TOKEN) to a tournament run with --listen HOST:PORT", highlight=False)


@bot_app.command("token")
def bot_token(
    name: Annotated[str, typer.Argument(help="The remote bot's name.")],
    version: Annotated[str | None, typer.Option(help="This version (default: the newest).")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Issue a new token for a remote bot; the old one stops working.

    A tournament already running keeps admitting the old token until it ends.
    """
    token = new_bot_token()
    bot = open_store(db, reading=True).set_bot_token_hash(name, version, digest(token))
    show_token(f"new token for remote bot {bot.label} (the old one no longer works)", bot.name, token)


@bot_app.command("list")
def bot_list(json_output: JsonOption = False, db: DbOption = DEFAULT_DB) -> None:
    """List the registered bots."""
    bots = open_store(db, reading=True).list_bots()
    if json_output:
        emit_json(document("bots", [bot_json(bot) for bot in bots]))
        return
    table = Table(title="Bots")
    table.add_column("id", justify="right", no_wrap=True)
    table.add_column("bot", overflow="fold")
    table.add_column("kind", no_wrap=True)
    table.add_column("command", overflow="fold")  # whole, however long: folded, never cut
    table.add_column("folder", overflow="fold")
    for bot in bots:
        table.add_row(str(bot.id), bot.label, "remote" if bot.remote else "managed",
                      "(connects with its token)" if bot.remote else bot.command,
                      "" if bot.remote else bot.folder or "")
    console.print(table)


@bot_app.command("remove")
def bot_remove(
    name: Annotated[str, typer.Argument(help="The bot's name.")],
    version: Annotated[str | None, typer.Option(help="Only this version.")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Remove a bot (its past matches and ratings are kept)."""
    open_store(db, reading=True).remove_bot(name, version)
    console.print(f"removed bot {name}" + (f"@{version}" if version else ""))
