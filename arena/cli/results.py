"""``arena leaderboard``, ``arena ratings rebuild`` and ``arena match list|show|watch``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

import typer
from rich.text import Text

from arena.app.watch import WatchUpdate
from arena.cli.app import DEFAULT_DB, DbOption, Failure, app, console, match_app, open_store
from arena.cli.output import (
    JsonOption,
    document,
    emit_json,
    inert,
    leaderboard_json,
    log_json,
    match_json,
)
from arena.cli.remote import ArenaOption, CaOption, LocalOnlyArenaOption, TokenOption, local_only, operations
from arena.games import get_game
from arena.match.replay import describe, read_log, view
from arena.storage.store import MatchStatus
from leaderboard.terminal import print_leaderboard, render_matches


@app.command("leaderboard")
def leaderboard_command(
    game: Annotated[str | None, typer.Option("--game", "-g", help="Only this game.")] = None,
    tournament: Annotated[int | None, typer.Option(
        "--tournament", "-t", help="Only this tournament: its matches rated alone (TrueSkill, "
        "in schedule order).")] = None,
    pool: Annotated[str | None, typer.Option(
        "--pool", help="This rating pool, e.g. 'kill[target_score=11]' (see --all-pools).")]
    = None,
    all_pools: Annotated[bool, typer.Option(
        "--all-pools", help="Every rating pool: besides each game's standard rules, its "
        "variants and other targets, each rated on its own.")] = False,
    json_output: JsonOption = False,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """Ratings (TrueSkill), best conservative estimate (mu - 3 sigma) first.

    A rating belongs to a pool: a game with its standard rules, or with options that
    change it (a target score, a variant: `arena games` lists them), rated apart. The
    standard pools are shown unless --pool or --all-pools says otherwise."""
    name = get_game(game).name if game else None
    with operations(db, arena, token, tls_ca) as where:
        rows = where.leaderboard(name, pool, tournament, all_pools)
    if json_output:
        emit_json(document("leaderboard", leaderboard_json(rows)))
        return
    print_leaderboard(console, rows)


@app.command("ratings")
def ratings_command(
    action: Annotated[str, typer.Argument(help="`rebuild`: recompute from stored matches.")],
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """`arena ratings rebuild` recomputes every rating from the stored matches."""
    local_only(arena, "ratings rebuild")
    if action != "rebuild":
        raise Failure(f"unknown ratings action {action!r} (did you mean `rebuild`?)")
    store = open_store(db, reading=True)
    count = store.rebuild_ratings()
    console.print(f"rebuilt ratings from {count} matches")
    print_leaderboard(console, store.leaderboard())


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


@match_app.command("watch")
def match_watch(
    match_id: Annotated[int, typer.Argument(help="The match's id.")],
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """Follow a match's public view: each public event as a line as it is played, then its
    result (a finished match: its public events and its result at once). On this machine's
    database, or a server's with --arena (WatchMatch). Ctrl-C stops watching."""
    with operations(db, arena, token, tls_ca) as where:
        _print_watch(where.watch_match(match_id))


def _print_watch(updates: Iterator[WatchUpdate]) -> None:
    """Print a watch's updates: a header, each public event, and the result at the end."""
    first = True
    for update in updates:
        if first:
            first = False
            if not update.ended:
                doing = "has not started yet: waiting for it" if update.status == "pending" \
                    else "is running: its public events as they are played (Ctrl-C to stop)"
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
