"""``arena leaderboard`` (here or on a server, ``--arena``), ``arena ratings rebuild`` and
``arena compare A B`` (which of two bots is better, from the matches they shared)."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.app import boards
from arena.cli.common import DEFAULT_DB, DbOption, Failure, console, open_store
from arena.cli.output import JsonOption, document, emit_json, leaderboard_json
from arena.cli.remote import ArenaOption, CaOption, LocalOnlyArenaOption, TokenOption, local_only, operations
from arena.games import get_game
from leaderboard.terminal import print_leaderboard


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
