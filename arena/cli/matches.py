"""``arena match list|show|graph|watch|play``: the matches of the local database (and their
win-probability graphs), one followed as it is played (here or on a server, ``--arena``), and
ad-hoc matches between bot commands.

``match play`` is like a quick cutechess game: nothing is registered and no database is left
behind (unless ``--keep DIR``): the bots are played by the same executor, referee, sandbox
and clocks as a tournament's, on a database in a temporary folder, and the results printed.
The deals come from ``--seed`` (printed), so the same command line plays the same deals
again. It uses no arena's data: ``--arena`` (ARENA_REMOTE) does not concern it.
"""

from __future__ import annotations

import secrets
import shlex
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from arena.app.graph_worker import GraphQueue, drain
from arena.app.graphs import DEFAULT_CAP_S, compute, swings
from arena.app.watch import WatchUpdate
from arena.cli.common import DEFAULT_DB, DbOption, Failure, console, open_store
from arena.cli.options import (
    GameOptionsOption,
    KeepGoingOption,
    MoveTimeoutOption,
    NoSandboxOption,
    StartTimeoutOption,
    TimeBankOption,
    parse_options,
)
from arena.cli.output import JsonOption, document, emit_json, inert, log_json, match_json
from arena.cli.playing import play
from arena.cli.remote import ArenaOption, CaOption, LocalOnlyArenaOption, TokenOption, local_only, operations
from arena.games import get_game
from arena.match.replay import describe, read_log, view
from arena.players.submissions import MANIFEST
from arena.storage.store import MatchStatus, Store, StoredGraph
from arena.tournament import RunSettings, create_tournament
from arena.tournament.settings import DEFAULTS
from arena.tournament.setup import DUPLICATE
from leaderboard.terminal import render_matches

match_app = typer.Typer(help="Play ad-hoc matches; list and show finished ones.",
                        no_args_is_help=True)


