"""Playing a tournament here, now, under a progress bar (``tournament run|resume``, ``match
play``, ``demo``), and saying how big one is."""

from __future__ import annotations

import asyncio
import gc

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

from arena.cli.common import Failure, console, data_dir_for
from arena.rating.stats import SprtState
from arena.storage.store import Store, TournamentInfo
from arena.tournament import (
    BotsDidNotStart,
    RemoteBotsAbsent,
    RunSettings,
    RunSummary,
    run_until_done,
)
from arena.tournament.formats import VERSUS, Format, sprt_summary

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
        # what is loaded by now lives as long as the run: a full garbage collection no longer
        # walks it (some 150,000 objects: 80 ms on the thread that runs the match clocks)
        gc.freeze()
        try:
            summary = run_until_done(store, tournament_id, data_dir_for(db), settings, progress,
                                     notice, sets=sets)
        except (KeyboardInterrupt, asyncio.CancelledError):
            raise Failure(f"interrupted: {resume} finishes it") from None
        except (RemoteBotsAbsent, BotsDidNotStart) as err:
            raise Failure(f"{err}; nothing was played: {resume} when they are ready") from None
        except OSError as err:  # the --listen address cannot be bound
            raise Failure(f"{err}: {resume} (with another --listen if need be) plays it") from None
        finally:  # what the run held may be collected again: the store's connections are
            gc.unfreeze()  # closed at exit as before (SQLite then folds its -wal file back)
    if summary.decided:
        console.print(f"tournament {tournament_id} finished, decided early by its {summary.decided}; "
                      "the sets it did not need are void", highlight=False)
    if summary.left:
        console.print(f"stopped on request with {summary.left} matches left: "
                      f"`arena tournament resume {tournament_id}` finishes them")
        raise typer.Exit(0)
    return summary
