"""``arena match play``: ad-hoc matches between bot commands, like a quick cutechess game.

Nothing is registered and no database is left behind (unless ``--keep DIR``): the
bots are played by the same executor, referee, sandbox and clocks as a tournament's,
on a database in a temporary folder, and the results printed. The deals come from
``--seed`` (printed), so the same command line plays the same deals again.
"""

from __future__ import annotations

import secrets
import shlex
import tempfile
import tomllib
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from arena.cli.app import Failure, console, match_app, open_store
from arena.cli.tournaments import (
    GameOptionsOption,
    KeepGoingOption,
    MoveTimeoutOption,
    NoSandboxOption,
    StartTimeoutOption,
    TimeBankOption,
    parse_options,
    play,
)
from arena.games import get_game
from arena.players.submissions import MANIFEST
from arena.storage.store import Store
from arena.tournament import RunSettings, create_tournament
from arena.tournament.settings import DEFAULTS
from arena.tournament.setup import DUPLICATE


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
