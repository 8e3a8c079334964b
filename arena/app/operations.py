"""The one interface the command line's commands work through, in this process or on a
server: :class:`Operations`. :class:`LocalOperations` runs the use cases over the local
store; :class:`arena.service.client.ArenaClient` asks a server (``--arena``) for the same,
whose operator service calls the same use cases. A command picks one once
(``arena.cli.remote.operations``) and has one code path either way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from arena.app import boards, bots, documents, ladders, reports, tournaments, watch
from arena.app.bots import LogFile, Submitted
from arena.app.documents import ExportText
from arena.app.ladders import LadderView
from arena.app.tournaments import TournamentRequest
from arena.app.watch import WatchUpdate
from arena.players import builds, submissions
from arena.storage.store import BotInfo, LeaderboardRow, NotFoundError, Store

Notice = Callable[[str], None]


class Operations(Protocol):
    """What a command asks of an arena, here or on a server."""

    def bots(self) -> list[tuple[BotInfo, str]]:
        """Every bot version, with its author's name (empty: the operator's)."""
        ...

    def submit(self, path: Path, label: str | None, known_games: Sequence[str]) -> Submitted:
        """Submit the bot in the folder or archive ``path``."""
        ...

    def bot_log(self, bot: str, max_bytes: int = 0) -> tuple[str, list[LogFile]]:
        """A version's logs, their ends; (its label, them)."""
        ...

    def tournaments(self) -> list[dict[str, Any]]:
        """Every tournament as ``tournament list --json`` has it (a server's: with its note)."""
        ...

    def tournament_report(self, tournament_id: int) -> dict[str, Any]:
        """``tournament show --json``'s document."""
        ...

    def create_tournament(self, request: TournamentRequest, notice: Notice) -> dict[str, Any]:
        """Queue a tournament for the server's scheduler; its row as ``tournament list``
        gives it. ``notice`` hears what the request allows bots to do."""
        ...

    def cancel_tournament(self, tournament_id: int) -> int:
        """Void a tournament's unfinished matches; how many."""
        ...

    def void_tournament(self, tournament_id: int) -> int:
        """Take a tournament out of the ratings; how many finished matches no longer count."""
        ...

    def export_tournament(self, tournament_id: int, export_format: str) -> ExportText:
        """``tournament export``'s text (json or csv)."""
        ...

    def leaderboard(self, game: str | None, pool: str | None, tournament_id: int | None,
                    all_pools: bool) -> list[LeaderboardRow]:
        """The ratings (of one tournament's matches alone, with ``tournament_id``); the
        standard pools only unless ``pool`` or ``all_pools`` says otherwise."""
        ...

    def watch_match(self, match_id: int, all_hands: bool = False) -> Iterator[WatchUpdate]:
        """A match's public view as it is played (``all_hands``: every event, where the
        secrecy rule allows), then its result."""
        ...

    def ladder(self, game: str) -> LadderView:
        """The game's ladder."""
        ...


StoreOpener = Callable[[bool], Store]
"""Opens the local store; ``True``: for a command that only reads or changes what is there
(which never creates a database)."""


class LocalOperations:
    """:class:`Operations` over the local store (opened when a use case needs it) and the
    data folder beside it (bot logs, submitted code)."""

    def __init__(self, open_store: StoreOpener, data_dir: Path, *,
                 exists: Callable[[], bool] = lambda: True) -> None:
        self._open = open_store
        self.data_dir = data_dir
        self._exists = exists

    def bots(self) -> list[tuple[BotInfo, str]]:
        return bots.listing(self._open(True))

    def submit(self, path: Path, label: str | None, known_games: Sequence[str]) -> Submitted:
        """As :func:`arena.app.bots.submit`, but the database is created only once the
        code is built (the same code already there is nothing to do, nothing built)."""
        submission = submissions.read_submission(path, known_games)
        if self._exists():
            with contextlib.suppress(NotFoundError):
                same = bots.same_code(self._open(True), submission, None)
                if same is not None:
                    return Submitted(same, "", False, submission.files, submission.size, None)
        try:
            _installed, built_s = builds.install(submission,
                                                 self.data_dir / submissions.SUBMITTED_DIR)
        except submissions.BuildError as err:
            raise submissions.BuildError(f"submission of {submission.manifest.name} refused: "
                                         f"{err}", err.log) from None
        bot, new = bots.record(self._open(False), submission, label, None)
        return Submitted(bot, "", new, submission.files, submission.size, built_s)

    def bot_log(self, bot: str, max_bytes: int = 0) -> tuple[str, list[LogFile]]:
        return bots.bot_log(self._open(True), self.data_dir, bot, max_bytes or bots.LOG_BYTES)

    def tournaments(self) -> list[dict[str, Any]]:
        store = self._open(True)
        counts = store.tournament_match_counts()
        return [documents.tournament_json(t, counts.get(t.id, {}))
                for t in store.list_tournaments()]

    def tournament_report(self, tournament_id: int) -> dict[str, Any]:
        return documents.report_json(reports.show_tournament(self._open(True), tournament_id))

    def create_tournament(self, request: TournamentRequest, notice: Notice) -> dict[str, Any]:
        store = self._open(False)
        info = tournaments.create(store, request, notice=notice, queued=True)
        return documents.tournament_json(info, store.match_counts([info.id]).get(info.id, {}))

    def cancel_tournament(self, tournament_id: int) -> int:
        return tournaments.cancel(self._open(True), tournament_id)

    def void_tournament(self, tournament_id: int) -> int:
        return tournaments.void(self._open(True), tournament_id)

    def export_tournament(self, tournament_id: int, export_format: str) -> ExportText:
        return documents.export_text(self._open(True), tournament_id, export_format)

    def leaderboard(self, game: str | None, pool: str | None, tournament_id: int | None,
                    all_pools: bool) -> list[LeaderboardRow]:
        store = self._open(True)
        if tournament_id is not None:
            return boards.tournament_board(store, tournament_id, game)
        return boards.leaderboard(store, game, pool=pool, all_pools=all_pools)

    def watch_match(self, match_id: int, all_hands: bool = False) -> Iterator[WatchUpdate]:
        return watch.follow(self._open(True), match_id, all_hands=all_hands)  # the operator's

    def ladder(self, game: str) -> LadderView:
        return ladders.show_ladder(self._open(True), game)


__all__ = ["LocalOperations", "Notice", "Operations", "StoreOpener"]
