"""The leaderboard and match lists as rich tables, for ``arena leaderboard`` and friends.

The functions take the store's plain values (:class:`arena.storage.store.LeaderboardRow`,
:class:`arena.storage.store.MatchInfo`) and never touch the database themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.app.records import LeaderboardRow, MatchInfo, SeatInfo

_STATUS_STYLE = {
    "pending": "dim",
    "running": "yellow",
    "finished": "green",
    "void": "red",
    "interrupted": "red",
}


LEGEND = "rating = mu - 3 sigma (TrueSkill); wins = share of matches won"


def render_leaderboard(rows: Sequence[LeaderboardRow], game: str | None = None,
                       legend: bool = True) -> Table:
    """One game's rows in the order given (the store sorts by mu - 3 sigma)."""
    title = Text(f"Leaderboard — {game}" if game else "Leaderboard")
    table = Table(title=title, title_justify="left", header_style="bold", expand=False,
                  box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("#", justify="right", style="bold")
    table.add_column("bot", overflow="fold")  # a long name@version folds, never cut
    if game is None:
        table.add_column("game", no_wrap=True)
    table.add_column("rating", justify="right", min_width=6, style="bold cyan")
    table.add_column("mu", justify="right", min_width=2)
    table.add_column("sigma", justify="right", min_width=5)
    table.add_column("matches", justify="right", min_width=7)
    table.add_column("wins", justify="right", min_width=4)
    table.add_column("faults", justify="right", min_width=6)
    places: dict[str, int] = {}
    for row in rows:
        places[row.pool] = places.get(row.pool, 0) + 1
        faults = Text(str(row.faults), style="red" if row.faults else "dim")
        cells: list[str | Text] = [str(places[row.pool]), Text(row.label)]  # never markup
        if game is None:
            cells.append(Text(row.pool))
        table.add_row(*cells, f"{row.conservative:.2f}", f"{row.mu:.2f}", f"{row.sigma:.2f}",
                      str(row.matches), f"{row.win_share:.0%}", faults)
    if legend:
        table.caption = LEGEND
    if not rows:
        table.caption = "no rated matches yet"
    return table


def print_leaderboard(console: Console, rows: Sequence[LeaderboardRow]) -> None:
    """A table per rating pool (a game, or a game with options that change it, e.g.
    ``kill[target_score=11]``), each ordered by the conservative estimate mu - 3 sigma."""
    games = list(dict.fromkeys(row.pool for row in rows))
    if not games:
        console.print(render_leaderboard(rows))
    for game in games:
        console.print(render_leaderboard([r for r in rows if r.pool == game], game, legend=False))
    if games:
        console.print(LEGEND, style="dim")


def _seat_text(seat: SeatInfo) -> Text:
    text = Text(seat.bot)
    if seat.rank is not None:
        text.append(f" #{seat.rank}", style="bold green" if seat.rank == 1 else "bold")
    if seat.score is not None:
        text.append(f" ({seat.score:g})", style="dim")
    if seat.fault:
        text.append(f" {seat.fault}", style="bold red")
    if seat.peer:  # a remote bot: the connection it played over (a shared token shows here)
        text.append(f" via {seat.peer}", style="dim")
    return text


def render_matches(matches: Sequence[MatchInfo], title: str = "Matches") -> Table:
    """One line per match: id, tournament, game, status, duration and every seat."""
    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("id", justify="right", style="bold")
    table.add_column("tour.", justify="right", style="dim")
    table.add_column("game", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("time", justify="right", no_wrap=True)
    table.add_column("seats (bot #rank (score) fault)", overflow="fold")
    for m in matches:
        seats = Text("  ").join(
            Text(f"{s.seat}:", style="dim") + _seat_text(s) for s in m.seats
        )
        table.add_row(
            str(m.id),
            "" if m.tournament_id is None else str(m.tournament_id),
            Text(m.game),
            Text(m.status, style=_STATUS_STYLE.get(m.status, "")),
            "" if m.duration_s is None else f"{m.duration_s:.1f}s",
            seats,
        )
    if not matches:
        table.caption = "no matches"
    return table


__all__ = ["print_leaderboard", "render_leaderboard", "render_matches"]
