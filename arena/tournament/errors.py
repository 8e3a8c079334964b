"""What can stop a tournament from being created or played, as one clear line each."""

from __future__ import annotations

from arena.errors import ArenaError
from arena.storage.store import StoreError


class TournamentError(ArenaError, ValueError):
    """A tournament cannot be created or run as asked."""


class RemoteBotsAbsent(TournamentError):
    """Remote bots did not attend in time: nothing was played, the tournament can be resumed."""


class BotsDidNotStart(TournamentError):
    """Managed bots did not attend before the first match (they crashed at start, or were
    silent past the start's grace): nothing was played, the tournament can be resumed.

    The message is for the operator: each bot, its exit code and the last lines of its log.
    :attr:`public` says only which bots did not start and how they ended: it is what a
    tournament's note says, which every author may read, while a bot's log is for its
    author and the operator alone (``arena bot log``)."""

    def __init__(self, message: str, public: str) -> None:
        super().__init__(message)
        self.public = public

    def __reduce__(self) -> tuple[type[BotsDidNotStart], tuple[str, str]]:
        return type(self), (str(self), self.public)  # whole across a Ray node's pickling


class SealedDeal(TournamentError):
    """A run without the sandbox asked to play a deal that started sealed (in the sandbox,
    its hands maybe shown live): nothing was played, the tournament can be resumed in the
    sandbox."""


class StorageStopped(StoreError):
    """The database refused a write mid-tournament (read-only or full disk, ...): the run
    stopped taking matches; what was written is intact and ``resume`` finishes the rest."""