@match_app.command("list")
def match_list(
    tournament: Annotated[int | None, typer.Option(help="Only this tournament.")] = None,
    limit: Annotated[int, typer.Option(min=1, help="At most this many, the newest.")] = 50,
    json_output: JsonOption = False,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """The latest matches."""
    local_only(arena, "match list")
    matches = open_store(db, reading=True).list_matches(tournament, limit)
    if json_output:
        emit_json(document("matches", [match_json(m) for m in matches]))
        return
    console.print(render_matches(matches))


@match_app.command("show")
def match_show(
    match_id: Annotated[int, typer.Argument(help="The match's id.")],
    seat: Annotated[int | None, typer.Option(help="Show it as this seat saw it.")] = None,
    json_output: JsonOption = False,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """A match's seats and its log, in full or from one seat's view."""
    local_only(arena, "match show")
    match = open_store(db, reading=True).get_match(match_id)
    players = len(match.seats)
    if seat is not None and not 0 <= seat < players:
        raise Failure(f"match {match_id} has seats 0 to {players - 1}, not {seat}")
    lines = None if match.log is None else view(read_log(match.game, match.log), seat)
    if json_output:
        emit_json(document("match", {**match_json(match), "options": match.options,
                                     "node": match.node, "seen_by": seat,
                                     "log": None if lines is None else log_json(lines)}))
        return
    console.print(render_matches([match]))
    if match.node is not None:  # played elsewhere: where, and where its logs are (never wrapped)
        console.print(Text(inert(f"played on: {match.node}")), highlight=False, soft_wrap=True)
    if lines is None:
        if match.status is MatchStatus.RUNNING:
            console.print(f"match {match_id} is running: its log is shown once it has finished; "
                          f"follow its public view with `arena match watch {match_id}`")
        elif match.status is MatchStatus.PENDING:
            console.print(f"match {match_id} has not started: once it runs, follow it with "
                          f"`arena match watch {match_id}`")
        else:
            console.print(f"match {match_id} is {match.status}: it has no log")
        return
    title = "full record" if seat is None else f"as seat {seat} saw it"
    console.print(f"log of match {match_id}, {title}", style="bold")
    for line in lines:
        if line.kind == "decision":
            how = " (fallback)" if line.fallback else ""
            console.print(f"  seat {line.seat} chose {describe(line.value)}{how}",
                          highlight=False)
            if line.note or line.note_cut:  # the bot's own words: inert
                cut = f" ({line.note_cut} more bytes cut)" if line.note_cut else ""
                console.print(Text(inert(f"    note: {line.note!r}{cut}"), style="cyan"),
                              highlight=False)
        elif line.kind == "fault":
            # the reason may be the bot's own words (an error it reported): inert
            console.print(Text(inert(f"  seat {line.seat} is out of the match: "
                                     f"{line.value.fault} ({line.value.reason})"), style="red"),
                          highlight=False)
        else:
            to = "" if line.audience is None or seat is not None else \
                f"  (seen by {', '.join(map(str, sorted(line.audience)))})"
            console.print(Text(inert(f"  {describe(line.value)}")).append(to, style="dim"),
                          highlight=False)


@match_app.command("graph")
def match_graph(
    match_id: Annotated[int | None, typer.Argument(help="The match's id (or --pending).")] = None,
    pending: Annotated[bool, typer.Option(
        "--pending", help="Every finished match whose deal is over and that has no graph yet, "
        "as the background worker takes them.")] = False,
    cpu: Annotated[float, typer.Option(
        "--cpu", min=0.01, max=3600.0, metavar="SECONDS", help="CPU seconds a graph may "
        "take.")] = DEFAULT_CAP_S,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Compute win-probability graphs now (each seat's chance to finish first after each
    decision, from the full deal: docs/web.md), as `arena web` and `arena serve` do in the
    background: one match's (anew, replacing the one it has), or every one still to make.
    Only for a finished match whose deal is over."""
    local_only(arena, "match graph")
    if (match_id is None) != pending:
        raise Failure("give a match's id or --pending (one of them)")
    store = open_store(db, reading=True)
    if match_id is not None:
        console.print(graph_line(compute(store, match_id, cap_s=cpu, replace=True)),
                      highlight=False)
        return
    queue = GraphQueue(store)
    made = drain(store, queue, cpu, done=lambda graph: console.print(graph_line(graph),
                                                                      highlight=False))
    held = f"; {len(queue.held)} wait for another rotation of their deal" if queue.held else ""
    console.print(f"{made} graph{'s' if made != 1 else ''} computed{held}", highlight=False)


def graph_line(graph: StoredGraph) -> str:
    """A graph in one line: its steps, what it cost, each seat's chance at the start."""
    if graph.error is not None:
        return f"match {graph.match_id}: no graph: {graph.error}"
    start = ", ".join(f"seat {seat} {chance:.0%}" for seat, chance in enumerate(graph.chances[0]))
    marks = ", ".join(f"step {s.step} (seat {s.seat} {s.change:+.0%})" for s in swings(graph))
    return (f"match {graph.match_id}: {len(graph.evaluated)} of {graph.steps} steps computed, "
            f"{graph.rollouts} rollouts each, {graph.cpu_s:.2f} CPU s; chances to finish first "
            f"at the start: {start}" + (f"; biggest swings: {marks}" if marks else ""))


@match_app.command("watch")
def match_watch(
    match_id: Annotated[int, typer.Argument(help="The match's id.")],
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
    all_hands: Annotated[bool, typer.Option(
        "--all-hands", help="Every event, each seat's own too (its cards): always for the "
        "operator (this machine's database, or a server's operator token); for an author, "
        "only where the match's deal is sealed (docs/security.md), else refused in one "
        "line.")] = False,
) -> None:
    """Follow a match's public view: each public event as a line as it is played, then its
    result (a finished match: its public events and its result at once). On this machine's
    database, or a server's with --arena (WatchMatch). Ctrl-C stops watching."""
    with operations(db, arena, token, tls_ca) as where:
        _print_watch(where.watch_match(match_id, all_hands), all_hands)


def _print_watch(updates: Iterator[WatchUpdate], all_hands: bool = False) -> None:
    """Print a watch's updates: a header, each event shown, and the result at the end."""
    first = True
    shown = "events, every hand," if all_hands else "public events"
    for update in updates:
        if first:
            first = False
            if not update.ended:
                doing = "has not started yet: waiting for it" if update.status == "pending" \
                    else f"is running: its {shown} as they are played (Ctrl-C to stop)"
                console.print(Text(inert(f"match {update.match_id} ({update.game}) {doing}")),
                              highlight=False)
        for event in update.events:
            console.print(Text(inert(f"  {describe(event)}")), highlight=False)
        if update.ended:
            _print_result(update)
        console.file.flush()  # each line as it comes, through a pipe too


def _print_result(update: WatchUpdate) -> None:
    if update.status != "finished":
        console.print(Text(inert(f"match {update.match_id} ({update.game}) is {update.status}: "
                                 "it has no result")), highlight=False)
        return
    console.print(Text(inert(f"match {update.match_id} ({update.game}) finished"), style="bold"),
                  highlight=False)
    for seat in sorted(update.seats, key=lambda s: (s.rank is None, s.rank or 0, s.seat)):
        rank = "-" if seat.rank is None else str(seat.rank)
        score = "-" if seat.score is None else f"{seat.score:g}"
        fault = f"  fault: {seat.fault}" if seat.fault else ""
        console.print(Text(inert(f"  rank {rank}  seat {seat.seat}  {seat.bot}  score {score}"
                                 f"{fault}")), highlight=False)


@match_app.command("play")
def match_play(
    game: Annotated[str, typer.Option("--game", "-g", help="The game (see `arena games`).")],
    commands: Annotated[list[str], typer.Option(
        "--bot", "-b", metavar="CMD", help="A bot's command, run in the current folder; one per "
        "seat, repeated for each (the same command twice is self-play).")],
    deals: Annotated[int, typer.Option(
        "--deals", "-n", min=1, help="How many deals; each is played in every seat rotation.")]
    = 1,
    seed: Annotated[int | None, typer.Option(help="The deals' seed (default: a random one, "
                                             "printed).")] = None,
    option: GameOptionsOption = None,
    move_timeout: MoveTimeoutOption = DEFAULTS.move_timeout_s,
    time_bank: TimeBankOption = DEFAULTS.time_bank_s,
    start_timeout: StartTimeoutOption = DEFAULTS.start_timeout_s,
    keep: Annotated[Path | None, typer.Option(
        "--keep", metavar="DIR", help="Keep the database and the bots' logs in this new folder "
        "(for `arena match show --db DIR/arena.db`).")] = None,
    no_sandbox: NoSandboxOption = False,
    keep_going: KeepGoingOption = False,
) -> None:
    """Play ad-hoc matches between bot commands and print the result; nothing is kept."""
    chosen = get_game(game)
    if len(commands) < 2:
        raise Failure("give at least two --bot commands")
    if not chosen.min_players <= len(commands) <= chosen.max_players:
        raise Failure(f"{chosen.name} takes {chosen.min_players} to {chosen.max_players} players, "
                      f"not {len(commands)} --bot")
    if keep is not None and keep.exists():
        raise Failure(f"--keep {str(keep)!r} exists already: give a new folder")
    _check_manifest(chosen.name, commands, Path.cwd())
    deal_seed = seed if seed is not None else secrets.randbits(31)
    settings = RunSettings(move_timeout_s=move_timeout, start_timeout_s=start_timeout,
                           time_bank_s=time_bank, sandbox=not no_sandbox, keep_going=keep_going)
    with tempfile.TemporaryDirectory(prefix="arena-match-") as scratch:
        folder = Path(scratch)
        if keep is not None:
            keep.mkdir(parents=True)
            folder = keep.resolve()
        db = str(folder / "arena.db")
        store = open_store(db)
        labels = _register(store, commands)
        tid = create_tournament(store, chosen.name, labels, len(commands), deals, deal_seed,
                                parse_options(option or []), settings, DUPLICATE,
                                deals_from_seed=True)
        play(store, tid, settings, db)
        _print_results(store, tid, commands)
        store.close()
    again = " ".join(["arena match play --game", chosen.name,
                      *(f"--bot {shlex.quote(c)}" for c in commands),
                      f"--deals {deals} --seed {deal_seed}"])
    console.print(f"the same deals again: {again}", highlight=False, soft_wrap=True)
    if keep is not None:
        console.print(f"kept: arena match list --db {folder / 'arena.db'}", highlight=False)


def _check_manifest(game: str, commands: list[str], folder: Path) -> None:
    """Refuse, in one line, to play the bot of ``folder`` (its ``arena-bot.toml``, the
    manifest it would be submitted with, names the command of a --bot) in a game its
    manifest does not name, as a tournament or a ladder would refuse its submitted version.
    A folder without a manifest, or one that cannot be read, says nothing: the commands
    play any game."""
    try:
        manifest = tomllib.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return
    command, games = manifest.get("command"), manifest.get("games")
    if not isinstance(games, list) or not isinstance(command, str):
        return
    if game not in games and any(c.split() == command.split() for c in commands):
        names = ", ".join(str(g) for g in games) or "no game"
        raise Failure(f"the bot of this folder ({command}) does not play {game} (its "
                      f"{MANIFEST} names {names})")


def _register(store: Store, commands: list[str]) -> list[str]:
    """Each command as a bot of its own, named by its seat at the first deal."""
    labels = []
    for number, command in enumerate(commands, 1):
        bot = store.add_bot(f"bot{number}", command, folder=str(Path.cwd()))
        labels.append(bot.label)
    return labels


def _print_results(store: Store, tournament_id: int, commands: list[str]) -> None:
    names = {f"bot{n}@1": f"bot{n}" for n in range(1, len(commands) + 1)}
    table = Table(title="Matches", title_justify="left", box=box.SIMPLE_HEAD, header_style="bold")
    table.add_column("deal", justify="right")
    table.add_column("seats: bot #rank (score) fault")
    wins = dict.fromkeys(names.values(), 0.0)
    matches = store.tournament_matches(tournament_id)
    for match in matches:
        line = Text()
        first = [s for s in match.seats if s.rank == 1]
        for seat in match.seats:
            name = names.get(seat.bot, seat.bot)
            score = "" if seat.score is None else f" ({seat.score:g})"
            line.append(f"{seat.seat}:{name} #{seat.rank}{score}"
                        + (f" {seat.fault}" if seat.fault else "") + "  ")
            if seat.rank == 1:
                wins[name] += 1 / len(first)
        table.add_row(str(match.index // len(commands) + 1), line)
    console.print(table)
    for number, command in enumerate(commands, 1):
        console.print(f"bot{number} won {wins[f'bot{number}']:g} of {len(matches)} matches: "
                      f"{command}",
                      highlight=False)
