"""``arena tournament run|create|resume|list|export|cancel|void``: the arguments, a progress
bar, and the tables (``show`` is :mod:`arena.cli.standings`').

Creating a round-robin and the resume rules are :mod:`arena.tournament.setup`'s;
playing it is :mod:`arena.tournament.run`'s. Every command but ``run`` works on a server too
(``--arena``), through the one interface :func:`arena.cli.remote.operations` picks; ``resume``
with ``--arena`` queues the tournament for the server's scheduler, which plays it there.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from arena.app import tournaments
from arena.app.documents import EXPORT_FORMATS
from arena.app.tournaments import TournamentRequest
from arena.cli.app import (
    DEFAULT_DB,
    DbOption,
    Failure,
    TournamentArgument,
    console,
    data_dir_for,
    open_store,
    tournament_app,
)
from arena.cli.output import JsonOption, document, emit_json
from arena.cli.remote import (
    ArenaOption,
    CaOption,
    LocalOnlyArenaOption,
    TokenOption,
    local_only,
    operations,
    remote,
)
from arena.games import get_game
from arena.players.limits import DEFAULT_LIMIT_TEXTS, LimitTexts, parse_count, parse_cpus, parse_memory
from arena.rating.stats import SprtState
from arena.storage.store import MatchStatus, Store, TournamentInfo
from arena.tournament import (
    BotsDidNotStart,
    RemoteAccess,
    RemoteBotsAbsent,
    Repeated,
    RunSettings,
    RunSummary,
    remote_access,
    resume_settings,
    run_until_done,
)
from arena.tournament.formats import (
    ROUND_ROBIN,
    VERSUS,
    Format,
    sprt_summary,
    verdict,
)
from arena.tournament.run import check_executor
from arena.tournament.settings import DEFAULTS
from arena.tournament.setup import VERSUS_SETS, VERSUS_SPRT_SETS
from leaderboard.terminal import print_leaderboard


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
    "printed). Managed bots always use Unix sockets of their own.")]
TlsCertOption = Annotated[str | None, typer.Option(
    "--tls-cert", metavar="FILE", help="TLS certificate chain (PEM) for --listen.")]
TlsKeyOption = Annotated[str | None, typer.Option(
    "--tls-key", metavar="FILE", help="TLS private key (PEM, no passphrase) for --tls-cert.")]
NoSandboxOption = Annotated[bool, typer.Option(
    "--no-sandbox", help="Run managed bots without the sandbox, as this user, able to read and "
    "signal what it can. Only for bots you trust, on a machine without bubblewrap.")]
KeepGoingOption = Annotated[bool, typer.Option(
    "--keep-going", help="Play on when a managed bot does not start (its seats are no-shows, "
    "rated) instead of stopping with its last words.")]
ExecutorOption = Annotated[str, typer.Option(
    "--executor", metavar="local|ray", help="Where matches are played: local (this machine) or "
    "ray (the nodes of a Ray cluster, each match on one node, its bots started there in its "
    "sandbox; needs pip install 'card-arena\\[ray]', and PostgreSQL for more than one node).")]
RayAddressOption = Annotated[str | None, typer.Option(
    "--ray-address", metavar="HOST:PORT", help="The Ray cluster's head (or 'auto'); by default "
    "RAY_ADDRESS, else Ray started on this machine alone.")]
WaitOption = Annotated[float, typer.Option(
    "--wait-for-remote", min=0.0, metavar="SECONDS", help="How long every remote bot has to "
    "connect before the first match (0: start at once; absent bots are no-shows).")]


GameOption = Annotated[str, typer.Option("--game", "-g", help="The game (see `arena games`).")]
BotsOption = Annotated[list[str], typer.Option(
    "--bot", "-b", help="A bot NAME or NAME@VERSION; repeat for each bot.")]
PlayersOption = Annotated[int | None, typer.Option(help="Seats per match (default: the game's).")]
RepetitionsOption = Annotated[int, typer.Option(
    "--repetitions", "-n", min=1, help="How often the whole schedule is played.")]
SeedOption = Annotated[int | None, typer.Option(
    help="Tournament seed (default: random); it fixes the deals only with --deals-from-seed: "
    "otherwise every deal comes from a secret key of the tournament's.")]
DealsOption = Annotated[str | None, typer.Option(
    "--deals", metavar="KIND",
    help="duplicate or independent. duplicate: every seat rotation of a group plays the same "
    "deal, each rotation by another process of each managed bot (default when every bot is "
    "managed); independent: a deal per match (default with remote bots, which could "
    "remember a deal between rotations).")]
DealsFromSeedOption = Annotated[bool, typer.Option(
    "--deals-from-seed", help="Derive the deals from --seed, so that anyone can reproduce them "
    "(research runs). Unsafe against bots: one that searches seeds from the cards it sees can "
    "learn every deal.")]
GameOptionsOption = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="A game option NAME=VALUE.")]
FormatOption = Annotated[str, typer.Option(
    "--format", metavar="FORMAT",
    help="round-robin, gauntlet or versus. round-robin: every group of the --bot bots; "
    "gauntlet: each --bot (a challenger) against the --field, which never plays itself; "
    "versus: --bot A against --bot B over duplicate sets (a deal in every seat rotation), "
    "the --field in the other seats.")]
FieldOption = Annotated[list[str] | None, typer.Option(
    "--field", "-f", help="A bot of the field (gauntlet, versus); repeat for each.")]
SetsOption = Annotated[int | None, typer.Option(
    min=1, help=f"versus: how many duplicate sets (default {VERSUS_SETS}; with --sprt, at most "
    f"{VERSUS_SPRT_SETS}).")]
SprtOption = Annotated[str | None, typer.Option(
    metavar="SPEC",
    help="versus, with SPEC such as elo0=0,elo1=10 (alpha= and beta= too, if need be): stop "
    "as soon as a sequential probability ratio test on the sets' paired "
    "outcomes decides between H0 (A not better than E0 Elo) and H1 (A better by E1); alpha "
    "and beta (default 0.05) are its false positive and false negative rates.")]
MoveTimeoutOption = Annotated[float, typer.Option(min=0.001, help="Seconds per decision.")]
StartTimeoutOption = Annotated[float, typer.Option(min=0.001,
                                                   help="Seconds for bots to connect.")]
TimeBankOption = Annotated[float, typer.Option(
    min=0.0, help="Extra seconds per seat and match for moves slower than --move-timeout.")]
EventDelayOption = Annotated[float, typer.Option(
    min=0.0, help="Longest an event waits to ride with a seat's next decision request before "
    "it is sent on its own; 0 sends every event at once.")]
BotMemoryOption = Annotated[str, typer.Option(
    help="Memory per bot, all its processes together, every lane included (a memory cgroup; "
    "else address space per process): MB, or a size like 512MB or 2GiB; 'unlimited'.")]
BotCpuSecondsOption = Annotated[str, typer.Option(
    help="CPU seconds per bot process start, over all its matches; 'unlimited'.")]
BotProcessesOption = Annotated[str, typer.Option(
    help="Processes and threads per bot, all together, every lane included (a pids cgroup); "
    "'unlimited'.")]
BotCpusOption = Annotated[str, typer.Option(
    help="Cores a bot may keep busy at once, every lane included (a cpu cgroup), e.g. 1 or "
    "0.5; 'unlimited'.")]
BotOpenFilesOption = Annotated[str, typer.Option(help="Open files per bot process; 'unlimited'.")]


@tournament_app.command("run")
def tournament_run(
    game: GameOption,
    bots: BotsOption,
    players: PlayersOption = None,
    repetitions: RepetitionsOption = 1,
    parallel: Annotated[int, typer.Option(min=1, help="Matches played at once.")] = \
        DEFAULTS.parallel,
    seed: SeedOption = None,
    deals: DealsOption = None,
    deals_from_seed: DealsFromSeedOption = False,
    option: GameOptionsOption = None,
    tournament_format: FormatOption = ROUND_ROBIN,
    field: FieldOption = None,
    sets: SetsOption = None,
    sprt: SprtOption = None,
    move_timeout: MoveTimeoutOption = DEFAULTS.move_timeout_s,
    start_timeout: StartTimeoutOption = DEFAULTS.start_timeout_s,
    time_bank: TimeBankOption = DEFAULTS.time_bank_s,
    event_delay: EventDelayOption = DEFAULTS.event_delay_s,
    bot_memory: BotMemoryOption = DEFAULT_LIMIT_TEXTS.memory,
    bot_cpu_seconds: BotCpuSecondsOption = DEFAULT_LIMIT_TEXTS.cpu_seconds,
    bot_processes: BotProcessesOption = DEFAULT_LIMIT_TEXTS.processes,
    bot_cpus: BotCpusOption = DEFAULT_LIMIT_TEXTS.cpus,
    bot_open_files: BotOpenFilesOption = DEFAULT_LIMIT_TEXTS.open_files,
    no_sandbox: NoSandboxOption = False,
    keep_going: KeepGoingOption = False,
    executor: ExecutorOption = "local",
    ray_address: RayAddressOption = None,
    listen: ListenOption = None,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    wait_for_remote: WaitOption = DEFAULTS.wait_for_remote_s,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Schedule a tournament (a round-robin unless --format says otherwise) and play it."""
    local_only(arena, "tournament run")
    request = _request(locals())
    listen, cert, key = remote_access(listen, tls_cert, tls_key)
    settings = replace(request.settings(), listen=listen, tls_cert=cert, tls_key=key,
                       wait_for_remote_s=wait_for_remote, sandbox=not no_sandbox,
                       keep_going=keep_going, executor=executor, ray_address=ray_address)
    store = open_store(db)
    check_executor(store, settings)  # before anything is written
    info = tournaments.create(store, request, settings, notice=warn)
    console.print(f"tournament {info.id}: {size(info)}", highlight=False)
    play(store, info.id, settings, db)
    print_leaderboard(console, store.leaderboard(get_game(game).name))


