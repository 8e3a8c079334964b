"""The one interface the command line's commands work through, in this process or on a
server: :class:`Operations`. :class:`LocalOperations` runs the use cases over the local
store; :class:`arena.service.client.ArenaClient` asks a server (``--arena``) for the same.
A command picks one (``arena.cli.remote.operations``) and has one code path either way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from arena.app import bots, tournaments
from arena.app.bots import LogFile, Submitted
from arena.players import builds, submissions
from arena.storage.store import BotInfo, NotFoundError, Store


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

    def cancel_tournament(self, tournament_id: int) -> int:
        """Void a tournament's unfinished matches; how many."""
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

    def cancel_tournament(self, tournament_id: int) -> int:
        return tournaments.cancel(self._open(True), tournament_id)


__all__ = ["LocalOperations", "Operations", "StoreOpener"]
