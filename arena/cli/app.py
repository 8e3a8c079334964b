"""The ``arena`` command line.

Every user mistake (an unknown game, a bad option, a missing bot command, an
unknown id, an unusable database) ends with one clear line on stderr and exit
code 1; usage mistakes get typer's usage message and exit code 2.
"""

from __future__ import annotations

import os

# gRPC's C core logs failures (a port in use, ...) on its own; the CLI says them once, clearly.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

import asyncio
import contextlib
import importlib.util
import secrets
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from arena.games import all_games, get_game, module_name
from arena.games.base import GameError
from arena.match.replay import describe, read_log, view
from arena.net.bot_service import digest
from arena.net.tls import TlsError, check_tls_files, server_credentials
from arena.players.limits import LimitError, ResourceLimits, parse_count, parse_memory
from arena.players.process import BotCommandError, parse_command
from arena.storage.store import Store, StoreError, TournamentInfo
from arena.tournament.run import (
    RemoteBotsAbsent,
    RunSettings,
    RunSummary,
    TournamentError,
    round_robin,
    run_until_done,
)
from leaderboard.terminal import print_leaderboard, render_matches

DEFAULT_DB = "arena.db"
console = Console()
errors = Console(stderr=True)

app = typer.Typer(help="Card Arena: tournaments for card-game bots over gRPC.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)
bot_app = typer.Typer(help="Register and list bots.", no_args_is_help=True)
tournament_app = typer.Typer(help="Run, resume and list round-robin tournaments.",
                             no_args_is_help=True)
match_app = typer.Typer(help="Show finished matches.", no_args_is_help=True)
app.add_typer(bot_app, name="bot")
app.add_typer(tournament_app, name="tournament")
app.add_typer(match_app, name="match")

DbOption = Annotated[str, typer.Option("--db", envvar="ARENA_DB",
                                       help="SQLite file or SQLAlchemy URL.")]
USER_ERRORS = (GameError, StoreError, TournamentError, BotCommandError, LimitError, TlsError)


class Failure(Exception):
    """A user mistake found by the CLI itself."""


def open_store(db: str) -> Store:
    return Store(db)


def data_dir_for(db: str) -> Path:
    """Where bot logs go: beside a SQLite file, else in ./arena-data."""
    if "://" not in db:
        return Path(db).resolve().parent / "arena-data"
    return Path("arena-data").resolve()


# -- games -------------------------------------------------------------------------
@app.command("games")
def games_command() -> None:
    """List the games, their player counts and options."""
    table = Table(title="Games")
    for column in ("game", "players", "options (default: allowed)"):
        table.add_column(column)
    for game in all_games().values():
        opts = "\n".join(f"{o.name} = {_shown(o.default)}  ({o.describe()}): {o.doc}"
                         for o in game.options)
        table.add_row(f"{game.name}\n[dim]{game.title}[/dim]",
                      f"{game.min_players}-{game.max_players} ({game.default_players})", opts)
    console.print(table)


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# -- bots --------------------------------------------------------------------------
@bot_app.command("add")
def bot_add(
    name: Annotated[str, typer.Argument(help="The bot's name.")],
    command: Annotated[str | None, typer.Option("--command", "-c", help="How to start it: a "
                                                "managed bot, run by the arena.")] = None,
    remote: Annotated[bool, typer.Option("--remote", help="A bot that connects by itself from "
                                         "anywhere, with a token printed once.")] = False,
    version: Annotated[str, typer.Option(help="Version; ratings are per version.")] = "1",
    db: DbOption = DEFAULT_DB,
) -> None:
    """Register a bot: managed (--command, started by the arena) or remote (--remote)."""
    if (command is not None) == remote:
        both = ", not both" if remote else ""
        raise Failure("give either --command CMD (a managed bot) or --remote (a bot that connects "
                      f"by itself with a token){both}")
    if command is not None:
        parse_command(command)
        bot = open_store(db).add_bot(name, command, version)
        console.print(f"added bot {bot.label}: {bot.command}")
        return
    token = new_bot_token()
    bot = open_store(db).add_bot(name, version=version, token_hash=digest(token))
    show_token(f"added remote bot {bot.label}", bot.name, token)


def new_bot_token() -> str:
    """A remote bot's token: 256 random bits; the store keeps only its SHA-256."""
    return secrets.token_urlsafe(32)


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
    bot = open_store(db).set_bot_token_hash(name, version, digest(token))
    show_token(f"new token for remote bot {bot.label} (the old one no longer works)", bot.name, token)


@bot_app.command("list")
def bot_list(db: DbOption = DEFAULT_DB) -> None:
    """List the registered bots."""
    table = Table(title="Bots")
    for column in ("id", "bot", "kind", "command"):
        table.add_column(column)
    for bot in open_store(db).list_bots():
        table.add_row(str(bot.id), bot.label, "remote" if bot.remote else "managed",
                      "(connects with its token)" if bot.remote else bot.command)
    console.print(table)


@bot_app.command("remove")
def bot_remove(
    name: Annotated[str, typer.Argument(help="The bot's name.")],
    version: Annotated[str | None, typer.Option(help="Only this version.")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Remove a bot (its past matches and ratings are kept)."""
    open_store(db).remove_bot(name, version)
    console.print(f"removed bot {name}" + (f"@{version}" if version else ""))


# -- tournaments -------------------------------------------------------------------
def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise Failure(f"an option must be NAME=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


ListenOption = Annotated[str | None, typer.Option(
    "--listen", metavar="HOST:PORT", help="Where remote bots connect (port 0: any free one, "
    "printed). Managed bots always use a private port on 127.0.0.1.")]
TlsCertOption = Annotated[str | None, typer.Option(
    "--tls-cert", metavar="FILE", help="TLS certificate chain (PEM) for --listen.")]
TlsKeyOption = Annotated[str | None, typer.Option(
    "--tls-key", metavar="FILE", help="TLS private key (PEM, no passphrase) for --tls-cert.")]
WaitOption = Annotated[float, typer.Option(
    "--wait-for-remote", min=0.0, metavar="SECONDS", help="How long every remote bot has to "
    "connect before the first match (0: start at once; absent bots are no-shows).")]


@tournament_app.command("run")
def tournament_run(
    game: Annotated[str, typer.Option("--game", "-g", help="The game (see `arena games`).")],
    bots: Annotated[list[str], typer.Option("--bot", "-b", help="A bot NAME or NAME@VERSION; "
                                            "repeat for each bot.")],
    players: Annotated[int | None, typer.Option(help="Seats per match (default: the game's).")]
    = None,
    repetitions: Annotated[int, typer.Option("--repetitions", "-n", min=1,
                                             help="How often the whole schedule is played.")] = 1,
    parallel: Annotated[int, typer.Option(min=1, help="Matches played at once.")] = 2,
    seed: Annotated[int | None, typer.Option(help="Tournament seed (default: random).")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="A game option NAME=VALUE.")] = None,
    move_timeout: Annotated[float, typer.Option(min=0.001, help="Seconds per decision.")] = 10.0,
    start_timeout: Annotated[float, typer.Option(min=0.001, help="Seconds for bots to connect.")]
    = 30.0,
    time_bank: Annotated[float, typer.Option(min=0.0, help="Extra seconds per seat and match "
                                             "for moves slower than --move-timeout.")] = 0.0,
    event_delay: Annotated[float, typer.Option(
        min=0.0, help="Longest an event waits to ride with a seat's next decision request "
        "before it is sent on its own; 0 sends every event at once.")] = 0.2,
    bot_memory: Annotated[str, typer.Option(
        help="Address space per bot process: MB, or a size like 512MB or 2GiB; 'unlimited'.")]
    = "2048MB",
    bot_cpu_seconds: Annotated[str, typer.Option(
        help="CPU seconds per bot process start, over all its matches; 'unlimited'.")] = "unlimited",
    bot_processes: Annotated[str, typer.Option(
        help="RLIMIT_NPROC for bots: counts all processes of the user; not enforced for root.")]
    = "unlimited",
    bot_open_files: Annotated[str, typer.Option(help="Open files per bot process; 'unlimited'.")]
    = "256",
    listen: ListenOption = None,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    wait_for_remote: WaitOption = 60.0,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Schedule a round-robin among the bots and play it."""
    limits = ResourceLimits(memory_mb=parse_memory(bot_memory),
                            cpu_seconds=parse_count("--bot-cpu-seconds", bot_cpu_seconds),
                            processes=parse_count("--bot-processes", bot_processes),
                            open_files=parse_count("--bot-open-files", bot_open_files))
    listen, cert, key = remote_access(listen, tls_cert, tls_key)
    settings = RunSettings(parallel, move_timeout, start_timeout, time_bank,
                           event_delay_s=event_delay, limits=limits, listen=listen, tls_cert=cert,
                           tls_key=key, wait_for_remote_s=wait_for_remote)
    store = open_store(db)
    tournament_id = create_round_robin(store, game, bots, players, repetitions, seed,
                                       parse_options(option or []), settings)
    console.print(f"tournament {tournament_id}: {store.get_tournament(tournament_id).total} matches")
    play(store, tournament_id, settings, db)
    print_leaderboard(console, store.leaderboard(get_game(game).name))


def remote_access(listen: str | None, tls_cert: str | None,
                  tls_key: str | None) -> tuple[str | None, str | None, str | None]:
    """The checked --listen address and TLS files (absolute paths), before anything is written."""
    if listen is not None:
        host, sep, port = listen.strip().rpartition(":")
        if not sep or not host or not port.isdigit() or int(port) > 65535:
            raise Failure(f"--listen must be HOST:PORT (e.g. 0.0.0.0:7000), not {listen!r}")
        listen = f"{host}:{int(port)}"
    if (tls_cert is None) != (tls_key is None):
        raise Failure("give both --tls-cert and --tls-key, or neither")
    if tls_cert is None or tls_key is None:
        return listen, None, None
    if listen is None:
        raise Failure("--tls-cert and --tls-key secure the --listen address: give --listen HOST:PORT too")
    check_tls_files(tls_cert, tls_key)
    return listen, str(Path(tls_cert).resolve()), str(Path(tls_key).resolve())


def create_round_robin(store: Store, game_name: str, bot_names: list[str], players: int | None,
                       repetitions: int, seed: int | None, raw_options: dict[str, str],
                       settings: RunSettings) -> int:
    game = get_game(game_name)
    seats = players if players is not None else game.default_players
    options = game.parse_options(seats, raw_options)
    bot_ids = []
    for label in bot_names:
        name, _, version = label.partition("@")
        bot = store.get_bot(name, version or None)
        if not bot.remote:
            parse_command(bot.command)
        elif settings.listen is None:
            raise Failure(f"{bot.label} is a remote bot: give --listen HOST:PORT where it can connect")
        bot_ids.append(bot.id)
    if len(set(bot_ids)) != len(bot_ids):
        raise Failure("each bot may be named only once")
    tournament_seed = seed if seed is not None else secrets.randbits(63)
    schedule = round_robin(bot_ids, seats, repetitions, tournament_seed)
    return store.create_tournament(
        game=game.name, players=seats, options=dict(options), seed=tournament_seed,
        repetitions=repetitions, bot_ids=bot_ids, schedule=schedule, settings=settings.saved())


def play(store: Store, tournament_id: int, settings: RunSettings, db: str) -> RunSummary:
    columns = (TextColumn("[bold]tournament {task.fields[tid]}"), BarColumn(),
               MofNCompleteColumn(), TextColumn("matches"), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console) as bar:
        task = bar.add_task("play", total=None, tid=tournament_id)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        def notice(text: str) -> None:
            bar.console.print(text, highlight=False)

        resume = f"`arena tournament resume {tournament_id}`"
        try:
            summary = run_until_done(store, tournament_id, data_dir_for(db), settings, progress,
                                     notice)
        except (KeyboardInterrupt, asyncio.CancelledError):
            raise Failure(f"interrupted: {resume} finishes it") from None
        except RemoteBotsAbsent as err:
            raise Failure(f"{err}; nothing was played: {resume} when they are ready") from None
        except OSError as err:  # the --listen address cannot be bound
            raise Failure(f"{err}: {resume} (with another --listen if need be) plays it") from None
    if summary.left:
        console.print(f"stopped on request with {summary.left} matches left: "
                      f"`arena tournament resume {tournament_id}` finishes them")
        raise typer.Exit(0)
    return summary


@tournament_app.command("resume")
def tournament_resume(
    tournament_id: Annotated[int, typer.Argument(help="The tournament's id.")],
    parallel: Annotated[int | None, typer.Option(min=1, help="Matches played at once.")] = None,
    game: Annotated[str | None, typer.Option("--game", "-g", hidden=True)] = None,
    bots: Annotated[list[str] | None, typer.Option("--bot", "-b", hidden=True)] = None,
    players: Annotated[int | None, typer.Option(hidden=True)] = None,
    repetitions: Annotated[int | None, typer.Option("--repetitions", "-n", hidden=True)] = None,
    seed: Annotated[int | None, typer.Option(hidden=True)] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", hidden=True)] = None,
    move_timeout: Annotated[float | None, typer.Option(hidden=True)] = None,
    start_timeout: Annotated[float | None, typer.Option(hidden=True)] = None,
    time_bank: Annotated[float | None, typer.Option(hidden=True)] = None,
    listen: ListenOption = None,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    wait_for_remote: Annotated[float | None, typer.Option(
        "--wait-for-remote", min=0.0, metavar="SECONDS",
        help="How long remote bots have to connect (default: as saved).")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Finish an interrupted tournament: no match is lost or counted twice.

    A tournament keeps the game, bots, seed, options, clocks and bot limits it
    was created with; the others are accepted (so the `run` line can be reused)
    when they repeat the saved values. --parallel may change, and so may where
    remote bots connect (--listen, TLS files, --wait-for-remote).
    """
    store = open_store(db)
    tournament = store.get_tournament(tournament_id)
    saved = RunSettings.from_saved(tournament.settings, parallel)
    _check_unchanged(tournament, {
        "--game": (game, lambda: get_game(game or "").name, tournament.game),
        "--bot": (bots, lambda: sorted(store.get_bot(*_name_version(b)).label for b in bots or []),
                  sorted(tournament.bots)),
        "--players": (players, lambda: players, tournament.players),
        "--repetitions": (repetitions, lambda: repetitions, tournament.repetitions),
        "--seed": (seed, lambda: seed, tournament.seed),
        "--option": (option, lambda: dict(get_game(tournament.game).parse_options(
            tournament.players, parse_options(option or []))), tournament.options),
        "--move-timeout": (move_timeout, lambda: move_timeout, saved.move_timeout_s),
        "--start-timeout": (start_timeout, lambda: start_timeout, saved.start_timeout_s),
        "--time-bank": (time_bank, lambda: time_bank, saved.time_bank_s),
    })
    new_tls = tls_cert is not None or tls_key is not None
    address, cert, key = remote_access(listen or saved.listen, *((tls_cert, tls_key) if new_tls
                                                                 else (saved.tls_cert, saved.tls_key)))
    settings = replace(saved, listen=address, tls_cert=cert, tls_key=key,
                       wait_for_remote_s=saved.wait_for_remote_s if wait_for_remote is None
                       else wait_for_remote)
    left = tournament.total - tournament.finished
    console.print(f"tournament {tournament_id}: {left} of {tournament.total} matches left")
    play(store, tournament_id, settings, db)
    print_leaderboard(console, store.leaderboard(tournament.game))


def _name_version(label: str) -> tuple[str, str | None]:
    name, _, version = label.partition("@")
    return name, version or None


def _listed(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={_shown(v)}" for k, v in value.items()) or "(none)"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return _shown(value)


def _check_unchanged(tournament: TournamentInfo,
                     given: dict[str, tuple[object, Callable[[], object], object]]) -> None:
    """Refuse, before anything runs, a resume that asks for different settings."""
    for flag, (raw, value, saved) in given.items():
        if raw is None:
            continue
        if value() != saved:
            raise Failure(f"tournament {tournament.id} was created with {flag} {_listed(saved)}; a "
                          "tournament keeps its settings to the end (only --parallel may change): "
                          "resume without it, or start a new tournament")


@tournament_app.command("list")
def tournament_list(db: DbOption = DEFAULT_DB) -> None:
    """List tournaments and how far each has got."""
    table = Table(title="Tournaments")
    for column in ("id", "game", "players", "bots", "finished", "status"):
        table.add_column(column)
    store = open_store(db)
    for t in store.list_tournaments():
        table.add_row(str(t.id), t.game, str(t.players), ", ".join(t.bots),
                      f"{t.finished}/{t.total}", t.status)
    console.print(table)


# -- results -----------------------------------------------------------------------
@app.command("leaderboard")
def leaderboard_command(
    game: Annotated[str | None, typer.Option("--game", "-g", help="Only this game.")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Ratings (TrueSkill), best conservative estimate (mu - 3 sigma) first."""
    name = get_game(game).name if game else None
    print_leaderboard(console, open_store(db).leaderboard(name))


@app.command("ratings")
def ratings_command(
    action: Annotated[str, typer.Argument(help="`rebuild`: recompute from stored matches.")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """`arena ratings rebuild` recomputes every rating from the stored matches."""
    if action != "rebuild":
        raise Failure(f"unknown ratings action {action!r} (did you mean `rebuild`?)")
    store = open_store(db)
    count = store.rebuild_ratings()
    console.print(f"rebuilt ratings from {count} matches")
    print_leaderboard(console, store.leaderboard())


@match_app.command("list")
def match_list(
    tournament: Annotated[int | None, typer.Option(help="Only this tournament.")] = None,
    limit: Annotated[int, typer.Option(min=1)] = 50,
    db: DbOption = DEFAULT_DB,
) -> None:
    """The latest matches."""
    console.print(render_matches(open_store(db).list_matches(tournament, limit)))


@match_app.command("show")
def match_show(
    match_id: Annotated[int, typer.Argument(help="The match's id.")],
    seat: Annotated[int | None, typer.Option(help="Show it as this seat saw it.")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """A match's seats and its log, in full or from one seat's view."""
    match = open_store(db).get_match(match_id)
    players = len(match.seats)
    if seat is not None and not 0 <= seat < players:
        raise Failure(f"match {match_id} has seats 0 to {players - 1}, not {seat}")
    console.print(render_matches([match]))
    if match.log is None:
        console.print(f"match {match_id} is {match.status}: no log yet")
        return
    title = "full record" if seat is None else f"as seat {seat} saw it"
    console.print(f"[bold]log of match {match_id}, {title}[/bold]")
    for line in view(read_log(match.game, match.log), seat):
        if line.kind == "decision":
            how = " (fallback)" if line.fallback else ""
            console.print(f"  seat {line.seat} chose {describe(line.value)}{how}",
                          highlight=False)
        else:
            to = "" if line.audience is None or seat is not None else \
                f"  [dim](seen by {', '.join(map(str, sorted(line.audience)))})[/dim]"
            console.print(f"  {describe(line.value)}{to}", highlight=False)


# -- serving -----------------------------------------------------------------------
@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 50051,
    operator_token: Annotated[str | None, typer.Option(
        envvar="ARENA_OPERATOR_TOKEN", help="Token operators send as 'authorization: Bearer "
        "TOKEN' (default: a new random one, printed once).")] = None,
    tls_cert: Annotated[str | None, typer.Option("--tls-cert", metavar="FILE",
                                                 help="TLS certificate chain (PEM).")] = None,
    tls_key: Annotated[str | None, typer.Option("--tls-key", metavar="FILE",
                                                help="TLS private key (PEM, no passphrase).")] = None,
    operator_socket: Annotated[str | None, typer.Option(
        "--operator-socket", metavar="PATH", help="Also serve the operator service on this Unix "
        "socket (mode 0600), without a token; removed on exit.")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Run the referee server (bot and operator services) until interrupted."""
    from arena.service.operator import SocketPathError, prepare_socket_path, serve

    if (tls_cert is None) != (tls_key is None):
        raise Failure("give both --tls-cert and --tls-key, or neither")
    credentials = server_credentials(tls_cert, tls_key) if tls_cert and tls_key else None
    if operator_token is not None and len(operator_token) < 16:
        raise Failure("the operator token must be at least 16 characters")
    try:
        socket_path = prepare_socket_path(operator_socket) if operator_socket is not None else None
    except SocketPathError as err:
        raise Failure(f"cannot use --operator-socket: {err}") from None
    store = open_store(db)
    if operator_token is None:
        operator_token = secrets.token_urlsafe(24)
        console.print(f"operator token (send as 'authorization: Bearer TOKEN'): {operator_token}")
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(store, f"{host}:{port}", console, operator_token, credentials, socket_path))
        console.print("stopped")
    except OSError as err:
        raise Failure(f"cannot serve on {host}:{port}: {err}") from None


# -- demo --------------------------------------------------------------------------
def bundled_bots() -> Iterator[tuple[str, str, list[str]]]:
    """(name, command, games) of the bundled bots: random, and a heuristic bot per game."""
    yield "random", "python -m bots.random_bot", list(all_games())
    for game in all_games().values():
        module = module_name(game)
        if importlib.util.find_spec(f"bots.{module}") is not None:
            yield f"{game.name}-bot", f"python -m bots.{module}", [game.name]


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
                store.add_bot(name, command)
        played = 0
        settings = RunSettings(parallel=parallel, move_timeout_s=10.0, start_timeout_s=30.0)
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


def main() -> None:
    # Past a file size limit a write should fail (EFBIG: a clear "disk full" error) rather
    # than kill the arena; bot processes get the default back (subprocess restores it).
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        app()
    except (*USER_ERRORS, Failure) as err:
        errors.print(f"[red]error:[/red] {err}", highlight=False, soft_wrap=True)
        sys.exit(1)
