"""``arena tournament show`` (settings, progress, standings, crosstable, faults) and
``arena compare A B`` (which of two bots is better, from the matches they shared)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from arena.app import boards
from arena.cli.app import (
    DEFAULT_DB,
    DbOption,
    TournamentArgument,
    app,
    console,
    open_store,
    tournament_app,
)
from arena.cli.output import JsonOption, document, emit_json, inert
from arena.cli.remote import ArenaOption, CaOption, LocalOnlyArenaOption, TokenOption, local_only, operations
from arena.tournament.formats import GAUNTLET, VERSUS


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
    faulted = [(row["bot"], row["faults_by_kind"]) for row in report["standings"] if row["faults"]]
    if faulted:
        console.print("faults (matches, by kind):", style="bold")
        for bot, kinds in faulted:
            console.print(f"  {bot}: " + ", ".join(f"{k} {n}" for k, n in kinds.items()),
                          highlight=False)
    else:
        console.print("faults: none", highlight=False)


@app.command("compare")
def compare_command(
    first: Annotated[str, typer.Argument(metavar="A", help="A bot, NAME or NAME@VERSION.")],
    second: Annotated[str, typer.Argument(metavar="B", help="Another bot.")],
    game: Annotated[str, typer.Option("--game", "-g", help="The game they played.")],
    json_output: JsonOption = False,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Is A better than B? From every finished match of the game in which both took a seat:
    the share in which A placed above B (ties half) with its 95% Wilson interval, the
    likelihood that A is the stronger (from the matches one placed above the other), and
    the difference in their conservative ratings (mu - 3 sigma)."""
    local_only(arena, "compare")
    comparison = boards.compare(open_store(db, reading=True), game, first, second)
    name, a, b, result = comparison.game, comparison.a, comparison.b, comparison.result
    if json_output:
        emit_json(document("comparison", {
            "game": name, "a": a.label, "b": b.label, **result.as_dict(),
            "rating_a": comparison.rating_a, "rating_b": comparison.rating_b,
            "rating_difference": comparison.rating_difference}))
        return
    if result.n == 0:
        console.print(f"{a.label} and {b.label} have no finished {name} match in common",
                      highlight=False)
        return
    console.print(f"{a.label} against {b.label} in {name}: {result.n} shared matches", highlight=False)
    console.print(f"  {a.label} placed above in {result.wins}, below in {result.losses}, "
                  f"level in {result.ties}", highlight=False)
    console.print(f"  share above (ties half): {result.share:.1%}, 95% interval "
                  f"{result.low:.1%} to {result.high:.1%}", highlight=False)
    console.print(f"  likelihood that {a.label} is the stronger: {result.los:.1%}", highlight=False)
    if comparison.rating_a is not None and comparison.rating_b is not None:
        console.print(f"  conservative rating (mu - 3 sigma): {comparison.rating_a:.2f} "
                      f"against {comparison.rating_b:.2f} ({comparison.rating_difference:+.2f})",
                      highlight=False)