def _request(given: dict[str, Any]) -> TournamentRequest:
    """The tournament asked for by ``run``'s or ``create``'s options (their ``locals()`` before
    anything else is bound: the two commands take the same options under the same names)."""
    v = given
    return TournamentRequest(
        game=v["game"], bots=v["bots"], players=v["players"], repetitions=v["repetitions"],
        format=v["tournament_format"], field=v["field"] or [], sets=v["sets"], sprt=v["sprt"],
        options=parse_options(v["option"] or []), seed=v["seed"], deals=v["deals"],
        deals_from_seed=v["deals_from_seed"], parallel=v["parallel"],
        move_timeout_s=v["move_timeout"], start_timeout_s=v["start_timeout"],
        time_bank_s=v["time_bank"], event_delay_s=v["event_delay"],
        limits=LimitTexts(v["bot_memory"], v["bot_cpu_seconds"], v["bot_processes"],
                          v["bot_cpus"], v["bot_open_files"]))


def warn(text: str) -> None:
    console.print(f"warning: {text}", style="yellow")


@tournament_app.command("create")
def tournament_create(
    game: GameOption,
    bots: BotsOption,
    players: PlayersOption = None,
    repetitions: RepetitionsOption = 1,
    parallel: Annotated[int, typer.Option(
        min=1, max=256, help="Its matches played at once (the server's --parallel caps all "
        "tournaments together).")] = DEFAULTS.parallel,
    seed: SeedOption = None,
    deals: DealsOption = None,
    deals_from_seed: DealsFromSeedOption = False,
    option: GameOptionsOption = None,
    tournament_format: FormatOption = ROUND_ROBIN,
    field: FieldOption = None,
    sets: SetsOption = None,
    sprt: SprtOption = None,
    move_timeout: MoveTimeoutOption = DEFAULTS.move_timeout_s,
    start_timeout: StartTimeoutOption = DEFAULTS.start_timeout_s,
    time_bank: TimeBankOption = DEFAULTS.time_bank_s,
    event_delay: EventDelayOption = DEFAULTS.event_delay_s,
    bot_memory: BotMemoryOption = DEFAULT_LIMIT_TEXTS.memory,
    bot_cpu_seconds: BotCpuSecondsOption = DEFAULT_LIMIT_TEXTS.cpu_seconds,
    bot_processes: BotProcessesOption = DEFAULT_LIMIT_TEXTS.processes,
    bot_cpus: BotCpusOption = DEFAULT_LIMIT_TEXTS.cpus,
    bot_open_files: BotOpenFilesOption = DEFAULT_LIMIT_TEXTS.open_files,
    json_output: JsonOption = False,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """Queue a tournament for the server's scheduler (`arena serve`), which plays it, in
    the sandbox, and resumes it after a crash: on the server given by --arena (the operator's
    token), or in the local database, for an `arena serve` on it. `run` plays one here, now.

    The options are `run`'s; a queued tournament has managed and submitted bots only."""
    request = _request(locals())
    with operations(db, arena, token, tls_ca) as where:
        row = where.create_tournament(request, warn)
    if json_output:
        emit_json(document("tournament", row))
        return
    console.print(f"tournament {row['id']} queued: {row['total']} matches of {row['game']} "
                  f"among {', '.join(row['bots'])}", highlight=False)


def given_limits(memory: str | None, cpu_seconds: str | None, processes: str | None,
                 cpus: str | None, open_files: str | None) -> dict[str, int | float | None]:
    """The bot limits a resume repeats, parsed, by flag (those not given left out)."""
    parsers = {"--bot-memory": (memory, parse_memory),
               "--bot-cpu-seconds": (cpu_seconds, lambda t: parse_count("--bot-cpu-seconds", t)),
               "--bot-processes": (processes, lambda t: parse_count("--bot-processes", t)),
               "--bot-cpus": (cpus, parse_cpus),
               "--bot-open-files": (open_files, lambda t: parse_count("--bot-open-files", t))}
    return {flag: parse(text) for flag, (text, parse) in parsers.items() if text is not None}


_said: set[str] = set()


def size(tournament: TournamentInfo, left: int | None = None) -> str:
    """How big a tournament is, in words: its matches (``left`` of them to play, when given);
    a versus with an SPRT, its cap of sets, which the test stops far below."""
    sprt = sprt_summary(tournament.settings, tournament.finished, tournament.players)
    if sprt is not None:
        return (f"a versus of up to {Format.from_settings(tournament.settings).sets} duplicate "
                f"sets, until its SPRT decides ({sprt['sets']} sets played)")
    if left is None:
        return f"{tournament.total} matches"
    return f"{left} of {tournament.total} matches left"


def sets_line(state: SprtState) -> str:
    """A versus's SPRT as its progress line shows it: sets played, the LLR between its
    bounds, and the decision once there is one."""
    sets = "set" if state.n == 1 else "sets"
    said = {"H1": ": H1 accepted", "H0": ": H0 accepted"}.get(state.decision or "", "")
    return (f"{state.n} {sets} played, LLR {state.llr:.2f} in [{state.lower:.2f}, "
            f"{state.upper:.2f}]{said}")


def play(store: Store, tournament_id: int, settings: RunSettings, db: str) -> RunSummary:
    """Run the tournament to its end under a progress bar (or stop when asked to).

    A versus with an SPRT has no bar, total or time left: its schedule's size is a cap the
    test stops far below, so its line says the sets played and the LLR against its bounds."""
    chosen = Format.from_settings(store.get_tournament(tournament_id).settings)
    sequential = chosen.kind == VERSUS and chosen.sprt is not None
    title = TextColumn("[bold]tournament {task.fields[tid]}")
    columns = (title, TextColumn("{task.fields[sets]}"), TimeElapsedColumn()) if sequential \
        else (title, BarColumn(), MofNCompleteColumn(), TextColumn("matches"),
              TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console) as bar:
        task = bar.add_task("play", total=None, tid=tournament_id,
                            sets="waiting for the first complete set")

        def progress(done: int, total: int) -> None:
            if not sequential:
                bar.update(task, completed=done, total=total)

        def sets(state: SprtState) -> None:
            bar.update(task, sets=escape(sets_line(state)))

        def notice(text: str) -> None:
            if text not in _said:  # the same sandbox and limits, tournament after tournament
                _said.add(text)
                bar.console.print(text, highlight=False)

        resume = f"`arena tournament resume {tournament_id}`"
        try:
            summary = run_until_done(store, tournament_id, data_dir_for(db), settings, progress,
                                     notice, sets=sets)
        except (KeyboardInterrupt, asyncio.CancelledError):
            raise Failure(f"interrupted: {resume} finishes it") from None
        except (RemoteBotsAbsent, BotsDidNotStart) as err:
            raise Failure(f"{err}; nothing was played: {resume} when they are ready") from None
        except OSError as err:  # the --listen address cannot be bound
            raise Failure(f"{err}: {resume} (with another --listen if need be) plays it") from None
    if summary.decided:
        console.print(f"tournament {tournament_id} finished, decided early by its {summary.decided}; "
                      "the sets it did not need are void", highlight=False)
    if summary.left:
        console.print(f"stopped on request with {summary.left} matches left: "
                      f"`arena tournament resume {tournament_id}` finishes them")
        raise typer.Exit(0)
    return summary


@tournament_app.command("resume")
def tournament_resume(
    tournament_id: TournamentArgument,
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
    event_delay: Annotated[float | None, typer.Option(hidden=True)] = None,
    bot_memory: Annotated[str | None, typer.Option(hidden=True)] = None,
    bot_cpu_seconds: Annotated[str | None, typer.Option(hidden=True)] = None,
    bot_processes: Annotated[str | None, typer.Option(hidden=True)] = None,
    bot_cpus: Annotated[str | None, typer.Option(hidden=True)] = None,
    bot_open_files: Annotated[str | None, typer.Option(hidden=True)] = None,
    listen: ListenOption = None,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    wait_for_remote: Annotated[float | None, typer.Option(
        "--wait-for-remote", min=0.0, metavar="SECONDS",
        help="How long remote bots have to connect (default: as saved).")] = None,
    no_sandbox: NoSandboxOption = False,
    keep_going: KeepGoingOption = False,
    executor: ExecutorOption = "local",
    ray_address: RayAddressOption = None,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """Finish an interrupted tournament: no match is lost or counted twice.

    A tournament keeps the game, bots, seed, options, clocks and bot limits it
    was created with; the others are accepted (so the `run` line can be reused)
    when they repeat the saved values. --parallel may change, and so may where
    remote bots connect (--listen, TLS files, --wait-for-remote).

    With --arena (the operator's token): the server's scheduler plays what is left of it,
    there, with its saved settings (it takes no other option then).
    """
    if arena is not None:
        given = [name for name, value in locals().items() if name not in (
            "tournament_id", "db", "arena", "token", "tls_ca", "no_sandbox", "keep_going",
            "executor") and value is not None]
        if given or no_sandbox or keep_going or executor != "local":
            raise Failure("`arena tournament resume --arena` takes the tournament's id only: the "
                          "server plays it with its saved settings")
        _resume_on_server(tournament_id, arena, token, tls_ca)
        return
    store = open_store(db, reading=True)
    tournament = tournaments.resumable(store, tournament_id)
    repeated = Repeated(game=game, bots=bots, players=players, repetitions=repetitions, seed=seed,
                        options=None if option is None else parse_options(option),
                        move_timeout_s=move_timeout, start_timeout_s=start_timeout,
                        time_bank_s=time_bank, event_delay_s=event_delay,
                        limits=given_limits(bot_memory, bot_cpu_seconds, bot_processes, bot_cpus,
                                            bot_open_files))
    access = RemoteAccess(listen=listen, tls_cert=tls_cert, tls_key=tls_key,
                          wait_for_remote_s=wait_for_remote)
    settings = replace(resume_settings(store, tournament, parallel, repeated, access),
                       sandbox=not no_sandbox, keep_going=keep_going, executor=executor,
                       ray_address=ray_address)
    check_executor(store, settings)
    counts = store.match_counts([tournament_id]).get(tournament_id, {})
    left = counts.get(MatchStatus.PENDING, 0) + counts.get(MatchStatus.RUNNING, 0)
    console.print(f"tournament {tournament_id}: {size(tournament, left)}", highlight=False)
    play(store, tournament_id, settings, db)
    print_leaderboard(console, store.leaderboard(tournament.game))


def _resume_on_server(tournament_id: int, arena: str, token: str | None,
                      tls_ca: str | None) -> None:
    """``resume --arena``: the server's scheduler is to play what is left of the tournament."""
    with remote(arena, token, tls_ca) as client:
        row = client.resume_tournament(tournament_id)
    left = f"{row['total'] - row['finished']} of {row['total']} matches left"
    said = {"queued": f"tournament {tournament_id} queued on the server: {left}, which its "
                      "scheduler plays",
            "running": f"tournament {tournament_id} is being played on the server: {left}"}
    console.print(said.get(row["status"], f"tournament {tournament_id} is {row['status']}: "
                                          f"{left}"), highlight=False)


@tournament_app.command("list")
def tournament_list(json_output: JsonOption = False, db: DbOption = DEFAULT_DB,
                    arena: ArenaOption = None, token: TokenOption = None,
                    tls_ca: CaOption = None) -> None:
    """List tournaments and how far each has got (with --arena: the server's)."""
    with operations(db, arena, token, tls_ca) as where:
        rows = where.tournaments()
    if json_output:
        emit_json(document("tournaments", rows))
        return
    table = Table(title="Tournaments")
    table.add_column("id", justify="right", no_wrap=True)
    table.add_column("game", no_wrap=True)
    table.add_column("format", no_wrap=True)
    table.add_column("players", justify="right", no_wrap=True)
    table.add_column("bots", overflow="fold")
    table.add_column("played", justify="right", no_wrap=True)
    table.add_column("status", no_wrap=True)
    for row in rows:
        done = played_cell(row)
        status = row["status"] + (f": {row['note']}" if row.get("note") else "")
        table.add_row(str(row["id"]), row["game"], row["format"], str(row["players"]),
                      ", ".join(row["bots"]), done, status)
    console.print(table)


def played_cell(row: dict[str, Any]) -> str:
    """How far a listed tournament has got: its finished matches of its total (and the void
    ones); a versus with an SPRT, its sets played and its decision, not the cap it stopped
    below (nor the voids of the sets it did not need)."""
    sprt = row.get("sprt")
    if sprt is not None:
        sets = "set" if sprt["sets"] == 1 else "sets"
        return f"{sprt['sets']} {sets}, {verdict(sprt['decision'], row['bots'][0])}"
    return f"{row['finished']}/{row['total']}" + (f" ({row['void']} void)" if row["void"] else "")


@tournament_app.command("export")
def tournament_export(
    tournament_id: TournamentArgument,
    export_format: Annotated[str, typer.Option(
        "--format", metavar="json|csv", help="json: one document, the tournament and its "
        "matches; csv: a row per seat of every match (columns: docs/json.md).")] = "json",
    output: Annotated[str | None, typer.Option(
        "--output", metavar="FILE", help="Write to FILE instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """Every match of a tournament with its seats, ranks, scores, faults and timing (with
    --arena, the operator's token: the server's, sent in chunks).

    No seeds (deals are secret) and no logs (`arena match show ID --json` has a log).
    """
    if export_format not in EXPORT_FORMATS:
        raise Failure(f"--format must be json or csv, not {export_format!r}")
    target = None if output is None else Path(output)
    if target is not None and not force and (target.exists() or target.is_symlink()):
        raise Failure(f"--output {output!r} exists: give --force to overwrite it")
    with operations(db, arena, token, tls_ca) as where:
        export = where.export_tournament(tournament_id, export_format)
    text = export.text
    if target is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        with target.open("w" if force else "x", encoding="utf-8", newline="") as file:
            file.write(text)
    except FileExistsError:
        raise Failure(f"--output {output!r} exists: give --force to overwrite it") from None
    except OSError as err:
        raise Failure(f"cannot write --output {output!r}: {err.strerror or err}") from None
    console.print(f"wrote {export.matches} matches of tournament {tournament_id} to {target}",
                  highlight=False)


@tournament_app.command("cancel")
def tournament_cancel(
    tournament_id: TournamentArgument,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """Void a tournament's unfinished matches; its finished ones keep counting. With --arena
    (the operator's token), the server stops it at once if it is playing it."""
    with operations(db, arena, token, tls_ca) as where:
        voided = where.cancel_tournament(tournament_id)
    console.print(f"tournament {tournament_id} cancelled: {voided} unfinished matches void; its "
                  "finished matches still count")


@tournament_app.command("void")
def tournament_void(
    tournament_id: TournamentArgument,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """Take a tournament out of the ratings: every match of it void (its results stay on
    record), every rating rebuilt without them. With --arena, the operator's token."""
    with operations(db, arena, token, tls_ca) as where:
        counted = where.void_tournament(tournament_id)
    console.print(f"tournament {tournament_id} void: its {counted} finished matches no longer "
                  "count; ratings rebuilt")
