"""``arena ladder start|show``: a game's endless tournament (:mod:`arena.tournament.ladder`);
``show`` works on a server too (``--arena``), through :func:`arena.cli.remote.operations`."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Annotated

import typer
from rich.table import Table

from arena.cli.common import DEFAULT_DB, DbOption, Failure, console, data_dir_for, open_store
from arena.cli.options import (
    ExecutorOption,
    GameOptionsOption,
    MoveTimeoutOption,
    NoSandboxOption,
    PlayersOption,
    RayAddressOption,
    StartTimeoutOption,
    parse_options,
)
from arena.cli.output import JsonOption, document, emit_json
from arena.cli.remote import ArenaOption, CaOption, LocalOnlyArenaOption, TokenOption, local_only, operations
from arena.games import get_game
from arena.storage.store import Store
from arena.tournament.ladder import (
    LadderRules,
    LadderSummary,
    create_ladder,
    find_ladder,
    run_ladder,
)
from arena.tournament.run import check_executor
from arena.tournament.settings import DEFAULTS, RunSettings

ladder_app = typer.Typer(help="A game's ladder: matches among the newest version of every bot "
                         "entered, for as long as it runs.", no_args_is_help=True)


@ladder_app.command("start")
def ladder_start(
    game: Annotated[str, typer.Argument(help="The game (see `arena games`).")],
    bots: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", help="Enter a bot registered with a command (its newest version); "
        "submitted bots whose manifest names the game are entered by themselves.")] = None,
    players: PlayersOption = None,
    parallel: Annotated[int, typer.Option(min=1, help="Matches played at once.")] = \
        DEFAULTS.parallel,
    option: GameOptionsOption = None,
    move_timeout: MoveTimeoutOption = DEFAULTS.move_timeout_s,
    start_timeout: StartTimeoutOption = DEFAULTS.start_timeout_s,
    matches: Annotated[int | None, typer.Option(
        min=1, help="Stop after this many matches (default: run until Ctrl-C or SIGTERM).")]
    = None,
    new_sigma: Annotated[float, typer.Option(
        min=0.0, help="A version whose sigma is this or more (it has played little) gets its "
        "matches first.")] = LadderRules.new_sigma,
    same_author: Annotated[bool, typer.Option(
        "--same-author", help="Let two bots of one author share a match (by default they never "
        "do, so that no author can feed one bot with another; the operator's bots belong to "
        "no author).")] = LadderRules.same_author,
    no_sandbox: NoSandboxOption = False,
    executor: ExecutorOption = "local",
    ray_address: RayAddressOption = None,
    db: DbOption = DEFAULT_DB,
    arena: LocalOnlyArenaOption = None,
) -> None:
    """Play the game's ladder until stopped; start it (or go on with it where it stopped)."""
    local_only(arena, "ladder start")
    settings = RunSettings(parallel, move_timeout, start_timeout,
                           sandbox=not no_sandbox, executor=executor, ray_address=ray_address)
    store = open_store(db)
    name = get_game(game).name
    check_executor(store, settings)  # before anything is written
    found = find_ladder(store, name)
    if found is None or bots or option or players is not None or same_author:
        found = create_ladder(store, name, players, parse_options(option or []), settings,
                              named=bots or [], rules=LadderRules(new_sigma=new_sigma,
                                                                 same_author=same_author))
        console.print(f"ladder {found} of {name}: started (Ctrl-C stops it)", highlight=False)
    else:
        console.print(f"ladder {found} of {name}: going on where it stopped (Ctrl-C stops it)",
                      highlight=False)
    summary = _run(store, found, settings, db, matches)
    console.print(f"ladder {found}: {summary.played} matches in {summary.wall_s:.1f} s "
                  f"({60 * summary.played / max(summary.wall_s, 1e-9):.0f} per minute), "
                  f"{summary.faults} faults", highlight=False)
    for label, why in summary.suspended.items():
        console.print(f"  {label} suspended: {why}", highlight=False)


def _run(store: Store, ladder_id: int, settings: RunSettings, db: str,
         matches: int | None) -> LadderSummary:
    async def main() -> LadderSummary:
        stop = asyncio.Event()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        counter = asyncio.ensure_future(_stop_after(store, ladder_id, matches, stop))
        try:
            return await run_ladder(store, ladder_id, data_dir_for(db), settings, stop,
                                    notice=lambda text: console.print(text, highlight=False))
        finally:
            counter.cancel()

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        raise Failure(f"ladder {ladder_id} stopped; `arena ladder start "
                      f"{store.get_tournament(ladder_id).game}` goes on with it") from None


async def _stop_after(store: Store, ladder_id: int, matches: int | None,
                      stop: asyncio.Event) -> None:
    """Set ``stop`` once ``matches`` more have been started (never, with None)."""
    if matches is None:
        return
    begun = store.get_tournament(ladder_id).total
    while store.get_tournament(ladder_id).total - begun < matches:
        await asyncio.sleep(0.05)
    stop.set()


@ladder_app.command("show")
def ladder_show(
    game: Annotated[str, typer.Argument(help="The game.")],
    json_output: JsonOption = False,
    db: DbOption = DEFAULT_DB,
    arena: ArenaOption = None,
    token: TokenOption = None,
    tls_ca: CaOption = None,
) -> None:
    """The versions on the game's ladder, their ratings, and why a suspended one plays no
    more (with --arena: the server's)."""
    with operations(db, arena, token, tls_ca) as where:
        ladder = where.ladder(get_game(game).name)
    if json_output:
        emit_json(document("ladder", {
            "id": ladder.id, "game": ladder.game, "status": ladder.status,
            "matches": ladder.matches,
            "versions": [{"bot": r.bot, "rating": r.conservative if r.matches else None,
                          "mu": r.mu, "sigma": r.sigma, "matches": r.matches,
                          "status": "suspended" if r.suspended else "active",
                          "why": r.suspended} for r in ladder.versions]}))
        return
    table = Table(title=f"Ladder {ladder.id} — {ladder.game} ({ladder.status}, "
                  f"{ladder.matches} matches)", title_justify="left")
    for column in ("bot", "rating", "mu", "sigma", "matches", "status"):
        table.add_column(column, overflow="fold")
    for rung in sorted(ladder.versions, key=lambda r: -r.conservative):
        table.add_row(rung.bot, f"{rung.conservative:.2f}", f"{rung.mu:.2f}",
                      f"{rung.sigma:.2f}", str(rung.matches),
                      f"suspended: {rung.suspended}" if rung.suspended else "active")
    console.print(table)
