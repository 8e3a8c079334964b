"""``arena tournament run|create|resume|list|export|cancel|void``: the arguments, a progress
bar, and the tables; ``show``: a tournament's settings, progress, standings, crosstable and
faults.

Creating a round-robin and the resume rules are :mod:`arena.tournament.setup`'s;
playing it is :mod:`arena.tournament.run`'s. Every command but ``run`` works on a server too
(``--arena``), through the one interface :func:`arena.cli.remote.operations` picks; ``resume``
with ``--arena`` queues the tournament for the server's scheduler, which plays it there.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from arena.app import tournaments
from arena.app.documents import EXPORT_FORMATS
from arena.app.tournaments import TournamentRequest
from arena.cli.common import (
    DEFAULT_DB,
    DbOption,
    Failure,
    TournamentArgument,
    console,
    open_store,
)
from arena.cli.options import (
    BotCpuSecondsOption,
    BotCpusOption,
    BotMemoryOption,
    BotOpenFilesOption,
    BotProcessesOption,
    BotsOption,
    DealsFromSeedOption,
    DealsOption,
    EventDelayOption,
    ExecutorOption,
    FieldOption,
    FormatOption,
    GameOption,
    GameOptionsOption,
    KeepGoingOption,
    ListenOption,
    MoveTimeoutOption,
    NoSandboxOption,
    PlayersOption,
    PublicNotesOption,
    RayAddressOption,
    RepetitionsOption,
    SeedOption,
    SetsOption,
    SprtOption,
    StartTimeoutOption,
    TimeBankOption,
    TlsCertOption,
    TlsKeyOption,
    WaitOption,
    parse_options,
)
from arena.cli.output import JsonOption, document, emit_json, inert
from arena.cli.playing import play, size
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
from arena.storage.store import MatchStatus
from arena.tournament import RemoteAccess, Repeated, remote_access, resume_settings
from arena.tournament.formats import GAUNTLET, ROUND_ROBIN, VERSUS, verdict
from arena.tournament.run import check_executor
from arena.tournament.settings import DEFAULTS
from leaderboard.terminal import print_leaderboard

tournament_app = typer.Typer(help="Run, resume and list tournaments: round-robins, gauntlets and "
                             "matches between two bots.", no_args_is_help=True)


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
    public_notes: PublicNotesOption = DEFAULTS.public_notes,
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
                          v["bot_cpus"], v["bot_open_files"]), public_notes=v["public_notes"])


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
    public_notes: PublicNotesOption = DEFAULTS.public_notes,
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


@tournament_app.command("show")
def tournament_show(
    tournament_id: TournamentArgument,
    json_output: JsonOption = False,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """A tournament's settings, progress, standings, crosstable and faults.

    Standings rate this tournament's matches alone (TrueSkill, in schedule order);
    the crosstable gives, row against column, the share of their shared matches in
    which the row bot placed above (ties count half) and how many they shared."""
    with operations(db, arena, token, tls_ca) as where:
        report = where.tournament_report(tournament_id)
    if json_output:
        emit_json(document("tournament", report))
        return
    _print_tournament(report)


def _print_presence(found: dict[str, Any]) -> None:
    """The pairs whose presence stands out (a table of three seats or more), or one line."""
    pairs, flagged = found["pairs"], [p for p in found["pairs"] if p["flagged"]]
    if not pairs:
        return
    if not flagged:
        console.print(f"presence: no pair stands out ({len(pairs)} pairs over the last "
                      f"{found['matches']} matches; --json gives every pair)", highlight=False)
        return
    table = Table(title=f"Presence: pairs that stand out (over the last {found['matches']} "
                  "matches): the bot's places beyond its rating with the other at the table, "
                  "less without it", title_justify="left", box=box.SIMPLE_HEAD,
                  header_style="bold")
    for column in ("bot", "with", "effect", "z", "matches with", "without"):
        table.add_column(column, justify="left" if column in ("bot", "with") else "right",
                         no_wrap=column in ("bot", "with"))
    for pair in flagged:
        table.add_row(Text(inert(pair["bot"])), Text(inert(pair["other"])),
                      f"{pair['effect']:+.2f}", f"{pair['z']:+.1f}", str(pair["shared"]),
                      str(pair["apart"]))
    console.print(table)


def _print_tournament(report: dict[str, Any]) -> None:
    matches = report["matches"]
    kind = report["format"]
    head = f"tournament {report['id']}: {report['game']}, {report['players']} players, {kind}"
    if kind == GAUNTLET:
        head += f" ({', '.join(report['challengers'])} against {', '.join(report['field'])})"
    elif kind == VERSUS:
        a, b = report["challengers"]
        field = f", field {', '.join(report['field'])}" if report["field"] else ""
        head += f" ({a} against {b} over at most {report['sets']} duplicate sets{field})"
    if report.get("scrimmage"):
        head = "scrimmage" + head.removeprefix("tournament") + "; unrated: its own standings only"
    console.print(head, highlight=False)
    if report["sprt"] is not None:  # its total is a cap the test stops far below
        void = f"; the {matches['void']} matches of the sets it did not need are void" \
            if matches["void"] else ""
        console.print(f"{report['status']}: {report['sprt']['sets']} sets played (at most "
                      f"{report['sets']}), {matches['finished']} matches finished, "
                      f"{matches['pending'] + matches['running']} to play{void}; "
                      f"{report['deals']} deals", highlight=False)
    else:
        console.print(f"{report['status']}: {matches['finished']} of {matches['total']} "
                      f"matches finished, {matches['void']} void, "
                      f"{matches['pending'] + matches['running']} to play; {report['deals']} "
                      "deals", highlight=False)
    if report.get("note"):
        console.print(f"the server stopped playing it: {report['note']}", highlight=False)
    tally = report.get("set_tally")
    if tally is not None and report["sprt"] is None:
        console.print(f"sets: {tally['sets']} complete, {report['challengers'][0]} against "
                      f"{report['challengers'][1]}: W {tally['wins']}, D {tally['draws']}, "
                      f"L {tally['losses']}", highlight=False)
    if report["sprt"] is not None:
        s = report["sprt"]
        verdict = {None: "no decision yet", "H1": f"H1: {report['challengers'][0]} is better",
                   "H0": f"H0: {report['challengers'][0]} is not better"}[s["decision"]]
        console.print(f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} "
                      f"beta={s['beta']:g}: LLR {s['llr']:.2f} in [{s['lower']:.2f}, "
                      f"{s['upper']:.2f}] after {s['sets']} sets (W {s['wins']}, D {s['draws']}, "
                      f"L {s['losses']}): {verdict}", highlight=False)
    table = Table(title="Standings (this tournament's matches alone)", title_justify="left",
                  box=box.SIMPLE_HEAD, header_style="bold")
    for column in ("#", "bot", "rating", "mu", "sigma", "matches", "wins", "mean rank", "faults"):
        table.add_column(column, justify="left" if column == "bot" else "right",
                         no_wrap=column == "bot")
    for row in report["standings"]:
        table.add_row(str(row["rank"]), Text(inert(row["bot"])), f"{row['rating']:.2f}",
                      f"{row['mu']:.2f}", f"{row['sigma']:.2f}", str(row["matches"]),
                      f"{row['win_share']:.0%}", f"{row['mean_rank']:.2f}", str(row["faults"]))
    console.print(table)
    bots = [row["bot"] for row in report["standings"]]
    if len(bots) > 1:
        cells = {(c["bot"], c["opponent"]): c for c in report["crosstable"]}
        cross = Table(title="Crosstable: share of shared matches the row bot placed above the "
                      "column bot (ties half), and how many", title_justify="left",
                      box=box.SIMPLE_HEAD, header_style="bold")
        cross.add_column("bot", no_wrap=True)
        for number in range(1, len(bots) + 1):
            cross.add_column(str(number), justify="right")
        for number, bot in enumerate(bots, 1):
            line: list[str | Text] = [Text(inert(f"{number} {bot}"))]
            for other in bots:
                cell = cells.get((bot, other))
                line.append("" if cell is None else f"{cell['share']:.0%} ({cell['n']})")
            cross.add_row(*line)
        console.print(cross)
    _print_presence(report.get("presence") or {"matches": 0, "pairs": []})
    faulted = [(row["bot"], row["faults_by_kind"]) for row in report["standings"] if row["faults"]]
    if faulted:
        console.print("faults (matches, by kind):", style="bold")
        for bot, kinds in faulted:
            console.print(f"  {bot}: " + ", ".join(f"{k} {n}" for k, n in kinds.items()),
                          highlight=False)
    else:
        console.print("faults: none", highlight=False)
