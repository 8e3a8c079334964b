"""``arena bot add|submit|token|list|remove``: managed, submitted and remote bots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from arena.app import bots
from arena.app.bots import Submitted
from arena.cli.common import (
    DEFAULT_DB,
    DbOption,
    Failure,
    console,
    open_store,
)
from arena.cli.output import JsonOption, bot_json, document, emit_json
from arena.cli.remote import ArenaOption, CaOption, LocalOnlyArenaOption, TokenOption, local_only, operations
from arena.games import all_games
from arena.players import submissions
from arena.players.process import parse_command

bot_app = typer.Typer(help="Register and list bots.", no_args_is_help=True)


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
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Register a bot: managed (--command, started by the arena) or remote (--remote).
    Local only: a server's bots are submitted (`arena bot submit --arena`)."""
    local_only(arena, "bot add")
    if (command is not None) == remote:
        both = ", not both" if remote else ""
        raise Failure("give either --command CMD (a managed bot) or --remote (a bot that connects "
                      f"by itself with a token){both}")
    if command is not None:
        where = Path(folder or ".").resolve()
        if not where.is_dir():
            raise Failure(f"--dir {folder!r} is not a folder")
        parse_command(command, where)  # before the database is opened (or created)
        bot = bots.add_managed(open_store(db), name, command, version, where)
        console.print(f"added bot {bot.label}: {bot.command} (in {where})", highlight=False)
        return
    if folder is not None:
        raise Failure("--dir is for managed bots (--command): a remote bot runs elsewhere")
    bot, token = bots.add_remote(open_store(db), name, version)
    show_token(f"added remote bot {bot.label}", bot.name, token)


@bot_app.command("submit")
def bot_submit(
    path: Annotated[Path, typer.Argument(help=f"A folder, .zip or .tar.gz holding "
                                         f"{submissions.MANIFEST} (name, command, games, "
                                         "optional requirements).", show_default=False)],
    label: Annotated[str | None, typer.Option(help="The version's label (default: the first "
                                              "12 digits of its code's hash).")] = None,
    json_output: JsonOption = False,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """Submit a version of a bot: its code is checked, kept by its hash, its requirements
    installed once; it then runs from that stored folder, read-only, in the sandbox.

    With --arena, to that server (with your author token: your own bots only)."""
    with operations(db, arena, token, tls_ca) as where:
        try:
            sent = where.submit(path, label, list(all_games()))
        except submissions.BuildError as err:  # the local build's (a server's: RemoteError)
            console.print(err.log, highlight=False, markup=False, soft_wrap=True)
            raise Failure(f"{err} (its log ends above)") from None
    _say_submitted(sent, json_output)


def _say_submitted(sent: Submitted, json_output: bool) -> None:
    """What a submission did, to a server or to the local database alike."""
    bot = sent.bot
    if json_output:
        emit_json(document("submission", {**bot_json(bot), "author": sent.author or None,
                                          "new": sent.new, "files": sent.files,
                                          "size": sent.size, "build_s": sent.build_s}))
    elif not sent.new:
        console.print(f"{bot.label} is this very code already (sha256 {bot.content_hash}): "
                      "nothing to do", highlight=False)
    else:
        built = "" if sent.build_s is None else \
            f"; requirements installed in {sent.build_s:.1f} s"
        console.print(f"submitted {bot.label}: sha256 {bot.content_hash}, {sent.files} files, "
                      f"{sent.size:,} bytes, games {', '.join(bot.games or ())}{built}",
                      highlight=False)


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
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Issue a new token for a remote bot; the old one stops working.

    A tournament already running keeps admitting the old token until it ends. Local only.
    """
    local_only(arena, "bot token")
    bot, token = bots.issue_token(open_store(db, reading=True), name, version)
    show_token(f"new token for remote bot {bot.label} (the old one no longer works)", bot.name, token)


@bot_app.command("list")
def bot_list(json_output: JsonOption = False, db: DbOption = DEFAULT_DB,
             arena: ArenaOption = None, token: TokenOption = None,
             tls_ca: CaOption = None) -> None:
    """List the registered bots (with --arena: the server's, with their authors)."""
    with operations(db, arena, token, tls_ca) as where:
        listed = where.bots()
    if json_output:
        emit_json(document("bots", [{**bot_json(bot), "author": author or None}
                                    for bot, author in listed]))
        return
    table = Table(title="Bots" if arena is None else f"Bots at {arena}")
    table.add_column("id", justify="right", no_wrap=True)
    table.add_column("bot", overflow="fold")
    table.add_column("kind", no_wrap=True)
    table.add_column("command", overflow="fold")  # whole, however long: folded, never cut
    table.add_column("folder", overflow="fold")
    table.add_column("games", overflow="fold")
    table.add_column("hash", no_wrap=True)
    table.add_column("author", overflow="fold")
    table.add_column("submitted", no_wrap=True)
    for bot, author in listed:
        table.add_row(str(bot.id), bot.label, bot.kind,
                      "(connects with its token)" if bot.remote else bot.command,
                      "" if bot.remote else bot.folder or "", ", ".join(bot.games or ()),
                      (bot.content_hash or "")[:12], author or "(operator)",
                      bot.created_at.strftime("%Y-%m-%d %H:%M"))
    console.print(table)


@bot_app.command("remove")
def bot_remove(
    name: Annotated[str, typer.Argument(help="The bot's name.")],
    version: Annotated[str | None, typer.Option(help="Only this version.")] = None,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Remove a bot (its past matches and ratings are kept). Local only."""
    local_only(arena, "bot remove")
    bots.remove(open_store(db, reading=True), name, version)
    console.print(f"removed bot {name}" + (f"@{version}" if version else ""))


@bot_app.command("log")
def bot_log(
    bot: Annotated[str, typer.Argument(help="NAME@VERSION, or NAME: its newest version.")],
    max_bytes: Annotated[int, typer.Option(
        "--bytes", min=1, max=1024 * 1024, help="The end of each log, at most this many bytes.")]
    = 256 * 1024,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """What a bot printed (its standard output and error, one log per process): with
    --arena, from the server (an author's token reads its own bots' logs only)."""
    with operations(db, arena, token, tls_ca) as where:
        label, files = where.bot_log(bot, max_bytes)
    logs = [(f.name, f.text, f.truncated) for f in files]
    if not logs:
        console.print(f"{label} has no log yet: it has not run here", highlight=False)
        return
    for name, text, truncated in logs:
        cut = " (its end)" if truncated else ""
        console.print(f"--- {name}{cut}", highlight=False)
        console.print(text.rstrip("\n"), highlight=False, markup=False, soft_wrap=True)
